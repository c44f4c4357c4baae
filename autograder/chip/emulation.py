"""The precision emulation as one script: the parts of this folder, joined in order.

Everything that emulates a TPU's or a GPU's arithmetic on a CPU runs this one text before any other
code: the grader's sandboxed student process and its trusted checker (as a prelude), lessoncheck's
and the tests' Jupyter kernels (as an IPython start-up file), the solution canary; the regrade
fingerprint hashes it. ``COURSE_EMULATE=tpu`` or ``gpu`` turns it on (autograder/chip/emulate_precision.py
says what each models). Nothing here is imported by the script itself: it needs only JAX.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ("tpu_compiler.py", "emulate_precision.py")  # in the order they run


def paths() -> list[Path]:
    return [HERE / name for name in PARTS]


def source() -> str:
    """The script: every part, in order."""
    return "\n\n".join(path.read_text(encoding="utf-8") for path in paths())


def write_startup(folder: Path, name: str = "00-emulate-precision.py") -> Path:
    """The script as an IPython start-up file in ``folder`` (a profile's startup/ folder)."""
    target = Path(folder) / name
    target.write_text(source(), encoding="utf-8")
    return target
