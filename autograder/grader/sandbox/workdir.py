"""The student's work folder on the host: how much it holds, and removing it safely.

The student's process writes only there (its private /tmp is a small tmpfs), so that folder is
where it could fill the grader's disk or inodes: where the checker can make one, it is a
size-capped file system of its own (workfs.py), and this module's watch is the second line; where
it cannot, the watch is the line. ``over_limit`` measures it (files, bytes, depth)
without recursion and stops counting at the limit, so a flood costs a bounded walk; the checker
calls it after every test and, while a call runs, twice a second (``remote.Student.watch``).
``remove_tree`` uses ``rm -rf``, which removes a tree of any depth (Python's recursive walkers
raise RecursionError on a few thousand nested folders) and never follows a symlink.
"""

from __future__ import annotations

import fcntl
import os
import stat
import subprocess
import tempfile
from pathlib import Path

from ..core.model import ProcessEvent
from ..core.settings import MAX_FOLDER_DEPTH as MAX_DEPTH


def held_open(pids, device: int, seen: set) -> int:
    """Bytes of the unlinked regular files on ``device`` that the processes ``pids`` hold open or
    mapped (``seen``: inodes already counted): a file unlinked while open keeps its blocks, which no
    walk of the folder finds (a student's 1,000 descriptors of 1 GiB each). The student writes only
    in its work folder and its private tmpfs, so what it made on this file system is either in the
    folder or unlinked; a linked file held open elsewhere (the Python installation's libraries,
    mapped by every process) is not the student's to count."""
    held = 0
    for _, _, st in held_files(pids, ("fd", "map_files")):
        key = (st.st_dev, st.st_ino)
        if st.st_dev == device and st.st_nlink == 0 and stat.S_ISREG(st.st_mode) and key not in seen:
            seen.add(key)
            held += st.st_blocks * 512
    return held


def held_files(pids, kinds=("fd",)):
    """(pid, entry, stat) of each file ``pids`` hold: open descriptors ("fd") and mapped files
    ("map_files"), as /proc lists them; the stat is the open file's own, linked or not. A process
    gone, or not ours to read, holds nothing."""
    for pid in pids:
        for kind in kinds:
            base = f"/proc/{pid}/{kind}"
            try:
                names = os.listdir(base)
            except OSError:
                continue
            for name in names:
                try:
                    yield pid, name, os.stat(f"{base}/{name}")
                except OSError:
                    continue


def over_limit(folder: Path, max_files: int, max_bytes: int, pids=()) -> ProcessEvent | None:
    """Which of its limits ``folder`` is over (None if none): more than ``max_files`` entries, more
    than ``max_bytes`` of allocated blocks (with the files on its file system that ``pids`` hold
    open or mapped, see ``held_open``), or folders nested deeper than MAX_DEPTH."""
    files = blocks = 0
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    seen: set = set()
    try:
        top = os.open(folder, flags)
    except OSError:
        return None
    device = os.fstat(top).st_dev
    # depth first, one open listing per level: at most MAX_DEPTH + 1 folders open at a time
    stack = [(top, os.scandir(top), 0)]
    try:
        while stack:
            fd, listing, depth = stack[-1]
            try:
                entry = next(listing, None)
            except OSError:
                entry = None
            if entry is None:
                listing.close()
                os.close(fd)
                stack.pop()
                continue
            files += 1
            if files > max_files:
                return ProcessEvent.FILE_LIMIT
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in seen:  # a hard link counted already
                continue
            seen.add((st.st_dev, st.st_ino))
            blocks += st.st_blocks * 512
            if blocks > max_bytes:
                return ProcessEvent.DISK_LIMIT
            if stat.S_ISDIR(st.st_mode):
                if depth + 1 > MAX_DEPTH:
                    return ProcessEvent.DEPTH_LIMIT
                try:
                    child = os.open(entry.name, flags, dir_fd=fd)
                except OSError:
                    continue
                stack.append((child, os.scandir(child), depth + 1))
    finally:
        for fd, listing, _ in stack:
            listing.close()
            os.close(fd)
    if pids and blocks + held_open(pids, device, seen) > max_bytes:
        return ProcessEvent.HELD_OPEN_LIMIT
    return None


def manifest(folder: Path) -> str:
    """A digest of everything below ``folder`` (the checker's inputs): each entry's relative path,
    type, inode, size, change times, and a regular file's contents. The checker's own folder holds a
    test's handful of small files; any change by someone else (a write, a rename, a truncation, a
    file swapped for a link) changes it."""
    import hashlib

    digest = hashlib.sha256()
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            rel = os.path.relpath(path, folder)
            digest.update(
                f"{rel}\0{st.st_mode}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\n".encode()
            )
            if stat.S_ISREG(st.st_mode):
                try:
                    with open(path, "rb") as f:
                        for chunk in iter(lambda: f.read(1 << 20), b""):
                            digest.update(chunk)
                except OSError:
                    digest.update(b"unreadable")
            elif stat.S_ISLNK(st.st_mode):
                digest.update(os.readlink(path).encode(errors="surrogateescape"))
    return digest.hexdigest()


JOB_PREFIX = "course-grade-"
_HELD: dict[str, int] = {}  # job folder -> the descriptor holding its lock, in the worker that made it
_ORPHANS_SWEPT: list[bool] = []  # once per process


def new_job_dir() -> Path:
    """A notebook's own folder (the checker's home, the student's work folder), mode 0700: what
    the student writes is the grader's user's on the host (its user namespace maps to that user),
    a setuid bit included, so no other user of the machine may reach it (under the fallback as
    root, the student is uid 65534, and only its group may pass through: owner.share). The worker holds a lock
    on it (``.lock``, flock) until ``release_job_dir``: a worker killed mid-notebook (a Dask worker
    lost, Ctrl-C) loses its lock with its life, and the next worker on this machine removes the
    folder it left (``remove_orphans``)."""
    if not _ORPHANS_SWEPT:
        _ORPHANS_SWEPT.append(True)
        remove_orphans()
    path = Path(tempfile.mkdtemp(prefix=JOB_PREFIX))
    os.chmod(path, 0o700)
    fd = os.open(path / ".lock-new", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(path / ".lock-new", path / ".lock")  # only a held lock is ever found by its name
    _HELD[str(path)] = fd
    return path


def release_job_dir(path: Path) -> None:
    """Remove a job folder, however deep, and let go of its lock."""
    remove_tree(path)
    fd = _HELD.pop(str(path), None)
    if fd is not None:
        os.close(fd)


def remove_orphans(folder: str | None = None) -> list[Path]:
    """Remove the job folders in ``folder`` (the temporary folder) that are this user's and whose
    lock nobody holds (their worker is gone); the folders removed. A folder without a lock (an
    older grader's, or one being made this instant) is left alone."""
    removed = []
    for entry in Path(folder or tempfile.gettempdir()).glob(f"{JOB_PREFIX}*"):
        try:
            if entry.is_symlink() or not entry.is_dir() or entry.lstat().st_uid != os.getuid():
                continue
            fd = os.open(entry / ".lock", os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # held: its worker is grading in it
        remove_tree(entry)
        os.close(fd)
        removed.append(entry)
    return removed


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything below it, however deep; symlinks as links."""
    if os.path.lexists(path):
        subprocess.run(["rm", "-rf", "--", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def empty(folder: Path) -> None:
    """Remove everything below ``folder``, keep ``folder`` itself and a fresh ``tmp`` in it."""
    with os.scandir(folder) as entries:
        names = [e.name for e in entries]
    for name in names:
        remove_tree(folder / name)
    (folder / "tmp").mkdir(exist_ok=True)
