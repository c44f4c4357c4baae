"""The student's process: runs the lesson's setup and the student's definitions, then answers
calls. It runs inside the sandbox (sandbox/launch.py) as a plain script beside read-only copies of
wire.py, landlock.py, audit_rules.py and compile_memo.py, and talks to the trusted checker over its
stdin and stdout only (wire frames). Nothing here is trusted: the student's code can rewrite all of
it. It only ever influences the plain data it sends back, which the checker decodes and judges.

Messages it takes:    {"op": "init", "prelude", "cells": [[label, code]], "names", "refused", "allowed", "compile_memo"}
                      {"op": "call", "name", "args", "kwargs", "ctx", "mutable": [arg indexes]}
                      {"op": "result" | "raise", ...} (answers to its callbacks); {"op": "probe", "code", "args"}
Messages it sends:    {"op": "ready", "defined": [..], "errors": [[label, type, message]]}
                      {"op": "return", "value", "after": [[index, value]], "compiles": [[name, secs]]} | {"op": "raise"}
                      {"op": "probed", "value"} | {"op": "raise"}; {"op": "callback", "id", "attr", "args", "kwargs"}
"""

import contextlib
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# started with -I -S (sandbox/launch.py): no .pth file ran; the site-packages folders are plain entries
sys.path += [p for p in os.environ.get("COURSE_SITE_PATHS", "").split(os.pathsep) if p and p not in sys.path]
import audit_rules  # noqa: E402  (the copies beside this file)
import wire  # noqa: E402


def _landlock() -> None:
    """The second layer, before any student code: only the work folder is writable."""
    workdir = os.environ.get("COURSE_LANDLOCK_RW")
    if not workdir:
        return
    try:
        import landlock

        abi = landlock.landlock_abi()
        if abi:
            inputs = os.environ.get("COURSE_LANDLOCK_RO")  # the checker's input files, read-only
            landlock.apply_landlock(abi, workdir, [], [inputs] if inputs else [])
    except Exception as exc:  # noqa: BLE001  reported, never fatal: the namespaces still hold
        print(f"sandbox: Landlock not applied: {exc}", file=sys.stderr)


_landlock()

IN, OUT = os.dup(0), os.dup(1)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.dup2(2, 1)  # the student's prints go to the log, never into the channel
sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)

NAMESPACE = {"__name__": "__main__", "__builtins__": __builtins__}
RUN = [lambda code, label, ns: exec(compile(code, f"<{label}>", "exec"), ns)]  # audit_rules.install's, from init


def read_message() -> dict:
    header = _read_exact(wire.HEADER_SIZE)
    return wire.parse(_read_exact(wire.frame_length(header)))


