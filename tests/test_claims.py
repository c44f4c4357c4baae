"""Every explanation of the library of known mistakes (solutions/<NN_name>/mistakes.py) is backed
by claims that run (issue 45, item 4): ``solutions/<NN_name>/claims.py`` holds, per entry
(``"<function>:<id>"``), Python expressions that must be True after the entry's ``source`` has
been run in the lesson's namespace. Each checks what the entry's name, explanation or why says
about a number, a dtype or a behaviour, on one small input, or the fact it states.

The namespace: the imports, functions, classes and UPPERCASE constants of the lesson's code cells
that are neither exercises nor tests (only those statements: no demo runs), then the reference
solutions of every exercise (other exercises a mistake calls are the references), ``reference``
(a dict of those reference functions by name), ``DATA`` (tests/data), ``CACHE`` (a dict the
claims of one lesson share, to build an input once) and ``TMP`` (a temporary folder), then the
entry's source, then the claims file's optional ``HELPERS`` code (run after the source, so a
helper that calls the exercise calls the mistake). Claims files are plain modules, never imported by pytest.

Also here: every entry whose name or explanation states a number or names a dtype has a claim
(or a reason in the claims file's ``EXEMPT``: "<function>:<id>" -> why one small input on a CPU
cannot show it), every claim names an entry that exists, and claims tell entries apart:
a claim set is not all True for another entry's code of the same function (the claims file's
``DISTINCT`` pairs).
"""

import ast
import atexit
import contextlib
import functools
import io
import re
import runpy
import shutil
import tempfile
import warnings
from pathlib import Path

import jax
import numpy as np
import pytest

from autograder.common import lessonfolder
from autograder.common import mistakes as lib
from autograder.common.notebooks import cell_grade_id, is_test
from conftest import LESSONS, ROOT, source_nb

# What an entry's name or explanation must say to need a claim: a number or a dtype.
STATES = re.compile(
    r"\d|bfloat16|float16|float32|float64|int8|int32|fp8|float8|e4m3|e5m2|e2m1|fp4|nvfp4|mxfp",
    re.IGNORECASE,
)


def claims_file(lesson: str) -> dict:
    path = lessonfolder.companion(lesson, lessonfolder.CLAIMS_FILE)
    return runpy.run_path(str(path)) if path.is_file() else {}


def distinct_pairs() -> list[tuple[str, str]]:
    """Every lesson's DISTINCT pairs, as course keys ("<lesson>:<function>:<id>")."""
    return [(f"{n}:{a}", f"{n}:{b}") for n in LESSONS for a, b in claims_file(n).get("DISTINCT", [])]


MUTATIONS = distinct_pairs()


def claims_of(lesson: str) -> dict[str, list[str]]:
    return claims_file(lesson).get("CLAIMS", {})


def setup_statements(nb) -> list[ast.stmt]:
    """The imports, defs, classes and UPPERCASE constants of the notebook's non-exercise, non-test
    code cells, in order."""
    kept = []
    for cell in nb.cells:
        if cell.cell_type != "code" or is_test(cell) or cell_grade_id(cell).startswith("answer_"):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)) or (
                isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
            ):
                kept.append(node)
    return kept


@functools.cache
def lesson_namespace(lesson: str) -> dict:
    nb = source_nb(lesson)
    ns: dict = {"__name__": "__claims__", "__lesson__": lesson}
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for node in setup_statements(nb):
            try:  # a constant computed from a demo's variables is not needed here
                exec(compile(ast.Module([node], []), f"<{lesson} setup>", "exec"), ns)
            except Exception:  # noqa: BLE001
                pass
        functions = []
        for cell in nb.cells:
            gid = cell_grade_id(cell)
            if gid.startswith("answer_"):
                exec(compile(cell.source, f"<{lesson} {gid}>", "exec"), ns)
                functions.append(gid.removeprefix("answer_"))
    ns["reference"] = {name: ns[name] for name in functions}
    ns["DATA"] = ROOT / "tests" / "data"
    ns["CACHE"] = {}  # what the claims of one lesson share (an input built once)
    ns["TMP"] = Path(tempfile.mkdtemp(prefix=f"claims-{lesson}-"))
    atexit.register(shutil.rmtree, ns["TMP"], True)
    return ns


