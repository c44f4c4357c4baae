"""The checker's compilations, kept in its own memory: what makes a diagnosis affordable.

A diagnosis (diagnose.py) replays a failed check's calls on each known mistake of a function and
on the reference. Each is a fresh Python function, so ``jax.jit`` traces and XLA compiles its
kernels again, although most of them are the same program as the reference's or another
mistake's (lesson 05's policy_table compiles its four policies for each of its 13 mistakes). JAX's
persistent compilation cache is addressed by the content of the program (a hash of the lowered
module, the compile options and the backend), so identical programs compile once.

Its usual store is a folder on disk, which this grader will not use: a compiled executable found
there would run in the trusted checker, and where the student's process has no namespaces of its
own (sandbox.py's fallback) a folder the checker can write is one the student's process may reach.
Here the store is a dict in the checker's memory, filled only by the checker's own compilations
and gone with it: nothing a student writes can enter it, and an entry is found only by the hash of
the program that produced it. It serves only while a diagnosis replays (``kept``, diagnose.py):
outside, the checker compiles exactly as with no cache, so no check's outcome depends on whether
an earlier one failed (lesson 04's warm-up check times a compilation in the checker: a cache hit
there would make its bound more lenient). A run with ``--no-diagnose`` never installs it.

Across checkers: a replay's compilation depends only on trusted code and on the call's shapes and
dtypes, so a class's checkers on one machine share a folder of them (``Folder``), made by the grading
run (classrun.py, handed to its workers) or by a worker for itself (a Dask worker), mode 0700, in
none of the folders the student's process is shown: where the student's process has namespaces
of its own (bubblewrap), and only there (under the fallback a student's process is this user and
could write it; the checker then stops as the grader's fault if its job names a folder, as for
replayed.py's outcomes). A file there is found by the SHA-256 of JAX's key and holds the key
again, checked on reading; it is written whole then renamed. Like the memory store, it serves only
inside ``kept``. Bounded by COMPILED_FOLDER_BYTES, the oldest written out first.

The store plugs into ``jax._src.compilation_cache`` (JAX's ``CacheInterface``), which is not a
public API: ``install`` checks the names it needs and, where a JAX lacks them, installs nothing and
returns why (diagnosis is then slower, never different). tests/test_diagnosis.py checks that the
pinned JAX takes it and that a second compilation of the same program is found in it.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import signal
import stat
import threading

from . import guard
from .settings import COMPILE_CACHE_BYTES, COMPILED_FOLDER_BYTES


class MemoryCache:
    """At most ``limit`` bytes of compressed executables by key, least recently used out first."""

    _path = "<the checker's memory>"  # what JAX's log line names as the cache's place

    def __init__(self, limit: int = COMPILE_CACHE_BYTES):
        self.limit, self.size = limit, 0
        self.entries: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self.hits = self.misses = 0
        self.lock = threading.Lock()

    folder: Folder | None = None  # the class's folder of compiled replays, where shared (kept())
    found = 0  # of the misses, how many the folder answered

    def get(self, key: str):
        with _no_alarm(), self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
                self.hits += 1
                return value
            self.misses += 1
        value = self.folder.read(key) if self.folder is not None else None
        if value is not None:
            self.found += 1
            self._keep(key, value)
        return value

    def put(self, key: str, value: bytes) -> None:
        self._keep(key, value)
        if self.folder is not None and isinstance(value, bytes):
            self.folder.write(key, value)

    def _keep(self, key: str, value: bytes) -> None:
        if not isinstance(value, bytes) or len(value) > self.limit:
            return
        with _no_alarm(), self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= len(old)
            self.entries[key] = value
            self.size += len(value)
            while self.size > self.limit:
                _, dropped = self.entries.popitem(last=False)
                self.size -= len(dropped)


class Folder:
    """A folder of compiled programs shared by a class's checkers on one machine (see above)."""

    def __init__(self, path: str, limit: int = COMPILED_FOLDER_BYTES):
        self.path, self.limit, self.used = path, limit, None  # used: bytes, counted at the first write

    def _file(self, key: str) -> str:
        return os.path.join(self.path, hashlib.sha256(key.encode()).hexdigest())

    def read(self, key: str) -> bytes | None:
        head = key.encode() + b"\0"
        try:
            with _no_alarm(), guard.paused():
                fd = os.open(self._file(key), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as f:  # what was written is at most an eighth of the bound
                    if os.fstat(fd).st_size > len(head) + self.limit // 8:
                        return None
                    data = f.read()
        except (OSError, MemoryError):  # a replay's memory cap reached: compiled instead
            return None
        return data[len(head) :] if data.startswith(head) else None  # another key's: not this program

    def write(self, key: str, value: bytes) -> None:
        if len(value) > self.limit // 8:
            return
        name = self._file(key)
        part = f"{name}.{os.getpid()}.part"
        try:
            with _no_alarm(), guard.paused():
                if os.path.exists(name):
                    return
                fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(key.encode() + b"\0" + value)
                os.replace(part, name)
                self._bound(len(key) + 1 + len(value))
        except OSError:
            with contextlib.suppress(OSError), guard.paused():
                os.unlink(part)

    def _bound(self, added: int) -> None:
        """Counted once (a scan), then by what this process writes; past the bound, the oldest
        written go until three quarters are left (another checker's removals are its own)."""
        if self.used is None:
            self.used = sum(size for _, size, _ in self._entries())
        else:
            self.used += added
        if self.used <= self.limit:
            return
        entries = sorted(self._entries(), key=lambda e: e[2])
        self.used = sum(size for _, size, _ in entries)
        for path, size, _ in entries:
            if self.used <= self.limit * 3 // 4:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                self.used -= size

    def _entries(self) -> list[tuple[str, int, float]]:
        out = []
        with os.scandir(self.path) as it:
            for e in it:
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


_SHARED: dict = {"path": "", "folder": None}  # a checker's: its job's folder (use); a worker's: the run's
_WORKER_LOCK = threading.Lock()


def use(path: str) -> bool:
    """The checker: serve its replays from the folder its job names too, where it is private."""
    ok = bool(path) and private(path)
    _SHARED.update(path=path if ok else "", folder=Folder(path) if ok else None)
    return ok


def adopt(path: str) -> None:
    """A pool worker: the folder its grading run made (classrun.py's initializer)."""
    with _WORKER_LOCK:
        _SHARED["path"] = path if path and private(path) else ""


def worker_folder() -> str:
    """The folder this worker names in its checkers' jobs: the run's, or (a Dask worker's) one of
    its own made once, a locked job folder (workdir.py) removed at exit or by the next worker on
    this machine after a crash."""
    import atexit

    from .workdir import release_job_dir

    with _WORKER_LOCK:
        if not _SHARED["path"] or not private(_SHARED["path"]):
            home = make_folder()
            if home is not None:
                atexit.register(release_job_dir, home)
            _SHARED["path"] = str(home / "compiled") if home is not None else ""
        return _SHARED["path"]


@contextlib.contextmanager
def run_folder(wanted: bool):
    """A grading run's folder (classrun.py), made where wanted and removed after: its path or ""."""
    from .workdir import release_job_dir

    home = make_folder() if wanted else None
    try:
        yield str(home / "compiled") if home is not None else ""
    finally:
        if home is not None:
            release_job_dir(home)


def make_folder():
    """A new locked job folder (workdir.py) holding a private folder "compiled"; None where none
    can be made. Its maker removes it (workdir.release_job_dir)."""
    from .workdir import new_job_dir, release_job_dir

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


@contextlib.contextmanager
def _no_alarm():
    """SIGALRM (a replay's time limit, diagnose.py) held back while the store changes: an alarm
    raised between two of its lines would leave its byte count wrong or its lock held."""
    held = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    try:
        yield
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})


