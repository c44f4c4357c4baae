"""A grading run's folder of compiled replays, shared by its checkers on one machine.

A diagnosis's compilations (replay_cache.py) depend only on trusted code and on the call's shapes and
dtypes, so the checkers of one run share them: the second student whose hidden check draws the
same shapes finds the programs the first one's replays compiled. They are executables that the
trusted checker loads and runs, so no student's process may ever write them:
- only where the student's process has namespaces of its own (bubblewrap): under sandbox/launch.py's
  fallback it is this user and could write any folder of this user's, and there is no folder (a
  checker whose job names one while its student is not namespaced stops as the grader's fault);
- made by the run (``run_folder``, classrun.py: handed to its pool workers by their initializer,
  ``adopt``) or by a Dask worker for itself (``worker_folder``), a locked job folder (workdir.py)
  of mode 0700 removed after the run (or, after a crash, by the next worker on the machine), in
  none of the folders the sandbox binds (a checker whose job names one its student is shown stops);
- a program's file is named by the SHA-256 of JAX's key and holds the key again, checked before
  it is loaded; it is written whole under another name, then renamed; only a regular file of at
  most ``Folder.cap`` bytes is read, never through a link.
Bounded by COMPILED_FOLDER_BYTES across the run's checkers: a ledger (the byte count, in the lock
file every writer holds while it writes) says when the oldest written go, until three quarters
are left. It serves only inside ``replay_cache.kept`` (a diagnosis's replays); a warm folder can let a
replay finish within its time that a cold one would not, so a regrade alone may name a mistake the
class run did not (never a point).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import os
import stat
import threading

from ..sandbox import guard
from ..core.settings import COMPILED_FOLDER_BYTES
from ..sandbox.workdir import new_job_dir, release_job_dir


class Folder:
    """The run's folder as one checker reads and writes it (see above)."""

    def __init__(self, path: str, limit: int = COMPILED_FOLDER_BYTES):
        self.path, self.limit = path, limit
        self.cap = max(1, limit // 64)  # one program at most: a replay's are kilobytes

    def _file(self, key: str) -> str:
        return os.path.join(self.path, hashlib.sha256(key.encode()).hexdigest())

    def read(self, key: str) -> bytes | None:
        """The program stored for ``key``, or None (none, another key's, too large, not a file)."""
        head = key.encode() + b"\0"
        try:
            with guard.paused():
                fd = os.open(self._file(key), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as f:
                    st = os.fstat(fd)
                    if not stat.S_ISREG(st.st_mode) or st.st_size > len(head) + self.cap:
                        return None
                    data = f.read()
                return data[len(head) :] if data.startswith(head) else None
        except (OSError, MemoryError):  # a replay's memory cap reached: compiled instead
            return None

    def write(self, key: str, value: bytes) -> None:
        if len(value) > self.cap:
            return
        name = self._file(key)
        part = f"{name}.{os.getpid()}.part"
        try:
            with guard.paused(), self._ledger() as used:
                if os.path.lexists(name):
                    return
                fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(key.encode() + b"\0" + value)
                os.replace(part, name)
                used[0] += len(key.encode()) + 1 + len(value)
        except (OSError, MemoryError):  # not kept: the next checker compiles it again
            with contextlib.suppress(OSError), guard.paused():
                os.unlink(part)

    @contextlib.contextmanager
    def _ledger(self):
        """The run's byte count, read and written under the lock every writer holds; past the
        bound, the oldest written go (and the count is made again from what is there)."""
        fd = os.open(os.path.join(self.path, ".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            text = os.pread(fd, 32, 0)
            used = [int(text) if text.strip().isdigit() else sum(e[1] for e in self._entries())]
            yield used
            if used[0] > self.limit:
                used[0] = self._evict()
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(used[0]).encode(), 0)
        finally:
            os.close(fd)  # the lock goes with it

    def _evict(self) -> int:
        entries = sorted(self._entries(), key=lambda e: e[2])
        used = sum(size for _, size, _ in entries)
        for path, size, _ in entries:
            if used <= self.limit * 3 // 4:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                used -= size
        return used

    def _entries(self) -> list[tuple[str, int, float]]:
        """The programs (files named by a SHA-256): path, bytes, when written."""
        out = []
        with os.scandir(self.path) as it:
            for e in it:
                if len(e.name) != 64 or e.name.strip("0123456789abcdef"):
                    continue
                with contextlib.suppress(OSError):
                    st = e.stat(follow_symlinks=False)
                    if stat.S_ISREG(st.st_mode):
                        out.append((e.path, st.st_size, st.st_mtime))
        return out


def private(path: str) -> bool:
    """Whether ``path`` is a folder of this user's that no one else may enter (not a link)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


# Module state, by necessity: set once per pool worker by its initializer (``adopt``), read by every
# job that worker grades; a Dask worker makes its own folder on its first job.
_WORKER = {"path": "", "worker": False}  # this process's: the run's folder, and whether it grades as a worker
_LOCK = threading.Lock()  # a Dask worker grades on a thread pool


def adopt(path: str) -> None:
    """This process grades as a worker: with the folder its run made (classrun.py's pool
    initializer), or "" (a Dask worker's task: one of its own, made when first needed)."""
    with _LOCK:
        _WORKER["worker"] = True
        if path and private(path):
            _WORKER["path"] = path


def worker_folder() -> str:
    """The folder this process names in its checkers' jobs: a worker's (the run's, or one of its
    own made once and removed at its exit); "" in a process that is no worker (the parent's
    canary grades the solution, which fails no check)."""
    with _LOCK:
        if not _WORKER["worker"]:
            return ""
        if not _WORKER["path"] or not private(_WORKER["path"]):
            home = make_folder()
            if home is not None:
                atexit.register(release_job_dir, home)
            _WORKER["path"] = str(home / "compiled") if home is not None else ""
        return _WORKER["path"]


@contextlib.contextmanager
def run_folder(wanted: bool):
    """A grading run's folder (classrun.py), made where wanted and removed after: its path or ""."""
    home = make_folder() if wanted else None
    try:
        yield str(home / "compiled") if home is not None else ""
    finally:
        if home is not None:
            release_job_dir(home)


def make_folder():
    """A new locked job folder (workdir.py) holding a private folder "compiled"; None where none
    can be made. Its maker removes it (workdir.release_job_dir)."""
    try:
        home = new_job_dir()
    except OSError:
        return None
    try:
        os.mkdir(home / "compiled", 0o700)
    except OSError:
        release_job_dir(home)
        return None
    return home
