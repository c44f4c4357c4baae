"""Every lesson follows the skeleton of docs/AUTHORING.md and implements the fixed contracts."""

import ast
import re

from autograder.common import lessonfolder
from autograder.common.notebooks import cell_grade_id, every_lesson
from autograder.course.lessoncheck import load_mutants
from conftest import LESSONS, ROOT, hidden_test_seed_problems, source_nb


def design() -> dict[str, str]:
    """docs/COURSE.md's fixed contracts: {lesson: its section's text}."""
    text = (ROOT / "docs" / "COURSE.md").read_text()
    part = text.split("\n## Fixed contracts\n", 1)[1].split("\n## ", 1)[0]
    return {s.split()[0]: s for s in re.split(r"^### ", part, flags=re.M)[1:]}


def contract(lesson: str) -> tuple[str, ...]:
    """The exercise functions the design fixes for ``lesson`` (its lesson.toml's ``contract``)."""
    return lessonfolder.settings(lesson).contract


def nbmeta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def test_every_lesson_of_the_design_exists_with_its_contract():
    """Every lesson docs/COURSE.md fixes is a lesson folder whose lesson.toml lists every function of
    its contract (the functions of its bullets); a lesson the design does not fix (a new one) may
    declare a contract of its own."""
    found = design()
    assert found, "docs/COURSE.md's fixed contracts"
    missing = sorted(set(found) - set(every_lesson(ROOT)))
    assert not missing, f"lessons of the design missing: {missing}"
    for lesson, section in found.items():
        named = set(re.findall(r"^- `(\w+)\(", section, flags=re.M))
        assert named and named <= set(contract(lesson)), (
            f"{lesson}: lesson.toml's contract lacks {named - set(contract(lesson))}"
        )


def test_every_lesson_folder_is_one_lesson(lesson):
    """A lesson folder: NN_name, its notebook named like it, lesson.toml readable, and no file the
    release would hand students that the notebook does not ask for (common/lessonfolder.py)."""
    assert lessonfolder.NAME.fullmatch(lesson), f"{lesson}: lesson folders are named NN_name"
    assert lessonfolder.notebook_path(lesson).is_file()
    lessonfolder.settings(lesson)  # raises on a malformed file
    assert lessonfolder.stray_files(lesson) == [], "files students would get that the lesson does not name"
    assert len({n[:2] for n in every_lesson(ROOT)}) == len(every_lesson(ROOT)), "one lesson per number"


def test_title_setup_and_summary(lesson):
    cells = source_nb(lesson).cells
    title = cells[0]
    assert title.cell_type == "markdown" and title.source.startswith("<!-- colab-badge -->")
    assert re.search(rf"^# {lesson[:2]} ", title.source, re.M), "title '# NN · ...'"
    assert re.search(r"objective|you will", title.source, re.I), "learning objectives in the title cell"
    assert re.search(r"\d+\s*min", title.source), "time estimate in the title cell"
    setup = next(c for c in cells if c.cell_type == "code")
    assert "jax.default_backend()" in setup.source and "device_kind" in setup.source
    assert "Summary" in cells[-1].source or "Summary" in cells[-2].source