_installed: MemoryCache | None = None


def install(limit: int = COMPILE_CACHE_BYTES) -> tuple[MemoryCache | None, str]:
    """Make JAX keep this process's compilations in a MemoryCache: (the cache, "") or (None, why
    not). Once per process; a second call returns the first cache."""
    global _installed
    if _installed is not None:
        return _installed, ""
    try:
        import jax
        from jax._src import compilation_cache as cc
        from jax._src.compilation_cache_interface import CacheInterface
    except ImportError as exc:
        return None, f"this JAX has no compilation cache to plug into ({exc})"
    needed = (
        "_cache",
        "_cache_initialized",
        "_cache_checked",
        "_cache_used",
        "_cache_initialized_mutex",
        "compress_executable",
        "decompress_executable",
    )
    missing = [name for name in needed if not hasattr(cc, name)]
    if missing or not hasattr(CacheInterface, "get") or not hasattr(CacheInterface, "put"):
        return None, f"this JAX's compilation cache is not the one known here (missing {missing})"

    class _Store(MemoryCache, CacheInterface):  # JAX's abstract interface, our dict
        pass

    cache = _Store(limit)
    try:
        # every compilation is stored, however quick or small: the replays' kernels are both
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        jax.config.update("jax_enable_compilation_cache", True)
    except (AttributeError, KeyError, ValueError) as exc:
        return None, f"this JAX lacks a setting the cache needs ({exc})"
    with cc._cache_initialized_mutex:
        cc._cache = None  # served only inside kept()
        cc._cache_initialized = True  # JAX never builds its folder cache over ours
        cc._cache_checked = False  # asked again on the next compilation: now in use
        cc._cache_used = False
    _installed = cache
    return cache, ""


@contextlib.contextmanager
def kept():
    """While it lasts, this process's compilations are kept in and found in its MemoryCache (the
    cache, or None where this JAX cannot take one); after it, none is found or kept."""
    cache, _ = install()
    if cache is None:
        yield None
        return
    from jax._src import compilation_cache as cc

    # stored as serialized, not compressed: zlib on a program with large constants took seconds
    # of C code that a replay's alarm cannot interrupt (the bound is on bytes either way)
    packing = cc.compress_executable, cc.decompress_executable
    cache.folder = _SHARED["folder"]
    with cc._cache_initialized_mutex:
        cc._cache = cache
        cc.compress_executable = cc.decompress_executable = _as_is
    try:
        yield cache
    finally:
        with cc._cache_initialized_mutex:
            cc._cache = None
            cc.compress_executable, cc.decompress_executable = packing


def _as_is(data: bytes) -> bytes:
    return data
