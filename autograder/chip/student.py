"""The last part of the student's module (notebooks/tpu_emulation.py; emulation.py joins the parts):
``start(chip)``, which a lesson's setup cell calls before anything opens JAX's backends.

    start("v5e")     on a CPU runtime: the emulation of the parts before this one, as the grader runs
                     it; on a GPU runtime: the lesson's arrays go to the host CPU, emulated the same
                     way (the GPU's own arithmetic, TF32 at DEFAULT, is chip="native"); on a TPU:
                     nothing (a TPU computes as itself)
    start("native")  this runtime's own arithmetic

It returns one line saying which, for the cell to print, and never raises for want of an emulation:
a JAX it cannot wrap, or a CPU backend opened before it could turn off fused multiply-adds, leaves
the runtime's own arithmetic and says so in that line. Where the environment already sets the
arithmetic (``COURSE_EMULATE``: the grader, the course's tests), it changes nothing.
"""

CHIPS = ("v5e", "native")


def _course_backends_open(jax):
    """Whether JAX's backends are already made (then XLA_FLAGS, read when they are made, is too late)."""
    try:
        from jax._src import xla_bridge

        return bool(getattr(xla_bridge, "_backends", None))
    except ImportError:
        return False


def _course_installed():
    """Whether the chip's compiler is already hooked into this process's lowering (tpu_compiler.py)."""
    try:
        from jax._src.interpreters import mlir

        return getattr(mlir.lower_jaxpr_to_module, "__name__", "") == "lower_as_the_chip"
    except ImportError:
        return False


def _course_describe(jax):
    try:
        backend = jax.default_backend()
        return "CPU runtime" if backend == "cpu" else f"{backend.upper()} runtime ({jax.devices()[0].device_kind})"
    except Exception:  # noqa: BLE001  a line to print, whatever the runtime
        return "this runtime"


def start(chip="v5e"):
    """Compute as a TPU v5e (``chip="v5e"``) or with this runtime's own arithmetic (``"native"``);
    returns one line saying which."""
    import os

    if chip not in CHIPS:
        raise ValueError(f'CHIP = {chip!r}: set CHIP = "v5e" (compute as a TPU v5e) or "native" in the setup cell')
    import jax

    if _course_installed():  # an earlier setup cell of this process started it (its variable may be gone)
        os.environ["COURSE_EMULATED_PRECISION"] = os.environ.get("COURSE_EMULATED_PRECISION") or "tpu"
    emulated = os.environ.get("COURSE_EMULATED_PRECISION", "")
    managed = os.environ.get("COURSE_EMULATE", "")

    if managed or emulated:
        mode = emulated or managed
        how = "as a TPU v5e does" if mode == "tpu" else "with emulated GPU arithmetic" if mode == "gpu" else "natively"
        return f"{_course_describe(jax)}: computing {how} (set for this session: restart it to change CHIP)."
    if chip == "native":
        return (
            f'{_course_describe(jax)}: its own arithmetic (CHIP = "native"); the grader computes as a '
            'TPU v5e, which CHIP = "v5e" shows (then restart the session).'
        )
    opened = _course_backends_open(jax)
    if not opened:
        _course_without_fma("tpu")  # noqa: F821  (emulate_precision.py): before the backends open
    backend = jax.default_backend()
    if backend == "tpu":
        return f"{_course_describe(jax)}: the chip's own arithmetic, nothing emulated."
    if opened:
        return (
            f"{_course_describe(jax)}: its own arithmetic, because JAX was already running when this cell "
            "ran: restart the session (Colab: Runtime > Restart session) and run this cell first to "
            "compute as a TPU v5e."
        )
    where = _course_describe(jax)
    if backend != "cpu":  # a GPU: the lesson's arrays on the host CPU, emulated there
        jax.config.update("jax_default_device", jax.devices("cpu")[0])
    from jax._src.interpreters import mlir
    from jax._src.lax import lax as lax_internals

    kept = (lax_internals.dot, jax.lax.dot, mlir.lower_jaxpr_to_module)
    try:
        _course_emulate_precision("tpu")  # noqa: F821  (emulate_precision.py, the part before this one)
    except Exception as exc:  # noqa: BLE001  never a crash for want of an emulation
        lax_internals.dot, jax.lax.dot, mlir.lower_jaxpr_to_module = kept
        if backend != "cpu":
            jax.config.update("jax_default_device", None)
        why = str(exc).split(": ", 1)[-1].split(";")[0]
        return f"{where}: its own arithmetic: JAX {jax.__version__} cannot be emulated as a TPU v5e here ({why})."
    on = "on the host CPU, " if backend != "cpu" else ""
    return (
        f"{where}: computing {on}as a TPU v5e does, as the grader does (float32 matmuls at DEFAULT "
        'precision as one bf16 pass, casts inside jax.jit as the chip compiles them); CHIP = "native" '
        "shows this runtime's own arithmetic."
    )