def _read_exact(n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = os.read(IN, min(left, 1 << 20))
        if not chunk:
            os._exit(0)  # the checker has gone
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def send(message: dict) -> None:
    wire.write_frame(OUT, message)


class Lent:
    """Stands for an object the checker lent to this call: calls and attributes go back to it."""

    __slots__ = ("_id",)

    def __init__(self, handle: int):
        object.__setattr__(self, "_id", handle)

    def __call__(self, *args, **kwargs):
        return callback(self._id, None, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return callback(self._id, name, None, None)

    def __repr__(self):
        return f"<lent by the grader #{self._id}>"


OWN: list = []  # objects of this process lent to the checker (a jitted function handed to a reference)


def _lend(value) -> dict:
    if not callable(value) or isinstance(value, type):
        t = type(value)
        raise wire.WireError(
            f"a value of type {t.__module__}.{t.__qualname__} cannot be returned: return "
            "numbers, strings, lists, tuples, dicts, NumPy/JAX arrays or dtypes"
        )
    OWN.append(value)  # a function handed to a callable the checker lent: it stays here
    return {"$": "lent", "id": len(OWN) - 1}


def _own(handle: int):
    if not 0 <= handle < len(OWN):
        raise wire.WireError("unknown lent object")
    return OWN[handle]


def _unlent(value):
    return {"$": "handle", "id": value._id} if type(value) is Lent else None


ENCODE = wire.Encoder(lend=_lend, unlent=_unlent)
DECODE = wire.Decoder(handles={"handle": Lent, "lent": _own})


def callback(handle, attr, args, kwargs):
    send(
        {
            "op": "callback",
            "id": handle,
            "attr": attr,
            "args": None if args is None else ENCODE(list(args)),
            "kwargs": None if kwargs is None else ENCODE(dict(kwargs)),
        }
    )
    return serve(until_reply=True)


def _exception_message(exc: BaseException) -> dict:
    return {
        "op": "raise",
        "type": type(exc).__name__,
        "message": str(exc)[:2000],
        "errno": exc.errno if isinstance(exc, OSError) and type(exc.errno) is int else None,
        "where": "".join(traceback.format_exception_only(type(exc), exc))[-2000:],
    }


def _restore_env(saved):
    os.environ.update({key: value for key, value in saved.items() if value is not None})
    for key in [key for key, value in saved.items() if value is None]:
        os.environ.pop(key, None)


class Unplanned(Exception):
    """The checker's planned answers hold no answer for these arguments."""


def planned(lent, own):
    """An exercise the checker lent for this call: its planned answers (a test's reference answers
    for the inputs it listed), and for any other input this process's own definition."""

    def answer(*args, **kwargs):
        try:
            return lent(*args, **kwargs)
        except Unplanned:
            if not callable(own):
                raise NameError("this exercise is not defined in your notebook") from None
            return own(*args, **kwargs)

    return answer


@contextlib.contextmanager
def call_context(ctx: dict):
    """The checker's state at the call: working directory, environment changes, matmul precision,
    and the names it has bound to other objects (references it lends for the call)."""
    saved_env = {}
    for key, value in (ctx.get("env") or {}).items():
        saved_env.setdefault(key, os.environ.get(key))
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    cwd = os.getcwd()
    if ctx.get("cwd"):
        with contextlib.suppress(OSError):
            os.chdir(ctx["cwd"])
    bound = {name: DECODE(value) for name, value in (ctx.get("bind") or {}).items()}
    saved_names = {name: NAMESPACE.get(name) for name in bound}
    NAMESPACE.update({name: planned(lent, saved_names[name]) for name, lent in bound.items()})
    precision = ctx.get("precision")
    try:
        if precision:
            import jax

            with jax.default_matmul_precision(precision):
                yield
        else:
            yield
    finally:
        for name, value in saved_names.items():
            if value is None:
                NAMESPACE.pop(name, None)
            else:
                NAMESPACE[name] = value
        with contextlib.suppress(OSError):
            os.chdir(cwd)
        _restore_env(saved_env)


BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"
COMPILES: list = []  # [fun_name, seconds] of XLA compilations, as JAX's monitoring reports them
MAX_COMPILES = 256
_listening = []


def _listen_for_compiles() -> None:
    """Once JAX is imported (the lesson's setup does it), note each XLA compilation it reports, so
    that a call's reply says what it compiled (a test of a warm-up asks; see compile_events.py)."""
    if _listening or "jax" not in sys.modules:
        return
    try:
        from jax import monitoring

        def on_event(event, duration, **kwargs):
            if event == BACKEND_COMPILE and _depth[0] and len(COMPILES) < MAX_COMPILES:
                COMPILES.append([str(kwargs.get("fun_name", ""))[:200], float(duration)])

        monitoring.register_event_duration_secs_listener(on_event)
        _listening.append(on_event)
    except Exception:  # noqa: BLE001  an old JAX without monitoring: calls report no compiles
        _listening.append(None)


_depth = [0]


def do_call(message: dict) -> dict:
    _listen_for_compiles()
    if not _depth[0]:  # an outermost call: only its own compilations count
        COMPILES.clear()
    start = len(COMPILES)
    _depth[0] += 1
    try:
        fn = _own(message["handle"]) if "handle" in message else NAMESPACE.get(message.get("name"))
        if not callable(fn):
            raise NameError(f"name {message.get('name')!r} is not defined")
        args = DECODE(message.get("args") or [])
        kwargs = DECODE(message.get("kwargs") or {"$": "dict", "v": []})
        with call_context(message.get("ctx") or {}):
            value = fn(*args, **kwargs)
        after = [[i, ENCODE(args[i])] for i in message.get("mutable") or [] if i < len(args)]
        reply = {"op": "return", "value": ENCODE(value), "after": after, "compiles": COMPILES[start:]}
    except BaseException as exc:  # noqa: BLE001  every failure, sys.exit() included, is data
        reply = _exception_message(exc)
    _depth[0] -= 1
    if not _depth[0]:  # a call inside a callback reports its compiles, and its caller them too
        COMPILES.clear()
    return reply


def serve(until_reply: bool = False):
    """Answer calls; with ``until_reply``, return when the answer to our own callback arrives."""
    while True:
        message = read_message()
        op = message.get("op")
        if op == "call":
            send(do_call(message))
        elif op == "result" and until_reply:
            return DECODE(message.get("value"))
        elif op == "raise" and until_reply:
            raise _rebuilt(message)
        elif op == "unplanned" and until_reply:
            raise Unplanned()
        elif op == "probe":
            send(probe(message))
        elif op == "define":  # more definitions (the author's mutant checks swap answers this way)
            send({"op": "defined", "errors": run_cells(message.get("cells") or [])})
        elif op == "exit":
            os._exit(0)


def _rebuilt(message: dict) -> BaseException:
    import builtins

    cls = getattr(builtins, str(message.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    return cls(str(message.get("message")))


def run_cells(cells) -> list:
    errors = []
    for label, code in cells:
        try:
            RUN[0](code, label, NAMESPACE)
        except BaseException as exc:  # noqa: BLE001
            errors.append([label, type(exc).__name__, str(exc)[:500]])
    return errors


def probe(message: dict) -> dict:
    """The checker's probe of the emulation (checker/integrity.py): its fixed programs, its inputs."""
    try:
        RUN[0](str(message.get("code")), "grader-probe", scope := {"__name__": "__grader_probe__"})
        return {"op": "probed", "value": ENCODE(list(scope["run_probe"](DECODE(message.get("args")))))}
    except BaseException as exc:  # noqa: BLE001  the checker judges it
        return _exception_message(exc)


def guarded_builtins(refused, allowed=()) -> dict:
    """The answers' builtins: getattr refuses the names answer_rules.py refuses in code, and modules."""
    import builtins
    import types

    refused, real = frozenset(str(r) for r in refused), builtins.getattr

    def getattr(obj, name, *default):  # noqa: A001  the answers' getattr
        if type(name) is not str or (name.startswith("_") and name not in allowed) or name in refused:
            shown = repr(name) if type(name) is str and not name.startswith("_") else "a private name"
            raise AttributeError(f"getattr({shown}) is refused when grading: no answer needs it")
        value = real(obj, name, *default)
        if isinstance(value, types.ModuleType):
            raise AttributeError(f"getattr({name!r}) gives a module: refused when grading")
        return value

    return {**vars(builtins), "getattr": getattr}


def init(message: dict) -> None:
    if message.get("refused") is not None:
        NAMESPACE["__builtins__"] = guarded_builtins(message["refused"], message.get("allowed") or ())
    for code in message.get("prelude") or []:
        exec(compile(code, "<grader-prelude>", "exec"), {"__name__": "__grader_prelude__"})
    # from here on a death is the student's code's doing, before it the grader's (remote.SandboxFault)
    send({"op": "hello"})
    errors = run_cells((cells := message.get("cells") or [])[:1])  # the lesson's setup, then no unread code
    __import__("compile_memo").install(message.get("compile_memo"))  # the copy beside this file
    RUN[0] = audit_rules.install(message.get("refused_text", ()), message.get("refused_paths", ()))
    errors += run_cells(cells[1:])
    _listen_for_compiles()
    defined = [n for n in message.get("names") or [] if callable(NAMESPACE.get(n))]
    send({"op": "ready", "defined": defined, "errors": errors})


if __name__ == "__main__":
    first = read_message()
    if first.get("op") != "init":
        os._exit(3)
    init(first)
    serve()
