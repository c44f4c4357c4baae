"""What a download holds, read as data: a folder's entries (one lstat each, no link followed) or a
zip's members (through the one file the intake opened), and each file's bytes read once, capped,
from a regular file opened without following a link and without blocking (``read_regular``).

A notebook is read when the intake parses it and again when a worker can take it: both times by the
same reader, and the second time must give the bytes the first gave (``Submission.again``), or its
row is an error saying what the file became. Whatever a file turns into while a class is graded (a
named pipe, a link to /dev/zero, a sparse file of gigabytes, a folder swapped for a link, other
bytes, nothing), each read returns or fails at once: no classmate waits on it.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import re
import stat
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...common.textsafe import printable
from ...common.words import human_bytes
from ..core.settings import MAX_FOLDER_DEPTH, MAX_NOTEBOOK_BYTES


class IntakeError(ValueError):
    """SUBMISSIONS cannot be taken in at all (not a folder or a readable zip; no lesson to grade)."""


@dataclass(frozen=True)
class Entry:
    """One file or folder of the download, before anyone is attributed to it."""

    parts: tuple[str, ...]  # its path below SUBMISSIONS, or inside the zip
    mtime: float = 0.0
    read: Callable[[], bytes] | None = None  # None: not to be read, ``bad`` says why
    bad: str = ""
    folder: bool = False
    size: int = 0  # bytes, as the folder or the zip's header says (the read itself stops past the cap)


@dataclass(frozen=True)
class Submission:
    """The notebook graded for one (student, lesson)."""

    name: str  # where it was found, printable
    read: Callable[[], bytes]  # its bytes (ValueError or OSError with a short reason if unreadable)
    sha256: str = ""  # of the bytes the intake read: the only bytes ever graded

    def again(self) -> bytes:
        """Its bytes read again when a worker can take it, as the intake read them (capped, no link
        followed, never waiting on a pipe): ValueError saying what became of the file since, if it
        is no longer a regular file or no longer holds the bytes the intake read."""
        try:
            raw = self.read()
        except (OSError, ValueError) as exc:
            raise ValueError(f"the file changed during grading: it is now {reason(exc)}: not graded") from None
        if hashlib.sha256(raw).hexdigest() != self.sha256:
            raise ValueError("the file changed during grading: it now holds other bytes than when taken in: not graded")
        return raw


class NotRead(ValueError):
    """A file that is not read: what it is (``a named pipe``, ``a symlink``, ``gone``, ``over 50 MiB``)."""


_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
    stat.S_IFLNK: "a symlink",
    stat.S_IFREG: "a file",
}
_NOFOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)


def _regular(fd: int, cap: int) -> None:
    """Nothing if ``fd`` is a regular file of at most ``cap`` bytes; else NotRead, ``fd`` closed."""
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_size <= cap:
        return
    os.close(fd)
    raise NotRead(_over(cap) if stat.S_ISREG(st.st_mode) else _kind(st.st_mode))


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def reason(exc: BaseException) -> str:
    if isinstance(exc, ValueError):
        return str(exc)
    return "gone" if isinstance(exc, FileNotFoundError) else f"unreadable ({exc.strerror or type(exc).__name__})"


def _open_folder(root: Path, parts: tuple[str, ...]) -> int:
    """A descriptor of the folder ``root/parts``, each folder below ``root`` opened from the one
    above with O_NOFOLLOW | O_DIRECTORY: NotRead if one of them is now a link or a file."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in parts:
            try:
                below = os.open(name, _NOFOLLOW | os.O_DIRECTORY, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise NotRead(f"below {_kind(os.lstat(name, dir_fd=fd).st_mode)} where a folder was") from None
                raise
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(root: Path, parts: tuple[str, ...], cap: int | None = None) -> bytes:
    """The bytes of ``root/parts``, a regular file of at most ``cap`` bytes (MAX_NOTEBOOK_BYTES),
    read once and never past ``cap + 1``: each folder below ``root`` opened from the one above
    without following a link (O_NOFOLLOW | O_DIRECTORY, so that no folder swapped for a link leads
    elsewhere), the file too, and without blocking (O_NONBLOCK: a named pipe put in its place does
    not wait for a writer); then fstat on what was opened decides. NotRead says what it is
    otherwise, OSError (ENOENT: gone) why it could not be opened. Whatever the file became since
    it was listed, this returns or raises at once: a pipe, a device, a link to /dev/zero, a
    sparse file of gigabytes."""
    cap = MAX_NOTEBOOK_BYTES if cap is None else cap
    fd = _open_folder(root, parts[:-1])
    try:
        try:
            file = os.open(parts[-1], _NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EMLINK):  # a link; a socket
                raise NotRead(_kind(os.lstat(parts[-1], dir_fd=fd).st_mode)) from None
            raise
    finally:
        os.close(fd)
    _regular(file, cap)
    with os.fdopen(file, "rb", buffering=0) as f:
        chunks, left = [], cap + 1
        while left > 0 and (chunk := f.read(min(left, 2**20))):
            chunks.append(chunk)
            left -= len(chunk)
    data = b"".join(chunks)
    if len(data) > cap:  # it grew while read
        raise NotRead(_over(cap))
    return data


def entries(submissions: Path) -> tuple[list[Entry], list[str]]:
    """Every file and folder of a folder or a zip, and notes on what was refused unread."""
    submissions = Path(submissions)
    if submissions.is_dir() and not submissions.is_symlink():
        return list(_folder(submissions, submissions)), []
    if submissions.suffix.lower() == ".zip":
        return _zip(submissions)
    raise IntakeError(f"{printable(str(submissions))}: neither a folder of submissions nor a .zip of one")


def _folder(root: Path, folder: Path):
    """Every entry below ``folder``, depth first, without recursion: a folder nested deeper than
    MAX_FOLDER_DEPTH or one that cannot be listed is named, never a crash. Each folder is listed
    through a descriptor opened as read_regular opens one (no link followed at any level), so that
    a student's folder swapped for a link while the class is listed lists nothing elsewhere."""
    stack = [folder.relative_to(root).parts]
    while stack:
        here = stack.pop()
        try:
            fd = _open_folder(root, here)
        except NotRead as exc:  # swapped for a link since its folder was listed: not followed
            yield Entry(here, bad=f"not listed: {exc}")
            continue
        except OSError as exc:
            yield Entry(here, bad=f"cannot be listed ({exc.strerror or type(exc).__name__})")
            continue
        try:
            listing = [(n, _lstat(fd, n)) for n in sorted(_names(fd), reverse=True)]
        except OSError as exc:
            yield Entry(here, bad=f"cannot be listed ({exc.strerror or type(exc).__name__})")
            continue
        finally:
            os.close(fd)
        for name, st in listing:
            parts = (*here, name)
            if name.startswith(".") or name == "__MACOSX":
                continue
            if isinstance(st, OSError):
                yield Entry(parts, bad=f"cannot be read ({st.strerror or type(st).__name__})")
            elif stat.S_ISLNK(st.st_mode):  # never followed: it could point at solutions/ or another student's work
                yield Entry(parts, bad="a symlink: not followed, not graded")
            elif stat.S_ISDIR(st.st_mode):
                if len(parts) > MAX_FOLDER_DEPTH:
                    yield Entry(parts, bad=f"folders nested over {MAX_FOLDER_DEPTH} deep: not read")
                    continue
                yield Entry(parts, folder=True)
                stack.append(parts)
            elif not stat.S_ISREG(st.st_mode):  # a pipe would block its reader, a device never end
                yield Entry(parts, st.st_mtime, bad=f"{_kind(st.st_mode)}, not a file: not read")
            else:  # read once, by read_regular, as what it is then (the listing said what it was)
                big = st.st_size > MAX_NOTEBOOK_BYTES
                reader = None if big else functools.partial(read_regular, root, parts)
                yield Entry(parts, st.st_mtime, reader, _too_big() if big else "", size=st.st_size)


def _names(fd: int) -> list[str]:
    """The names in the folder open at ``fd``."""
    return os.listdir(fd)


def _lstat(fd: int, name: str) -> os.stat_result | OSError:
    try:
        return os.lstat(name, dir_fd=fd)
    except OSError as exc:
        return exc


def _over(cap: int | None = None) -> str:
    return f"over {human_bytes(MAX_NOTEBOOK_BYTES if cap is None else cap)}"


def _too_big() -> str:
    return f"{_over()}: not read"


def _zip(path: Path) -> tuple[list[Entry], list[str]]:
    """The zip's entries, each member read through one file opened here and held (O_NONBLOCK: a pipe
    named .zip is refused, not waited on): a zip renamed over it later changes nothing read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except OSError:
        fd = None
    if fd is None or not stat.S_ISREG(os.fstat(fd).st_mode):
        if fd is not None:
            os.close(fd)
        raise IntakeError(f"{printable(str(path))}: neither a folder of submissions nor a .zip of one")
    try:
        zf = zipfile.ZipFile(os.fdopen(fd, "rb"))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:  # UnicodeDecodeError: a bad member name
        raise IntakeError(f"{printable(path.name)}: not a readable zip ({printable(str(exc), 200)})") from None
    out, notes = [], []
    for info in zf.infolist():
        shown = printable(info.filename, 200, keep="")
        parts = tuple(p for p in info.filename.replace("\\", "/").split("/") if p not in ("", "."))
        if info.filename.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", info.filename) or ".." in parts:
            notes.append(f"{shown}: a path outside the zip (absolute or with '..'): not read")
            continue
        if not parts or any(p.startswith(".") or p == "__MACOSX" for p in parts):
            continue
        mtime = _zip_time(info)
        if stat.S_ISLNK(info.external_attr >> 16):
            out.append(Entry(parts, mtime, bad="a symlink in the zip: not followed, not graded"))
        elif info.is_dir():
            out.append(Entry(parts, folder=True))
        elif info.file_size > MAX_NOTEBOOK_BYTES:
            out.append(Entry(parts, mtime, bad=_too_big()))
        else:  # read only if it is a notebook, within its student's budget (take)
            out.append(Entry(parts, mtime, _member_reader(zf, info), size=info.file_size))
    return out, notes


def _zip_time(info: zipfile.ZipInfo) -> float:
    try:
        return time.mktime((*info.date_time, 0, 0, -1))
    except (OverflowError, ValueError):
        return 0.0


def _member_reader(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], bytes]:
    def read() -> bytes:
        try:
            with zf.open(info) as f:
                data = f.read(MAX_NOTEBOOK_BYTES + 1)  # never more, whatever the header declared
        except Exception as exc:  # noqa: BLE001  corrupt, encrypted, an unknown compression...
            raise ValueError(printable(f"unreadable in the zip: {type(exc).__name__}: {exc}", 200)) from None
        if len(data) > MAX_NOTEBOOK_BYTES:
            raise ValueError(_too_big())
        return data

    return read
