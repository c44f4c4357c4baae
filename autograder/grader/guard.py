"""While a replay runs in the checker (diagnose.py): no write anywhere, nothing of the student's.

An audit hook (PEP 578), added once per process and idle unless ``guarded`` is on: it refuses
every write (an open for writing, a removal, a rename, a change of mode or time) and every read or
listing inside the student's work folder. A mistake's or a reference's code is the course's own,
but it runs on the student's arguments, and a replay must compute what the student's call computed
from the same inputs, nothing more. ``paused`` is for the grader's own machinery that a replay
reaches (jitcache.py's folder of compiled programs, read and written by JAX's compilation inside a
replay): what runs under it is never a mistake's or a reference's own code.
"""

from __future__ import annotations

import contextlib
import os
import sys

_GUARD = {"on": False, "inside": False, "folder": "", "hooked": False}
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = {"os.remove", "os.rmdir", "os.mkdir", "os.rename", "os.symlink", "os.link", "os.truncate"}
_CHANGES |= {"os.chmod", "os.chown", "os.utime", "shutil.rmtree", "shutil.move", "shutil.copyfile"}
_LISTS = {"os.listdir", "os.scandir", "glob.glob", "os.walk"}


def _audit(event: str, args: tuple) -> None:
    """While a replay runs: no write anywhere, nothing read or listed in the student's folder."""
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


@contextlib.contextmanager
def guarded(student_folder: str):
    if not _GUARD["hooked"]:
        sys.addaudithook(_audit)  # once per process (a hook cannot be removed); idle unless a replay runs
        _GUARD["hooked"] = True
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
