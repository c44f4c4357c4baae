"""The block every lesson's setup cell starts its arithmetic with (issue 60: the chip on every runtime).

A lesson's first code cell holds ``block(url)`` right after its imports and its JAX floor check, before
anything opens JAX's backends: the switch ``CHIP`` and ``course_chip``, which finds the course's
emulation (notebooks/tpu_emulation.py, generated from autograder/chip/ by the release: beside the
notebook in a clone of the course, else downloaded once from the course's public repository, ``url``)
and starts it: on a CPU runtime the lesson computes as a TPU v5e does, as the grader does. Where the
environment sets the arithmetic (``COURSE_EMULATE``: the grader, the course's tests) it reads and runs
nothing. After the block, ``BACKEND`` is the device the lesson's arrays are on and ``ARITH`` whose
arithmetic they get ("tpu" on a TPU or under the emulation).

One text for all lessons (``problems`` says where a setup cell lost it; the release rewrites its URL
for the repository students open, as it does the Colab badge).
"""

from __future__ import annotations

BLOCK = '''# The chip on every runtime. CHIP = "v5e": where this runtime is not a TPU, the lesson computes as a
# TPU v5e does, as the grader does (the course's emulation, tpu_emulation.py, fetched once; a GPU
# runtime computes on its host CPU). CHIP = "native": this runtime's own arithmetic, on its own
# device. After a change: restart the session, then Run all.
CHIP = "v5e"
import os


def course_chip(chip, url="{url}"):
    """Start the course's TPU v5e emulation (tpu_emulation.py near this notebook, else downloaded)."""
    import importlib.util, os, pathlib, urllib.request  # noqa: E401

    if os.environ.get("COURSE_EMULATE"):  # the grader and the course's tests set the arithmetic themselves
        return f"arithmetic set by this environment (COURSE_EMULATE={{os.environ['COURSE_EMULATE']}})"
    here = pathlib.Path.cwd()
    near = [d / sub / "tpu_emulation.py" for d in (here, *here.parents) for sub in ("", "notebooks")]
    path = next((p for p in near if p.is_file()), here / "tpu_emulation.py")
    try:
        if not path.is_file():
            part = path.with_suffix(".part")
            urllib.request.urlretrieve(os.environ.get("COURSE_EMULATION_URL", url), part)
            part.replace(path)
        spec = importlib.util.spec_from_file_location("tpu_emulation", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:  # no network, a broken file: the lesson runs on, unemulated
        if jax.default_backend() == "tpu":  # nothing to emulate
            return f"TPU runtime ({{jax.devices()[0].device_kind}}): the chip's own arithmetic, nothing emulated."
        if chip == "native":
            return 'CHIP = "native": the arithmetic of this runtime itself.'
        return (f"No TPU emulation here ({{type(exc).__name__}}: {{exc}}): this runtime's own arithmetic, while "
                "the grader computes as a TPU v5e: a visible check may pass here and fail when graded.")
    return module.start(chip)


print(course_chip(CHIP))
BACKEND = (jax.config.jax_default_device or jax.devices()[0]).platform  # where the arrays are
ARITH = os.environ.get("COURSE_EMULATED_PRECISION") or BACKEND  # whose arithmetic: "tpu" on a TPU or a v5e emulation
'''


# The JAX floor check, above the block in every setup cell (tests/test_compat.py: the same text in
# every lesson, with the Makefile's JAX_FLOOR).
FLOOR_CHECK = """# The oldest JAX these lessons are tested on. On an older one, stop here with one clear sentence
# rather than with an AttributeError further down.
JAX_FLOOR = "{floor}"
if tuple(int(n) for n in re.findall(r"\\d+", jax.__version__)[:3]) < tuple(map(int, JAX_FLOOR.split("."))):
    _pip = {{"tpu": '"jax[tpu]"', "gpu": '"jax[cuda12]"'}}.get(jax.default_backend(), "jax")
    raise RuntimeError(f"This runtime has JAX {{jax.__version__}} and this lesson needs JAX {{JAX_FLOOR}} or newer: "
                       f"run  !pip install -U {{_pip}}  in a cell, then Runtime > Restart session, then Run all.")"""


def floor_check(floor: str) -> str:
    """The setup cell's JAX floor check (it needs ``re`` and ``jax`` imported)."""
    return FLOOR_CHECK.format(floor=floor)


def declared_floor(root) -> str:
    """The Makefile's JAX_FLOOR: the oldest JAX the lessons are tested on (make compat-floor)."""
    import re
    from pathlib import Path

    found = re.findall(r"^JAX_FLOOR := (\S+)$", (Path(root) / "Makefile").read_text(), re.M)
    if len(found) != 1:
        raise ValueError("the Makefile declares JAX_FLOOR once")
    return found[0]


def block(url: str) -> str:
    """The setup cell's block, downloading from ``url`` where the emulation is not beside the notebook."""
    return BLOCK.format(url=url)


def problems(setup_source: str, url: str) -> list[str]:
    """What a lesson's setup cell lacks: the block exactly (for ``url``), and nothing before it that
    opens JAX's backends (a call of ``jax.*`` or ``jnp.*``, but in the JAX floor check's ``if``)."""
    import ast

    text = block(url)
    if text not in setup_source:
        return ["its setup cell does not hold the course's CHIP block (autograder/common/setupcell.py) as it stands"]
    try:
        before = ast.parse(setup_source.split(text)[0])
    except SyntaxError as exc:
        return [f"its setup cell does not parse before the CHIP block: {exc.msg}"]
    calls = []
    for stmt in before.body:
        if isinstance(stmt, ast.If) and "JAX_FLOOR" in ast.unparse(stmt.test):
            continue
        calls += [ast.unparse(n.func) for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    opened = sorted({c for c in calls if c.startswith(("jax.", "jnp."))})
    return [f"its setup cell calls {', '.join(opened)} before the CHIP block (JAX's backends open)"] if opened else []