def entry_namespace(lesson: str, source: str) -> dict:
    ns = dict(lesson_namespace(lesson))
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, f"<{lesson} mistake>", "exec"), ns)
        exec(compile(claims_file_cached(lesson).get("HELPERS", ""), f"<{lesson} helpers>", "exec"), ns)
    return ns


@functools.cache
def claims_file_cached(lesson: str) -> dict:
    return claims_file(lesson)


def evaluate(expression: str, ns: dict):
    """The claim's value, or the exception it raised. Claims run with ``jax.disable_jit()`` where
    the claims file sets ``EAGER``: op by op, on a CPU the same numbers as the compiled code (the
    claims that tell jit from eager read the chip's records), without compiling every jitted
    function of every entry again."""
    eager = jax.disable_jit() if claims_file_cached(ns["__lesson__"]).get("EAGER") else contextlib.nullcontext()
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), np.errstate(all="ignore"), eager:
        warnings.simplefilter("ignore")
        try:
            return eval(compile(expression, "<claim>", "eval"), ns)
        except Exception as e:  # noqa: BLE001
            return e


@functools.cache
def library(lesson: str) -> dict[str, lib.Mistake]:
    return {f"{m.function}:{m.id}": m for m in lib.load(lesson)}


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_claim_holds(lesson):
    entries, failures = library(lesson), []
    for key, claims in claims_file_cached(lesson).get("CLAIMS", {}).items():
        if key not in entries:
            continue  # test_claims_name_entries
        ns = entry_namespace(lesson, entries[key].source)
        for claim in claims:
            value = evaluate(claim, ns)
            print(f"{lesson}:{key}: {claim}  ->  {value!r}")
            if value is not True and not (isinstance(value, np.bool_) and bool(value)):
                failures.append(f"{key}: {claim}  ->  {value!r}")
    assert not failures, f"{lesson}: claims that do not hold:\n" + "\n".join(failures)


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_stated_number_or_dtype_has_a_claim(lesson):
    claims = claims_file_cached(lesson).get("CLAIMS", {})
    missing = [
        key
        for key, m in library(lesson).items()
        if STATES.search(f"{m.name} {m.explanation}")
        and not claims.get(key)
        and key not in claims_file_cached(lesson).get("EXEMPT", {})
    ]
    assert not missing, (
        f"{lesson}: entries that state a number or a dtype with no claim "
        f"(add one to solutions/{lesson}/claims.py or a reason to EXEMPT): {missing}"
    )


@pytest.mark.parametrize("lesson", LESSONS)
def test_claims_name_entries(lesson):
    unknown = sorted(set(claims_file_cached(lesson).get("CLAIMS", {})) - set(library(lesson)))
    assert not unknown, f"{lesson}: claims for entries the library does not hold (renamed?): {unknown}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_distinct_pairs_name_entries(lesson):
    """The claims file's DISTINCT pairs (checked by test_claims_tell_entries_apart) are entries of
    the library, two of one function."""
    pairs = claims_file_cached(lesson).get("DISTINCT", [])
    assert all(a.split(":")[0] == b.split(":")[0] for a, b in pairs), pairs
    unknown = sorted({k for pair in pairs for k in pair} - set(library(lesson)))
    assert not unknown, f"{lesson}: DISTINCT names entries the library does not hold: {unknown}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_exemptions_name_entries(lesson):
    exempt = claims_file_cached(lesson).get("EXEMPT", {})
    assert not sorted(set(exempt) - set(library(lesson))), f"{lesson}: EXEMPT names entries the library does not hold"
    assert all(isinstance(why, str) and why for why in exempt.values()), "each exemption says why"


@pytest.mark.parametrize("pair", MUTATIONS, ids=[f"{a}<-{b.split(':')[-1]}" for a, b in MUTATIONS])
def test_claims_tell_entries_apart(pair):
    (lesson, function, own), (other_lesson, other_function, other) = (key.split(":") for key in pair)
    assert lesson == other_lesson
    assert function == other_function
    entries = library(lesson)
    ns = entry_namespace(lesson, entries[f"{function}:{other}"].source)
    values = [evaluate(claim, ns) for claim in claims_of(lesson)[f"{function}:{own}"]]
    assert not all(v is True or (isinstance(v, np.bool_) and bool(v)) for v in values), (
        f"{pair[0]}'s claims all hold for {pair[1]}'s code: they do not tell the two apart"
    )
