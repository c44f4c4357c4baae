"""Numbers the lessons and docs quote from a TPU equal what the chip recorded (issue 43, item 5).

Each quote below is a number a lesson or doc states as measured on a TPU v5e; its value is
recomputed here from the committed record of that chip (tests/data/tpu: the golden dots, the
matrix-vector dots). A quote that drifts from the data, or data re-recorded on another libtpu that
no longer gives the quoted figure, fails here and names the text to revisit. (The throughput
figures, TFLOP/s at 8192^3, come from issue 43's measurement and are not in this record.)
"""

import json

import numpy as np
import pytest

from autograder.golden import MATVEC_NPZ, load
from conftest import ROOT

DATA = ROOT / "tests" / "data" / "tpu"


@pytest.fixture(scope="module")
def chip():
    arrays, _ = load(DATA)
    with np.load(DATA / MATVEC_NPZ) as npz:
        matvec = {k: npz[k] for k in npz.files}

    def error(source, name, key):
        x, w = source[name + "_x"].astype(np.float64), source[name + "_w"].astype(np.float64)
        return float(np.abs(source[key].astype(np.float64) - x @ w).max())

    return {
        "l02 HIGH": error(arrays, "l02", "l02_high_jit"),
        "l02 HIGHEST": error(arrays, "l02", "l02_highest_jit"),
        "l02 DEFAULT / HIGH": error(arrays, "l02", "l02_default_jit") / error(arrays, "l02", "l02_high_jit"),
        "l02 HIGH / HIGHEST": error(arrays, "l02", "l02_high_jit") / error(arrays, "l02", "l02_highest_jit"),
        "k1024 HIGH": error(arrays, "k1024", "k1024_high_jit"),
        "matvec DEFAULT": error(matvec, "64x256x1", "64x256x1_default_jit"),
        "two columns DEFAULT": error(matvec, "64x256x2", "64x256x2_default_jit"),
    }


def text(path) -> str:
    """A notebook's cells (or a doc) as one text, lines joined as a reader sees them."""
    raw = (ROOT / path).read_text()
    if path.endswith(".ipynb"):
        raw = "\n".join("".join(c["source"]) for c in json.loads(raw)["cells"])
    return " ".join(raw.split())


LESSON02 = "solutions/02_matmul_accumulation/02_matmul_accumulation.ipynb"
# (where, the words around the figure as written, the figure as written, which figure, its format
# or, for an "about" figure, the relative tolerance it is written to)
QUOTES = [
    (LESSON02, "chip's HIGH has max error 2.11e-4", "2.11e-4", "l02 HIGH", "{:.2e}"),
    (LESSON02, "K = 1024 1.22e-3 against 4.84e-4", "1.22e-3", "k1024 HIGH", "{:.2e}"),
    (LESSON02, "HIGHEST (1.76e-6)", "1.76e-6", "l02 HIGHEST", "{:.2e}"),
    (LESSON02, "HIGH is still about 175x better than DEFAULT", "175", "l02 DEFAULT / HIGH", 0.02),
    (LESSON02, "about 120x worse than the chip's HIGHEST", "120", "l02 HIGH / HIGHEST", 0.02),
    (LESSON02, "matrix-vector product was 5.1e-6", "5.1e-6", "matvec DEFAULT", "{:.1e}"),
    (LESSON02, "was one bf16 pass (0.17:", "0.17", "two columns DEFAULT", "{:.2f}"),
    ("docs/COURSE.md", "DEFAULT error 5.1e-6 at K = 256", "5.1e-6", "matvec DEFAULT", "{:.1e}"),
    ("docs/COURSE.md", "one bf16 pass, 0.17", "0.17", "two columns DEFAULT", "{:.2f}"),
    ("docs/COURSE.md", "on lesson 02's data HIGH 2.11e-4", "2.11e-4", "l02 HIGH", "{:.2e}"),
    ("docs/COURSE.md", "HIGHEST 1.76e-6", "1.76e-6", "l02 HIGHEST", "{:.2e}"),
]


def as_written(value: float, fmt: str) -> str:
    """A figure as the text writes it: 2.11e-4, not 2.11e-04."""
    return fmt.format(value).replace("e-0", "e-").replace("e+0", "e+")


@pytest.mark.parametrize(
    "where, words, quoted, figure, fmt", QUOTES, ids=[f"{q[0].split('/')[-1]}: {q[3]}" for q in QUOTES]
)
def test_a_quoted_chip_figure_is_the_recorded_one(chip, where, words, quoted, figure, fmt):
    value = chip[figure]
    print(f"{where}: '{words}'; the chip's record gives {figure} = {value:.4g}")
    assert quoted in words and words in text(where), f"{where} no longer says '{words}': update QUOTES"
    if isinstance(fmt, str):
        assert quoted == as_written(value, fmt), f"{where} quotes {quoted} for {figure}; the chip recorded {value:.4g}"
    else:
        assert abs(value / float(quoted) - 1) <= fmt, f"{where} says about {quoted} for {figure}; recorded {value:.4g}"
