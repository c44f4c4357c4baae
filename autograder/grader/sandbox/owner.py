"""Under the fallback as root: what the student's process (uid and gid 65534) must reach, reachable.

Bubblewrap maps the student to uid 65534 in a user namespace of its own, and maps that uid to the
grader's user: the student owns what the grader made for it. Under the fallback there is no such
namespace, and where the grader runs as root (Gradescope's containers) the launcher switches the
student's process to uid and gid 65534 with no capability at all (launcher.py): nothing the grader
made is then the student's unless this module makes it so, and it makes exactly this:

- ``share``, before the process starts: the work folder and its ``tmp`` owned by 65534, mode 0700;
  the tests' input folder and the sandbox's code folder group 65534, readable and not writable;
  the job's own folders on the way to them (mode 0700, the grader's) passable by group 65534 only,
  and their other entries (the checker's home) closed to it;
- ``hand_over``, before each call of the student's (the student's processes frozen meanwhile):
  what the checker made since in the work folder (a test's folder for the student to write in,
  below GRADING_OUTPUT_ROOT) becomes the student's; what it made in the input folder (a trace a
  test hands over: tempfile makes folders 0700 and files 0600) readable by group 65534. Only
  entries owned by the grader change, never through a link, never a file with a second name (a
  hard link the student made to something else of the grader's).

What the launcher cannot reach by these (a Python installed below ``/root``), it covers in a mount
namespace of the student's process's own, or refuses to launch (launcher.cover).
"""

from __future__ import annotations

import itertools
import os
import stat
from pathlib import Path

from ..core.settings import MAX_FOLDER_DEPTH
from .launcher import searchable
from .workdir import JOB_PREFIX

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _job_root(job_dir: Path) -> Path:
    """The grader's job folder that holds ``job_dir`` (workdir.new_job_dir's), else ``job_dir``."""
    for folder in (job_dir, *job_dir.parents):
        if folder.name.startswith(JOB_PREFIX):
            return folder
    return job_dir


def share(job_dir: Path, workdir: Path, inputs: Path | None, code_dir: Path, uid: int, gid: int, most: int) -> None:
    """Before the student's process starts (see the module's docstring); ``most``: see ``hand_over``."""
    for folder in (workdir, workdir / "tmp"):
        os.chown(folder, uid, gid, follow_symlinks=False)
        os.chmod(folder, 0o700)
    readable = [f for f in (inputs, code_dir) if f is not None]
    for folder in readable:
        _open_to_group(folder, gid, most)
    root = _job_root(job_dir)
    ways = [Path(os.path.realpath(p)) for p in (workdir, *readable)]
    on_way = {str(p) for way in ways for p in (way, *way.parents)}
    me = os.geteuid()
    for way in ways:
        for folder in reversed(way.parents):
            if folder != root and root not in folder.parents:
                continue  # not the grader's job folder: the launcher covers it, or refuses
            st = os.stat(folder, follow_symlinks=False)
            if st.st_uid != me or searchable(st, uid, gid):
                continue
            os.chown(folder, -1, gid, follow_symlinks=False)
            os.chmod(folder, (st.st_mode & 0o7707) | 0o010)  # group: pass through, nothing else
            with os.scandir(folder) as entries:
                others = [e for e in entries if str(Path(folder, e.name)) not in on_way]
            for entry in others:  # the rest of the folder (the checker's home): closed to others
                st = entry.stat(follow_symlinks=False)
                if st.st_uid == me and not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o007:
                    os.chmod(entry.path, st.st_mode & 0o7770)


def hand_over(workdir: Path, inputs: Path | None, uid: int, gid: int, most: int) -> None:
    """Before a call (see the module's docstring): at most ``most`` entries looked at per folder."""
    for top in (workdir, workdir / "tmp"):
        for fd, name, st in _ours(top, most):
            if stat.S_ISDIR(st.st_mode) or st.st_nlink == 1:
                os.chown(name, uid, gid, dir_fd=fd, follow_symlinks=False)
    if inputs is not None:
        _open_to_group(inputs, gid, most)


def _open_to_group(top: Path, gid: int, most: int) -> None:
    """``top`` and the grader's entries below it: group ``gid``, readable (and passable), never
    writable, by that group; only what is not so already is changed."""
    entries = itertools.chain([(None, str(top), os.stat(top, follow_symlinks=False))], _ours(top, most))
    for fd, name, st in entries:  # one at a time: each folder's descriptor is open only meanwhile
        if st.st_uid != os.geteuid() or stat.S_ISLNK(st.st_mode):
            continue
        wanted = 0o050 if stat.S_ISDIR(st.st_mode) else 0o040
        mode = (st.st_mode & 0o7707) | wanted
        if st.st_gid != gid:
            os.chown(name, -1, gid, dir_fd=fd, follow_symlinks=False)
        if stat.S_IMODE(st.st_mode) != mode:
            os.chmod(name, mode, dir_fd=fd)  # the grader's own folder: nobody else can swap a link in


def _ours(top: Path, most: int):
    """(folder descriptor, name, stat) of each entry below ``top`` that this process's user owns,
    never through a link, descending into every folder, whoever owns it: a test's folder made in
    one the student made (a trace folder below the student's own ``rel``) is the student's to
    write in too. The student's processes are frozen meanwhile and each folder is opened by
    descriptor, O_NOFOLLOW, and checked to be the one listed, so nothing can be swapped under the
    walk; a grader entry in a student's folder was made there by a test, as the student cannot move
    one of the grader's in (its other folders are not the student's to write, or are sticky).
    At most ``most`` entries looked at, MAX_FOLDER_DEPTH deep."""
    me = os.geteuid()
    try:
        stack = [(os.open(top, _FOLDER), 0)]
    except OSError:
        return
    seen = 0
    try:
        while stack:
            fd, depth = stack.pop()
            try:
                try:
                    with os.scandir(fd) as listing:
                        names = [e.name for e in listing]
                except OSError:
                    names = []
                for name in names:
                    seen += 1
                    if seen > most:
                        return
                    try:
                        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISLNK(st.st_mode):
                        continue
                    if st.st_uid == me:
                        yield fd, name, st
                    if stat.S_ISDIR(st.st_mode) and depth < MAX_FOLDER_DEPTH:
                        try:
                            child = os.open(name, _FOLDER, dir_fd=fd)
                        except OSError:
                            continue
                        now = os.fstat(child)  # the folder stat'ed (the caller may have given it away since)
                        if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                            stack.append((child, depth + 1))
                        else:
                            os.close(child)
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
