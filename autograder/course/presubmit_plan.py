"""The self-check's reading of notebooks (part of notebooks/selfcheck.py, presubmit_build.py joins the
parts): what grading runs of a submission, read as the grader's plan.py reads it (``plan``), and where
the lesson's release notebook is (``find_release``). Plain JSON, the standard library, and the
grader's own studentcode.py and notebook helpers (inlined in the student's module)."""

import ast
import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path

# >>> course only: the generated selfcheck.py carries the text of these definitions above this part (the
# grader's own, presubmit_build.py)
from ..common.notebooks import cell_grade_id, is_test
from ..grader.core.studentcode import Protected, UnreadableCode, definitions_of, definitions_only, parse_cell

# <<< course only

HERE = Path(__file__).resolve().parent  # the course's notebooks/ (or where a student saved this module)
EMULATION = "tpu_emulation.py"

_gid = cell_grade_id


def _source(cell) -> str:
    s = cell.get("source", "") if isinstance(cell, dict) else ""
    return "".join(s) if isinstance(s, list) else str(s)


def _code_cells(nb) -> list:
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    return [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]


def runs_nothing(source: str) -> bool:
    """A test cell of the release holding only its docstring (a hidden test: its code is the grader's)."""
    tree, _ = parse_cell(source)
    if tree is None:
        return False
    return all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in tree.body)


def answer_ids(nb) -> set:
    return {g for c in _code_cells(nb) if (g := _gid(c)).startswith("answer_")}


