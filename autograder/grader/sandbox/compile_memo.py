"""The student's process: each program XLA compiles there kept in its memory and found again.

Grading runs code that makes fresh ``jax.jit`` functions over and over (a test calling an answer
that jits inside, an author's known answers swapped in one after the other: lessoncheck's
grade_variants): JAX's trace cache misses on a new function object, and XLA compiled the same
program again, about half of a student process's CPU time (docs/TESTING.md). JAX's compilation
cache is addressed by the content of the program (a hash of the lowered module, after the
emulation's rewrite, the compile options and the backend), so a program compiled once is found here
the next time. Only this process's own compilations enter it, and it is gone with the process:
nothing crosses to another student or to the checker, and the student's code, which can reach it
like everything in its process, can only slow its own process by touching it.

A lesson whose tests watch XLA's compilations (lesson 04 checks that a warm-up call compiles a
fresh jit, and times it: checker/compile_events.py) is graded without it: a hit compiles nothing,
so the compilation JAX still reports would take no time. The checker decides, from its tests'
text, and sends ``compile_memo`` (bytes, 0: none) in the init message. Tracing is not cached: a
test that times a function's Python body while JAX traces it (lesson 05's benchmark) sees it as
before.

JAX's ``jax._src.compilation_cache`` is not public API: ``plug`` checks the names it needs and,
where a JAX lacks them, plugs nothing and says why (grading is then slower, never different). The
checker's replays use the same plug (diagnosis/replay_cache.py). Only stdlib and JAX: it is copied
into the sandbox beside student_side.py (launch.SANDBOX_FILES).
"""

from __future__ import annotations

import collections
import sys
import threading

NEEDED = (
    "_cache",
    "_cache_initialized",
    "_cache_checked",
    "_cache_used",
    "_cache_initialized_mutex",
    "compress_executable",
    "decompress_executable",
)


class Memo:
    """At most ``limit`` bytes of serialized executables by key, least recently used out first."""

    _path = "<the process's memory>"  # what JAX's log line names as the cache's place

    def __init__(self, limit: int):
        self.limit, self.size = limit, 0
        self.entries: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self.hits = self.misses = 0
        self.lock = threading.Lock()

    def get(self, key: str):
        with self.lock:
            value = self.entries.get(key)
            if value is None:
                self.misses += 1
                return None
            self.entries.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: str, value: bytes) -> None:
        if not isinstance(value, bytes) or len(value) > self.limit:
            return
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= len(old)
            self.entries[key] = value
            self.size += len(value)
            while self.size > self.limit:
                _, dropped = self.entries.popitem(last=False)
                self.size -= len(dropped)


def plug(store_class, limit: int, serving: bool):
    """Make JAX's compilation cache ``store_class(limit)`` (a Memo, or one like it), stored as
    serialized, not compressed (zlib on a program with large constants takes seconds of C code that
    no alarm interrupts; the bound is on bytes either way). With ``serving`` it serves every
    compilation from now on; without, only while ``jax._src.compilation_cache._cache`` is set to it
    (replay_cache.kept). Returns (the store, "") or (None, why not)."""
    try:
        import jax
        from jax._src import compilation_cache as cc
        from jax._src.compilation_cache_interface import CacheInterface
    except ImportError as exc:
        return None, f"this JAX has no compilation cache to plug into ({exc})"
    missing = [name for name in NEEDED if not hasattr(cc, name)]
    if missing or not hasattr(CacheInterface, "get") or not hasattr(CacheInterface, "put"):
        return None, f"this JAX's compilation cache is not the one known here (missing {missing})"

    class _Store(store_class, CacheInterface):  # JAX's abstract interface, our dict
        pass

    store = _Store(limit)
    try:
        # every compilation is stored, however quick or small: a test's kernels are both
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        jax.config.update("jax_enable_compilation_cache", True)
    except (AttributeError, KeyError, ValueError) as exc:
        return None, f"this JAX lacks a setting the cache needs ({exc})"
    with cc._cache_initialized_mutex:
        cc._cache = store if serving else None
        cc._cache_initialized = True  # JAX never builds its folder cache over ours
        cc._cache_checked = False  # asked again on the next compilation: now in use
        cc._cache_used = False
        if serving:
            cc.compress_executable = cc.decompress_executable = as_is
    return store, ""


def as_is(data: bytes) -> bytes:
    return data


def install(limit):
    """The student's process, after the lesson's setup and before any student code: its memo of
    ``limit`` bytes (the init message's ``compile_memo``; None where that is no positive int, where
    the setup imported no JAX, or where this JAX takes none). It never raises: this runs after the
    process said hello, where a death is the student's code's doing, so a JAX whose cache it cannot
    plug into (a new abstract method, say) grades as with no memo, never as a student's failure."""
    if "jax" not in sys.modules or type(limit) is not int or limit <= 0:
        return None
    try:
        store, _ = plug(Memo, int(limit), serving=True)
    except Exception:  # noqa: BLE001  slower, never different
        return None
    return store
