"""The checker's audit hook: its writes confined to its job folder, and while a replay runs
(diagnose.py) no write anywhere and nothing of the student's.

``confine`` (spawn.py, before the checker's first line of lesson code, for the checker's whole
life): an open for writing, a folder made, a rename, removal, link, symlink, truncation or change of
mode, owner or times outside the allowed roots (the job folder, the run's folder of compiled
replays, the cgroup folders, ``/dev/null``, the process's own ``/proc`` entry) raises
PermissionError. Defence in depth: the tests' code is the instructor's, but it runs with stand-ins
for the student's functions, and a stand-in that reached a name it should not (issue 42) must not
be able to make the checker write into the repository or the virtual environment. Paths are
resolved as the kernel would (relative ones against the working folder or ``dir_fd``, links
followed); a raw ``os.open`` with ``dir_fd`` resolves against the working folder (its event does
not carry the descriptor), and C code (XLA's) is not audited.

An audit hook (PEP 578), added once per process and idle unless ``guarded`` is on: it refuses
every write (an open for writing, a removal, a rename, a change of mode or time) and every read or
listing inside the student's work folder. A mistake's or a reference's code is the course's own,
but it runs on the student's arguments, and a replay must compute what the student's call computed
from the same inputs, nothing more. ``paused`` is for the grader's own machinery that a replay
reaches (replay_cache.py's folder of compiled programs, read and written by JAX's compilation inside a
replay): what runs under it is never a mistake's or a reference's own code.
"""

from __future__ import annotations

import contextlib
import os
import sys

# Module state, by necessity: an audit hook is process-wide and cannot be removed (PEP 578), so the
# one hook this module adds reads these two switches; ``guarded`` and ``confine`` set them.
_GUARD = {"on": False, "inside": False, "folder": "", "hooked": False}
_CONFINED = {"roots": (), "on": False, "inside": False}
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = {"os.remove", "os.rmdir", "os.mkdir", "os.rename", "os.symlink", "os.link", "os.truncate"}
_CHANGES |= {"os.chmod", "os.chown", "os.utime", "shutil.rmtree", "shutil.move", "shutil.copyfile"}
_CHANGES |= {"os.setxattr", "os.removexattr", "shutil.copytree", "os.chflags"}
_LISTS = {"os.listdir", "os.scandir", "glob.glob", "os.walk"}
# which arguments of a changing event name a path it changes (the rest: the first), and its dir_fd's
_TARGETS = {"os.rename": (0, 1), "os.link": (0, 1), "os.symlink": (1,), "shutil.move": (0, 1)}
_TARGETS |= {"shutil.copyfile": (1,), "shutil.copytree": (1,)}
_DIR_FD = {"os.mkdir": 2, "os.remove": 1, "os.rmdir": 1, "os.chmod": 2, "os.chown": 3, "os.utime": 3}
_DIR_FD |= {"os.symlink": 2, "shutil.rmtree": 1}


def _where(path, dir_fd=None) -> str | None:
    """The real path a file-system call on ``path`` reaches; None for a descriptor that is no file
    (a pipe, a socket)."""
    if isinstance(path, int):
        target = os.readlink(f"/proc/self/fd/{path}")
        return os.path.realpath(target) if target.startswith("/") else None
    path = os.fsdecode(path)
    if not os.path.isabs(path):
        base = os.readlink(f"/proc/self/fd/{dir_fd}") if isinstance(dir_fd, int) else os.getcwd()
        path = os.path.join(base, path)
    return os.path.realpath(path)


def _allowed(real: str | None) -> bool:
    if real is None or real == os.devnull:
        return True
    own = (f"/proc/{os.getpid()}", *_CONFINED["roots"])
    return any(real == root or real.startswith(root + os.sep) for root in own)


def _confined(event: str, args: tuple) -> None:
    """Outside the allowed roots: no write, no change (see the module's docstring)."""
    if event == "open":
        mode, flags = (args[1] if len(args) > 1 else "r") or "r", args[2] if len(args) > 2 else 0
        if not (any(c in str(mode) for c in "wax+") or (isinstance(flags, int) and flags & _WRITES)):
            return
        targets, dir_fd = (args[0],), None
    else:
        targets = tuple(args[i] for i in _TARGETS.get(event, (0,)) if i < len(args))
        i = _DIR_FD.get(event)
        dir_fd = args[i] if i is not None and i < len(args) else None
    _CONFINED["inside"] = True
    try:
        for path in targets:
            try:
                real = _where(path, dir_fd)
            except (OSError, TypeError, ValueError):
                real = ""  # cannot say where it goes: refused
            if not _allowed(real):
                raise PermissionError(f"the checker writes only in its job folder, not {real or path!r}")
    finally:
        _CONFINED["inside"] = False


def _audit(event: str, args: tuple) -> None:
    """The checker confined (``confine``); while a replay runs: no write anywhere, nothing read or
    listed in the student's folder."""
    if _CONFINED["on"] and not _CONFINED["inside"] and (event == "open" or event in _CHANGES):
        _confined(event, args)
    if not _GUARD["on"] or _GUARD["inside"]:
        return
    if event != "open" and event not in _CHANGES and event not in _LISTS:
        return
    _GUARD["inside"] = True
    try:
        if event in _CHANGES:
            raise PermissionError("diagnosis writes nothing")
        path = args[0] if args else None
        if event == "open":
            mode, flags = (args[1] if len(args) > 1 else "r") or "r", args[2] if len(args) > 2 else 0
            if any(c in str(mode) for c in "wax+") or (isinstance(flags, int) and flags & _WRITES):
                raise PermissionError("diagnosis writes nothing")
        if isinstance(path, (str, bytes, os.PathLike)):
            real = os.path.realpath(os.fsdecode(path))
            folder = _GUARD["folder"]
            if real == folder or real.startswith(folder + os.sep):
                raise PermissionError("diagnosis reads nothing of the student's")
    finally:
        _GUARD["inside"] = False


def _hook() -> None:
    if not _GUARD["hooked"]:
        sys.addaudithook(_audit)  # once per process (a hook cannot be removed); idle unless asked
        _GUARD["hooked"] = True


def confine(roots: list[str]) -> None:
    """From now on, for this process's life: writes only below ``roots`` (see above)."""
    _CONFINED["roots"] = tuple(os.path.realpath(r) for r in roots if r)
    _CONFINED["on"] = True
    _hook()


def allow(root: str) -> None:
    """One more folder the confined process writes in (the run's compiled replays, replay_cache.use)."""
    if root:
        _CONFINED["roots"] = (*_CONFINED["roots"], os.path.realpath(root))


@contextlib.contextmanager
def guarded(student_folder: str):
    _hook()
    _GUARD.update(on=True, folder=os.path.realpath(student_folder))
    try:
        yield
    finally:
        _GUARD["on"] = False


@contextlib.contextmanager
def paused():
    """The grader's own file work inside a replay (see above), let through."""
    was = _GUARD["inside"]
    _GUARD["inside"] = True
    try:
        yield
    finally:
        _GUARD["inside"] = was