def test_contract_functions_are_answer_cells_with_visible_and_hidden_tests(lesson):
    nb = source_nb(lesson)
    answers = [cell_grade_id(c).removeprefix("answer_") for c in nb.cells if cell_grade_id(c).startswith("answer_")]
    for function in contract(lesson):
        assert function in answers, f"{lesson}: contract {function} is not an exercise"
    ids = [cell_grade_id(c) for c in nb.cells]
    assert len([i for i in ids if i]) == len({i for i in ids if i}), "grade ids are unique"
    for function in answers:
        a = ids.index(f"answer_{function}")
        v = ids.index(f"test_{function}_visible")
        h = ids.index(f"test_{function}_hidden")
        assert a < v < h, f"{function}: answer, then visible test, then hidden test"
        answer = nb.cells[a]
        tree = ast.parse(answer.source.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", ""))
        assert any(isinstance(n, ast.FunctionDef) and n.name == function for n in tree.body)
        head = answer.source.split("### BEGIN SOLUTION")[0]
        assert f"def {function}(" in head and '"""' in head, "def line and docstring stay visible"
        points = 0
        for idx in (v, h):
            cell = nb.cells[idx]
            meta = nbmeta(cell)
            assert meta["grade"] and meta["locked"] and meta["points"] > 0
            assert cell.source.startswith('"""'), f"{ids[idx]} starts with a docstring"
            points += meta["points"]
        assert "### BEGIN HIDDEN TESTS" in nb.cells[h].source
        heading = next((c.source for c in reversed(nb.cells[:a]) if c.cell_type == "markdown"), "")
        match = re.search(rf"`{function}`\s*\((\d+(?:\.\d+)?) points?\)", heading)
        assert match, f"{function}: the exercise heading names it with its points"
        assert float(match.group(1)) == points, f"{function}: heading says {match.group(1)}, tests give {points}"


def test_notebooks_are_self_contained_and_make_figures(lesson):
    code = "\n".join(c.source for c in source_nb(lesson).cells if c.cell_type == "code")
    assert not re.search(r"^\s*(from|import)\s+(autograder|tests)\b", code, re.M)
    assert "create_perfetto_link=True" not in code
    assert code.count("plt.show()") >= 2, "each section shows its experiment as a figure"
    assert "PRNGKey" in code, "explicit PRNG keys"


def test_plausible_wrong_answers_cover_every_exercise(lesson):
    mutants = load_mutants(lesson)
    functions = [
        cell_grade_id(c).removeprefix("answer_")
        for c in source_nb(lesson).cells
        if cell_grade_id(c).startswith("answer_")
    ]
    for function in functions:
        n = sum(m["function"] == function for m in mutants)
        assert n >= 2, f"{lesson}: only {n} plausible wrong answers for {function}"


def test_installs_happen_only_on_colab(lesson):
    """A setup cell installs only what Colab lacks, and only on Colab: never in CI or a venv."""
    for cell in source_nb(lesson).cells:
        # an error message that tells the student what to run (the JAX floor check) installs nothing
        code = re.sub(r"raise RuntimeError\([^)]*\)", "", cell.source)
        if cell.cell_type == "code" and re.search(r"pip\b.*\binstall\b", code):
            assert "google.colab" in cell.source, "pip install outside a Colab guard"
            assert "find_spec" in cell.source, "install only what is missing"


def _planned_lends(cell_source):
    """The sibling exercises a hidden test lends (``_Isolated(**_lent)`` with ``_lent = {n:
    _PlannedAnswers(n) for n in (...)}``, or ``_Isolated(name=_PlannedAnswers("name"))``)."""
    tree = ast.parse(cell_source)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_PlannedAnswers":
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant):
                names.append(arg.value)
        if isinstance(node, ast.DictComp) and "_PlannedAnswers" in ast.unparse(node.key) + ast.unparse(node.value):
            for gen in node.generators:
                names += [e.value for e in getattr(gen.iter, "elts", []) if isinstance(e, ast.Constant)]
    return names


def _defined_names(tree):
    """The names a cell defines: functions, classes, and plain assignments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


PLANNED_DEFS = ("_plan_key", "_PlannedAnswers", "_Isolated")


def _definitions(lessons):
    """Every definition of the planned-answer machinery in the lessons' cells, by name."""
    found = {name: [] for name in PLANNED_DEFS}
    for lesson in lessons:
        for cell in source_nb(lesson).cells:
            if cell.cell_type != "code" or not any(n in cell.source for n in PLANNED_DEFS):
                continue
            for node in ast.parse(cell.source).body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in PLANNED_DEFS:
                    found[node.name].append((f"{lesson}:{cell_grade_id(cell)}", ast.unparse(node)))
    return found


