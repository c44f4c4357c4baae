"""The emulation's integrity in the student's process (issue 65), from the trusted side.

The TPU emulation has to run in the student's process (its code is compiled there), so an answer
that could name JAX's internals could undo it and get a plain CPU's rounding. Two layers:

- the names no answer may reach (``REFUSED_ATTRIBUTES``): the static reading of every answer cell
  (notebook/answer_rules.py) refuses them in the code, and the student's process refuses them in
  ``getattr`` too (sent in its init message, student_side.public_getattr): a name built at run
  time meets the same rule as one written in the code;
- a probe whose expected bits the student's code cannot know (``Probe``): after the student's
  definitions ran and after every test, the checker sends fresh random inputs and a fresh constant
  (a new program: no cache can answer it), the student's process compiles and runs two fixed
  programs (a cast round trip to bfloat16 inside ``jax.jit``; a float32 matrix product at DEFAULT
  precision) and the checker compares the bits with the chip's, computed here with NumPy alone:
  inside a compiled program the chip keeps the cast value in float32 registers (the round trip is
  the identity), and a DEFAULT float32 dot is one bfloat16 pass with float32 accumulation, whose
  inputs are drawn so that every sum is exact (any summation order gives the same bits). A plain
  CPU rounds the cast and multiplies in float32: a process whose emulation was undone, its caches
  cleared, gives other bits. A mismatch, an exception or no answer is the notebook's tampering.
"""

from __future__ import annotations

import secrets

import numpy as np

from ..core import wire
from ...common.textsafe import printable

# Attribute names no answer reads or writes, on any object: the ways from an allowed module to the
# process's code (frames, code objects, the import system, IPython), to JAX's compiler (its
# internals, its configuration, deserialised programs), to raw memory and to programs started
# without the emulation. Names starting with "_" are refused as well (answer_rules.py).
REFUSED_ATTRIBUTES = frozenset(
    {
        # frames, code, tracebacks, generators: the interpreter's own objects
        "f_back", "f_globals", "f_locals", "f_code", "f_builtins", "f_trace", "f_lasti",
        "co_consts", "co_names", "co_code", "co_varnames",
        "tb_frame", "tb_next", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",
        "cell_contents", "mro",
        # the interpreter and the import system
        "modules", "meta_path", "path_hooks", "path_importer_cache", "settrace", "setprofile",
        "excepthook", "displayhook", "audit", "addaudithook", "builtins", "sys", "importlib",
        "subprocess", "ctypes", "ctypeslib", "pickle", "marshal", "gc", "inspect", "types",
        "threading", "multiprocessing", "signal", "runpy", "pkgutil",
        "attrgetter", "methodcaller", "get_type_hints",
        # reflection re-exported by allowed modules (enum.bltns is builtins; string.Formatter().get_field,
        # logging.config build objects from dotted names; traceback walks frames)
        "bltns", "getattr", "setattr", "delattr", "vars", "globals", "locals", "eval", "exec", "breakpoint",
        "copyreg", "get_field", "Formatter", "getattr_static", "import_module", "locate", "logging", "dictConfig",
        "fileConfig", "walk_stack", "walk_tb",
        # IPython's machinery
        "input_transformers_cleanup", "input_transformers_post", "input_transformer_manager",
        "ast_transformers", "showtraceback", "showsyntaxerror", "user_ns", "user_global_ns",
        "run_cell", "run_cell_async", "transform_cell", "run_ast_nodes", "run_code",
        "register_magic_function", "set_custom_exc",
        # JAX's compiler: its internals, its configuration, programs made elsewhere
        "interpreters", "lower_jaxpr_to_module", "register_lowering", "config", "clear_caches", "clear_backends",
        "experimental", "ffi", "monitoring", "deserialize", "xla_bridge", "xla_client",
        "client", "get_backend", "backends", "xla_extension", "jaxlib", "compile_and_load",
        "def_impl", "def_abstract_eval", "def_effectful_abstract_eval",
        # raw memory
        "as_strided",
        # programs started without the emulation, and the environment they read
        "environ", "environb", "putenv", "unsetenv", "system", "popen", "fork", "forkpty",
        "register_at_fork", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp",
        "execvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp",
        "spawnvpe", "posix_spawn", "posix_spawnp", "startfile",
    }
)  # fmt: skip

# The static reading's (notebook/answer_rules.py), here for the student process's audit hook too
# Public paths of allowed modules that lead to JAX's compiler, programs made elsewhere, raw memory
# or other programs (refused however written: imported, or read through a module's name)
REFUSED_PATHS = (
    "jax.interpreters", "jax.extend", "jax.lib", "jax.core", "jax.config", "jax.experimental", "jax.export",
    "jax.ffi", "jax.monitoring", "jax.dlpack", "jax.clear_caches", "jax.clear_backends", "jax.stages",
    "numpy.ctypeslib", "numpy.lib.stride_tricks.as_strided", "numpy.lib.format", "numpy.lib.npyio", "numpy.core",
    "os.environ", "matplotlib.use", "matplotlib.rc_file", "matplotlib.pyplot.switch_backend",
    "matplotlib.pyplot.rc_file",
)  # fmt: skip
REFUSED_NAMES = frozenset(
    {"setattr", "delattr", "vars", "globals", "locals", "eval", "exec", "compile", "breakpoint", "get_ipython",
     "course_chip"}  # the setups' loader of tpu_emulation.py by path: it runs a file, were COURSE_EMULATE unset
)  # fmt: skip

