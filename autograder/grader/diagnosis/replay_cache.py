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

import contextlib
import signal
import threading

from ..sandbox import guard
from ..sandbox.compile_memo import Memo, as_is, plug
from .replay_folder import Folder, private
from ..core.settings import COMPILE_CACHE_BYTES


class MemoryCache(Memo):
    """At most ``limit`` bytes of serialized executables by key, least recently used out first,
    then the run's folder where it has one (``use``); an alarm waits for the store to change."""

    _path = "<the checker's memory>"  # what JAX's log line names as the cache's place
    folder: Folder | None = None  # the run's folder of compiled replays, where shared (kept())
    found = 0  # of the misses, how many the folder answered

    def __init__(self, limit: int = COMPILE_CACHE_BYTES):
        super().__init__(limit)

    def get(self, key: str):
        with _no_alarm():
            value = super().get(key)
        if value is not None or self.folder is None:
            return value
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
        with _no_alarm():
            Memo.put(self, key, value)


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
    """Make JAX keep this process's compilations in a MemoryCache, served only inside ``kept``:
    (the cache, "") or (None, why not). Once per process; a second call returns the first cache."""
    global _installed
    if _installed is None:
        cache, why = plug(MemoryCache, limit, serving=False)
        if cache is None:
            return None, why
        _installed = cache
    return _installed, ""


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
        cc.compress_executable = cc.decompress_executable = as_is
    try:
        yield cache
    finally:
        with cc._cache_initialized_mutex:
            cc._cache = None
            cc.compress_executable, cc.decompress_executable = packing