def test_hidden_tests_lend_only_planned_answers_of_earlier_exercises(lesson):
    """docs/AUTHORING.md, "No lent oracles": a hidden test may answer a sibling exercise only from
    planned answers (``_PlannedAnswers``: the reference's answers for the inputs the test plans
    before each call), only for exercises BEFORE the tested one, and never by rebinding a name to a
    reference (``globals()["a"] = _ref_a``: the grader lends such a function to nobody, so the
    notebook would grade differently from how it runs). The old ``_Isolated("a", ...)``, which lent
    whole references, answered neighbouring exercises for free: 4/15 from no quantization code."""
    nb = source_nb(lesson)
    order = [cell_grade_id(c)[len("answer_") :] for c in nb.cells if cell_grade_id(c).startswith("answer_")]
    for cell in nb.cells:
        gid = cell_grade_id(cell)
        if not gid.startswith("test_"):
            continue
        tree = ast.parse(cell.source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_Isolated":
                assert not node.args, f"{gid}: _Isolated takes planned answers by keyword, not names"
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                target = ast.unparse(node)
                assert not re.match(r"globals\(\)\[", target), f"{gid}: rebinds a name in globals(): {target}"
        if not gid.endswith("_hidden"):
            assert "_PlannedAnswers(" not in cell.source, f"{gid}: a visible test lends nothing"
            continue
        tested = gid[len("test_") : -len("_hidden")]
        lent = _planned_lends(cell.source)
        if "_Isolated(**" in cell.source or "_PlannedAnswers(" in cell.source:
            assert lent, f"{gid}: planned answers whose exercises cannot be read statically"
        later = [n for n in lent if n not in order or order.index(n) >= order.index(tested)]
        assert later == [], f"{gid} lends {later}: not before {tested} in the lesson"
        # the references it plans from are its own cell's: a regrade of this test alone, or a
        # sibling's hidden test that failed before its definitions, cannot leave them undefined
        own = _defined_names(tree)
        missing = [f"_ref_{n}" for n in lent if f"_ref_{n}" not in own]
        assert missing == [], f"{gid} plans from {missing}, defined outside its own cell"


def test_every_lesson_carries_one_planned_answers_machinery():
    """The grader lends ``_PlannedAnswers`` objects (standins.lends): every copy of it, of its key
    and of ``_Isolated`` in every lesson is the same code, so the behaviour tested below is the
    behaviour of each."""
    found = _definitions(LESSONS)
    for name, copies in found.items():
        print(name, [where for where, _ in copies])
        assert copies, f"no lesson defines {name}"
        assert len({code for _, code in copies}) == 1, f"{name} differs between {[w for w, _ in copies]}"


def test_planned_answers_answer_only_what_was_planned():
    """The lessons' ``_PlannedAnswers``: a planned input (given positionally, by keyword, with a
    default spelled out, as NumPy or JAX, with a dtype or its name) gets the reference's answer, a
    copy each time; any other input (another shape, another value, another argument) gets the
    notebook's own function; after ``limit`` answers, the own function answers every call."""
    import numpy as np

    code = "\n\n".join(copies[0][1] for copies in _definitions(LESSONS).values())
    calls = []

    def _ref_f(x, elem="float32", block=2):
        return np.asarray(x, np.float32) * 2, {"block": block}

    def f(x, elem="float32", block=2):
        calls.append((np.asarray(x).shape, elem, block))
        return "own"

    ns = {"np": np, "_ref_f": _ref_f, "f": f}
    exec(code, ns)
    plans = ns["_PlannedAnswers"]("f", limit=5)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    planned = plans.plan(x, "float32")
    import jax.numpy as jnp

    for args, kwargs in [((x,), {}), ((x.astype(np.float64),), {"block": 2}), ((jnp.asarray(x), np.float32), {})]:
        found, answer = plans.planned_answer(args, kwargs)
        assert found and np.array_equal(answer[0], planned[0]), (args, kwargs)
        answer[0][0, 0] = 99  # a copy: the next caller gets the planned answer, not this one
    assert plans(x)[0][0, 0] == 0
    assert plans.planned_answer((x, 1, 2, 3), {}) == (False, None)  # not the contract's arguments
    for args, kwargs in [((x.T,), {}), ((x + 1,), {}), ((x,), {"block": 4}), ((x, "bfloat16"), {})]:
        assert plans.planned_answer(args, kwargs) == (False, None), (args, kwargs)
        assert plans(*args, **kwargs) == "own", (args, kwargs)
    assert len(calls) == 4
    assert plans.planned_answer((x,), {})[0]  # the fifth answer
    assert plans.planned_answer((x,), {}) == (False, None) and plans(x) == "own"  # limit reached
    with ns["_Isolated"](f=plans):
        assert ns["f"] is plans
    assert ns["f"] is f


def test_hidden_tests_draw_fresh_inputs_from_the_grading_seed(lesson):
    """docs/AUTHORING.md, "Fresh inputs per run": every hidden test that draws random data draws it
    from the grader's per-notebook GRADING_SEED, never from a literal seed (python -m
    autograder.course.lessoncheck sweep then shows every correct answer passes for every seed)."""
    problems = hidden_test_seed_problems(source_nb(lesson))
    print(f"{lesson}: {problems or 'every random hidden test draws from GRADING_SEED'}")
    assert not problems


def test_the_fresh_inputs_rule_finds_literal_seeds():
    """The check above catches what it is for: literal keys and generators, NumPy's global state, a
    seeded call without GRADING_SEED; and accepts seeds derived from it."""
    import nbformat

    def nb_with(body):
        src = '"""Hidden."""\n### BEGIN HIDDEN TESTS\n' + body + "\n### END HIDDEN TESTS"
        cell = nbformat.v4.new_code_cell(src, metadata={"nbgrader": {"grade_id": "test_f_hidden"}})
        return nbformat.v4.new_notebook(cells=[cell])

    bad = [
        "rng = np.random.default_rng(3031)",
        "k = jax.random.PRNGKey(41)",
        "k = jax.random.key(2 ** 3)",
        "x = np.random.normal(size=3)",
        "rng = np.random.default_rng()",
        "out = f(seed=4)",
        "rng = np.random.default_rng(globals().get('GRADING_SEED', 1))\nk = jax.random.PRNGKey(7)",
    ]
    good = [
        "rng = np.random.default_rng(globals().get('GRADING_SEED', 3031))",
        "gs = globals().get('GRADING_SEED', 5)\nk1, k2 = jax.random.split(jax.random.PRNGKey(gs + 1))",
        "def _ref(seed):\n    return jax.random.PRNGKey(seed)\nout = f(seed=0), _ref(globals()['GRADING_SEED'])",
        "x = np.zeros(3)",
    ]
    for body in bad:
        assert hidden_test_seed_problems(nb_with(body)), body
    for body in good:
        assert not hidden_test_seed_problems(nb_with(body)), body