# Names starting with "_" that an answer may read all the same: strings that describe an object, and
# os._exit (the process ends; it is restarted)
PUBLIC_UNDERSCORED = frozenset(
    {"__name__", "__qualname__", "__module__", "__doc__", "__version__", "__file__", "_exit"}
)
PROBE_SIZE = (4, 16, 4)  # the dot's (m, k, n): k bf16 products of [1, 2) magnitudes sum exactly in float32


def public_attribute(name) -> bool:
    """Whether ``getattr(obj, name)`` is allowed in an answer (the rule student_side applies)."""
    return (
        isinstance(name, str)
        and (not name.startswith("_") or name in PUBLIC_UNDERSCORED)
        and name not in REFUSED_ATTRIBUTES
    )


def bf16_nearest(x: np.ndarray) -> np.ndarray:
    """float32 rounded to the nearest bfloat16 (ties to even), kept in float32 (finite inputs)."""
    u = np.asarray(x, np.float32).view(np.uint32)
    rounded = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


class Probe:
    """One probe: fresh inputs (the checker's randomness, never the run's seed) and the chip's bits."""

    def __init__(self, rng: np.random.Generator | None = None):
        rng = rng or np.random.default_rng(secrets.randbits(64))
        m, k, n = PROBE_SIZE
        signs = lambda shape: rng.choice(np.array([-1.0, 1.0], np.float32), shape)  # noqa: E731
        self.x = (rng.uniform(1, 2, 64) * signs(64)).astype(np.float32)
        self.scale = float(np.float32(rng.uniform(1, 2)))  # baked into the program: a new one each time
        self.a = (rng.uniform(1, 2, (m, k)) * signs((m, k))).astype(np.float32)
        self.b = (rng.uniform(1, 2, (k, n)) * signs((k, n))).astype(np.float32)

    def message(self) -> dict:
        """The frame the student's process answers (student_side.probe): the programs and the inputs."""
        args = {"x": self.x, "scale": self.scale, "a": self.a, "b": self.b}
        return {"op": "probe", "code": PROBE_CODE, "args": wire.Encoder()(args)}

    def expected(self) -> tuple[np.ndarray, np.ndarray]:
        """The chip's bits: the cast round trip inside jit keeps x * scale (float32), the DEFAULT dot
        is the exact sum of the bf16-rounded inputs' products (exact in float64 and in float32)."""
        cast = self.x * np.float32(self.scale)
        exact = bf16_nearest(self.a).astype(np.float64) @ bf16_nearest(self.b).astype(np.float64)
        return cast, exact.astype(np.float32)

    def differs(self, reply: dict) -> str:
        """Why the student's process's reply is not the chip's bits ("" when it is)."""
        if reply.get("op") == "raise":
            return f"it raised {printable(str(reply.get('type')), 60)}: {printable(str(reply.get('message')), 200)}"
        try:
            got = wire.Decoder(jax_arrays=False)(reply.get("value")) if reply.get("op") == "probed" else None
        except (wire.WireError, TypeError, ValueError) as exc:
            return f"its answer is no data ({exc})"
        if type(got) is not list or len(got) != 2:
            return "it did not answer with the probe's two arrays"
        names = ("a bfloat16 cast round trip inside jax.jit", "a DEFAULT float32 matmul")
        for what, value, want in zip(names, got, self.expected()):
            if type(value) is not np.ndarray or value.dtype != np.float32 or value.shape != want.shape:
                return f"{what} came back as {type(value).__name__}"
            if not np.array_equal(value.view(np.uint32), want.view(np.uint32)):
                return f"{what} was not computed as the chip computes it"
        return ""


# The programs the student's process runs (student_side.probe execs this text: it imports nothing of
# the grader's); the tests run them here, under the emulation and without it (``run_probe``).
PROBE_CODE = """
def run_probe(args):
    import jax
    import jax.numpy as jnp
    import numpy as np

    scale = float(args["scale"])  # a constant of the program: a new program each time

    def program(v, p, q):
        return (v * scale).astype(jnp.bfloat16).astype(jnp.float32), jnp.dot(p, q, precision=jax.lax.Precision.DEFAULT)

    cast, dot = jax.jit(program)(args["x"], args["a"], args["b"])
    return np.asarray(cast), np.asarray(dot)
"""


def run_probe(args: dict):
    """The probe's programs, run in this process (tests only)."""
    scope: dict = {"__name__": "__grader_probe__"}
    exec(compile(PROBE_CODE, "<grader-probe>", "exec"), scope)
    return scope["run_probe"](args)
