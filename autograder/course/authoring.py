"""Write nbgrader source notebooks from Python, for lesson authors who prefer code to clicking.

The notebook written here *is* the source of truth (``solutions/<NN_name>/<NN_name>.ipynb``);
scripts that call these helpers are scaffolding and are not kept. Authors who use JupyterLab's
nbgrader "Create Assignment" toolbar produce exactly the same metadata by hand.

Conventions (checked by ``tests/test_lesson_structure.py``):

* answer cell  -> grade_id ``answer_<function>``  (solution=True, the ``def`` and docstring
  outside the ``### BEGIN SOLUTION`` block so students see the contract)
* test cells   -> grade_id ``test_<function>_visible`` and ``test_<function>_hidden``
  (grade=True, locked=True, points > 0); the hidden one wraps its body in
  ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS`` below a visible docstring.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python"}


def _meta(**flags):
    base = {"grade": False, "locked": False, "schema_version": 3, "solution": False, "task": False}
    base.update(flags)
    return {"nbgrader": base}


def _clean(src: str) -> str:
    return textwrap.dedent(src).strip("\n")


class Lesson:
    """Accumulate cells in order and write one nbgrader source notebook (docs/AUTHORING.md's worked
    example: autograder/course/skeleton.py)."""

    def __init__(self, name: str, root: Path | None = None):
        if not re.fullmatch(r"\d\d_[a-z0-9_]+", name):
            raise ValueError(f"lesson names look like 02_matmul_accumulation, not {name!r}")
        self.name = name
        self.root = Path(root or ROOT)
        self.cells: list = []
        self._n = 0

    def _id(self, grade_id: str | None = None) -> str:
        self._n += 1
        return grade_id.replace("_", "-") if grade_id else f"cell-{self._n:03d}"

    def md(self, src: str) -> None:
        cell = nbformat.v4.new_markdown_cell(_clean(src))
        cell.id = self._id()
        self.cells.append(cell)

    def code(self, src: str, tags: list[str] | None = None) -> None:
        """A demo cell; tag it "summary" to have `make run` print its output."""
        cell = nbformat.v4.new_code_cell(_clean(src), metadata={"tags": tags} if tags else {})
        cell.id = self._id()
        self.cells.append(cell)

    def setup(self, imports: str, after: str = "") -> None:
        """The setup cell: ``imports`` (``re`` and ``jax`` among them), then the JAX floor check and the
        CHIP block every lesson shares (autograder/common/setupcell.py, for this course's repository),
        then ``after`` (the lesson's own first lines: print the versions and the backend)."""
        from ..common import setupcell
        from ..common.config import emulation_url

        imports, after = _clean(imports), _clean(after)
        if not re.search(r"^import re$", imports, re.M) or not re.search(r"^import jax$", imports, re.M):
            raise ValueError("the setup cell's imports need `import re` and `import jax` (the JAX floor check)")
        floor = setupcell.floor_check(setupcell.declared_floor(self.root))
        self.code(f"{imports}\n\n{floor}\n\n{setupcell.block(emulation_url(self.root))}{after}")

    def answer(self, function: str, src: str) -> None:
        src = _clean(src)
        if "### BEGIN SOLUTION" not in src or f"def {function}(" not in src:
            raise ValueError(f"answer cell for {function} needs its def line and a solution block")
        grade_id = f"answer_{function}"
        cell = nbformat.v4.new_code_cell(src, metadata=_meta(solution=True, grade_id=grade_id))
        cell.id = self._id(grade_id)
        self.cells.append(cell)

    def test(self, function: str, kind: str, points: float, src: str) -> None:
        if kind not in ("visible", "hidden"):
            raise ValueError("kind is 'visible' or 'hidden'")
        src = _clean(src)
        if not src.startswith('"""'):
            raise ValueError("a test cell starts with a docstring saying what it checks")
        if kind == "hidden" and "### BEGIN HIDDEN TESTS" not in src:
            raise ValueError("a hidden test cell wraps its body in ### BEGIN/END HIDDEN TESTS")
        grade_id = f"test_{function}_{kind}"
        if any(c.metadata.get("nbgrader", {}).get("grade_id") == grade_id for c in self.cells):
            raise ValueError(f"one {kind} test cell per exercise: {grade_id} exists already")
        meta = _meta(grade=True, locked=True, points=points, grade_id=grade_id)
        cell = nbformat.v4.new_code_cell(src, metadata=meta)
        cell.id = self._id(grade_id)
        self.cells.append(cell)

    def notebook(self):
        nb = nbformat.v4.new_notebook(cells=self.cells)
        nb.metadata = {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO}
        nbformat.validate(nb)
        return nb

    def write(self, root: Path | None = None) -> Path:
        path = Path(root or self.root) / "solutions" / self.name / f"{self.name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(self.notebook(), str(path))
        return path