def read(path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def plan(submitted: dict, release: dict | None) -> dict:
    """What grading runs of ``submitted`` (the grader's plan.py, read from the lesson's release):
    {"setup": code, "cells": [(label, code)], "tests": [(grade_id, code)], "hidden": [grade_id],
    "contract": [names], "notes": [...]}. Without a release (``None``), the submission's own cells stand
    for the lesson's, and a cell you added is read as a lesson cell (a note says so)."""
    notes = []
    lesson = release if release is not None else submitted
    if release is None:
        notes.append(
            "the lesson's release notebook was not found: your copy's cells stand for the lesson's, and a cell "
            "you added is kept only as far as a lesson cell is (imports, defs, constants without calls)"
        )
    lesson_cells = _code_cells(lesson)
    release_code = {_source(c).strip() for c in lesson_cells}
    release_ids = {c.get("id") for c in (lesson.get("cells") or []) if isinstance(c, dict) and c.get("id")}
    answers, extras, pending = {}, {}, []
    for cell in _code_cells(submitted):
        src, gid = _source(cell), _gid(cell)
        if gid.startswith("answer_") and gid not in answers:
            answers[gid] = src
            extras[gid], pending = [("before", s) for s in pending], []
        elif release is not None and not gid and src.strip() and src.strip() not in release_code:
            if not (isinstance(cell.get("id"), str) and cell.get("id") in release_ids):
                pending.append(src)
    answer_order = [_gid(c) for c in lesson_cells if _gid(c).startswith("answer_")]
    if pending and answer_order:  # cells added after the last answer: with it
        extras.setdefault(answer_order[-1], []).extend(("after", s) for s in pending)
    instructor = [_source(c) for c in lesson_cells if not _gid(c).startswith("answer_") and not is_test(c)]
    protected = Protected(instructor)
    contract = []
    for c in lesson_cells:
        if _gid(c).startswith("answer_"):
            tree, _ = parse_cell(_source(c))
            contract += [s.name for s in (tree.body if tree else []) if type(s).__name__ == "FunctionDef"]
    out = {"setup": "", "cells": [], "tests": [], "hidden": [], "contract": contract, "notes": notes}
    out["bound"] = sorted(protected.bound)
    dropped, refused = 0, []
    submitted_tests = {_gid(c): _source(c) for c in _code_cells(submitted) if is_test(c)}
    for cell in lesson_cells:
        gid, src = _gid(cell), _source(cell)
        if cell is lesson_cells[0]:
            out["setup"] = src
        elif is_test(cell):
            if release is not None and submitted_tests.get(gid) != src:
                how = "deleted" if gid not in submitted_tests else "edited"
                notes.append(f"{gid} is {how} in your notebook: grading runs the original and marks it tampered")
            if runs_nothing(src):
                out["hidden"].append(gid)
            else:
                out["tests"].append((gid, src))
        elif gid.startswith("answer_"):
            if gid not in answers:
                notes.append(f"answer cell {gid} is missing: graded as the unanswered stub")
            sources = [(f"cell added {w} {gid}", s) for w, s in extras.get(gid, [])]
            sources.append((gid, answers.get(gid, src)))
            for label, code in sources:
                tree, problem = parse_cell(code)
                if tree is None:
                    notes.append(f"{label} does not parse ({problem}): nothing in it is defined when grading")
                    continue
                try:
                    kept, n, clash = definitions_of(tree, protected)
                except UnreadableCode as exc:
                    notes.append(f"{label} does not run when grading ({exc})")
                    continue
                dropped, refused = dropped + n, refused + list(clash)
                if kept.strip():
                    out["cells"].append((label, kept))
        else:
            kept, _, _ = definitions_only(src, calls=False)
            if kept.strip():
                out["cells"].append((gid or f"lesson cell {lesson_cells.index(cell)}", kept))
    if refused:
        notes.append(
            "not run when grading, since they would replace a builtin or a name the notebook itself defines: "
            + ", ".join(sorted(set(refused)))
        )
    if dropped:
        notes.append(
            f"{dropped} top-level statement(s) in your cells do not run when grading: only imports, def/class "
            "statements and simple constants do (a global your kernel computed is not there)"
        )
    return out


# ---------------------------------------------------------------- finding the notebooks


def lesson_of(nb: dict, folder: Path) -> Path | None:
    """The release notebook in ``folder`` (NN_name/NN_name.ipynb) whose exercises are ``nb``'s."""
    mine = answer_ids(nb)
    for path in sorted(folder.glob("*/*.ipynb")):
        if path.stem == path.parent.name and mine:
            try:
                if answer_ids(read(path)) == mine:
                    return path
            except (OSError, ValueError):
                continue
    return None


def _from_git(path: Path) -> dict | None:
    """The committed version of ``path`` (you edited the release in your clone of the course)."""
    try:
        text = subprocess.run(
            ["git", "show", f"HEAD:./{path.name}"], cwd=path.parent, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    try:
        return json.loads(text.stdout) if text.returncode == 0 else None
    except ValueError:
        return None


def _setup_url(nb: dict) -> str | None:
    """The course's emulation URL that the notebook's setup cell names (its repository's notebooks/)."""
    cells = _code_cells(nb)
    found = re.search(r'url="(https://[^"]+/)' + re.escape(EMULATION) + '"', _source(cells[0]) if cells else "")
    return found.group(1) if found else None


def find_release(nb: dict, path: Path | None, say=print) -> dict | None:
    """The lesson's release notebook: beside this file, from git where it is your notebook itself, or
    downloaded from the course's repository (the URL the setup cell names)."""
    local = lesson_of(nb, HERE)
    if local is not None:
        if path is None or not path.exists() or not local.samefile(path):
            return read(local)
        committed = _from_git(local)
        if committed is not None:
            return committed
    override = os.environ.get("COURSE_EMULATION_URL", "")  # where the setup cell fetched the emulation from
    base = override.rpartition("/")[0] + "/" if "/" in override else _setup_url(nb)
    if base is not None:
        name = next(_lesson_names(nb), None)
        if name:
            try:
                with urllib.request.urlopen(f"{base}{name}/{name}.ipynb", timeout=30) as r:
                    fetched = json.loads(r.read().decode("utf-8"))
                if answer_ids(fetched) == answer_ids(nb):
                    return fetched
                say(f"note: {base}{name}/{name}.ipynb is not this notebook's lesson")
            except (OSError, ValueError) as exc:
                say(f"note: the lesson's release could not be downloaded ({type(exc).__name__})")
    return None


def _lesson_names(nb: dict):
    """The lesson's folder name, from the notebook's Colab badge (.../notebooks/NN_name/NN_name.ipynb)."""
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    for cell in cells:
        for m in re.finditer(r"/(\d\d_[a-z0-9_]+)/\1\.ipynb", _source(cell)):
            yield m.group(1)


def find_emulation() -> Path | None:
    near = [HERE / EMULATION, Path.cwd() / EMULATION, Path.cwd() / "notebooks" / EMULATION]
    return next((p for p in near if p.is_file()), None)


def colab_notebook() -> dict | None:
    """The notebook open in Colab, as its frontend holds it (unsaved edits included), or None."""
    try:
        from google.colab import _message  # noqa: PLC0415
    except ImportError:
        return None
    try:
        reply = _message.blocking_request("get_ipynb", request="", timeout_sec=60)
    except Exception as exc:  # noqa: BLE001  the frontend did not answer: the caller says how else
        print(f"Colab did not hand over the notebook ({type(exc).__name__}: {exc})")
        return None
    return reply.get("ipynb") if isinstance(reply, dict) else None


def jupyter_path(lesson: str | None = None) -> Path | None:
    """The notebook's file in Jupyter (the kernel's session names it) or VS Code, else a file of the
    lesson's name in the working folder."""
    for name in ("JPY_SESSION_NAME", "__vsc_ipynb_file__"):
        value = os.environ.get(name)
        if value and value.endswith(".ipynb") and Path(value).is_file():
            return Path(value)
    try:
        import __main__

        value = getattr(__main__, "__vsc_ipynb_file__", None)
        if value and Path(value).is_file():
            return Path(value)
    except ImportError:
        pass
    if lesson and (Path.cwd() / f"{lesson}.ipynb").is_file():
        return Path.cwd() / f"{lesson}.ipynb"
    return None
