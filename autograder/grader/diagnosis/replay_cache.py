"""The checker's compilations, kept in its own memory: what makes a diagnosis affordable.

A diagnosis (diagnose.py) replays a failed check's calls on each known mistake of a function and
on the reference. Each is a fresh Python function, so ``jax.jit`` traces and XLA compiles its
kernels again, although most of them are the same program as the reference's or another
mistake's (lesson 05's policy_table compiles its four policies for each of its 13 mistakes). JAX's
persistent compilation cache is addressed by the content of the program (a hash of the lowered
module, the compile options and the backend), so identical programs compile once.

Here the store is a dict in the checker's memory, filled only by the checker's own compilations
and gone with it, and, where the student's process has namespaces of its own, the run's folder of
compiled replays (replay_folder.py), which its checkers share. Nothing a student writes can enter
either, and an entry is found only by the hash of the program that produced it. It serves only
while a diagnosis replays (``kept``, diagnose.py): outside, the checker compiles exactly as with no
cache, so no check's outcome depends on whether an earlier one failed (lesson 04's warm-up check
times a compilation in the checker: a cache hit there would make its bound more lenient). A run
with ``--no-diagnose`` never installs it.

The store plugs into ``jax._src.compilation_cache`` (JAX's ``CacheInterface``), which is not a
public API: ``install`` checks the names it needs and, where a JAX lacks them, installs nothing and
returns why (diagnosis is then slower, never different). tests/test_diagnosis.py checks that the
pinned JAX takes it and that a second compilation of the same program is found in it.
"""

from __future__ import annotations

import collections
import contextlib
import signal
import threading

from ..sandbox import guard
from .replay_folder import Folder, private
from ..core.settings import COMPILE_CACHE_BYTES


class MemoryCache:
    """At most ``limit`` bytes of compressed executables by key, least recently used out first."""

    _path = "<the checker's memory>"  # what JAX's log line names as the cache's place

    def __init__(self, limit: int = COMPILE_CACHE_BYTES):
        self.limit, self.size = limit, 0
        self.entries: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self.hits = self.misses = 0
        self.lock = threading.Lock()

    folder: Folder | None = None  # the run's folder of compiled replays, where shared (kept())
    found = 0  # of the misses, how many the folder answered

    def get(self, key: str):
        with _no_alarm(), self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
                self.hits += 1
                return value
            self.misses += 1
        if self.folder is None:
            return None
        with _no_alarm():  # a replay's alarm waits for the file's end
            value = self.folder.read(key)
        if value is not None:
            self.found += 1
            self._keep(key, value)
        return value

    def put(self, key: str, value: bytes) -> None:
        self._keep(key, value)
        if self.folder is not None and isinstance(value, bytes):
            with _no_alarm():
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


# Module state, by necessity: JAX's compilation cache is process-wide, so what serves it is too: one
# checker process, one folder (``use``) and one memory cache (``install``), set once and never shared.
_FOLDER: list = [None]  # the run's folder of compiled replays, as this checker uses it (use)


def use(path: str) -> bool:
    """The checker: its replays find and keep programs in the folder its job names too, where it
    is private (replay_folder.py)."""
    _FOLDER[0] = Folder(path) if path and private(path) else None
    if _FOLDER[0] is not None:
        guard.allow(path)  # the checker's writes are confined to its job folder and this one
    return _FOLDER[0] is not None


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
    cache.folder = _FOLDER[0]
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
