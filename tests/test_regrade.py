"""A term in one OUT (issue 31): a rerun with a subset of students merges with what OUT holds
(the journal is the class), keeps the first run's seed unless --seed is given, and an instructor's
override survives every regrade until removed. The grading itself is a stand-in (a score per run,
no student code runs; the canaries are skipped): what is tested is what the parent records."""

import csv
import dataclasses
import json

import nbformat
import pytest

from autograder.__main__ import main
from autograder.grader.classroom import classrun
from autograder.grader.classroom.gradebook import Journal
from autograder.grader.core.model import Outcome, Result, TestResult
from autograder.report import report_class
from autograder.grader.notebook.grade import notebook_seed
from autograder.grader.core.settings import Settings
from autograder.report import load
from conftest import source_nb, student_nb

LESSON = "01_number_formats"
POINTS = 13
# the lesson's first graded test cell: the stand-in's points go there (the gradebook sums its cells)
FIRST = next(
    c.metadata.nbgrader["grade_id"] for c in source_nb(LESSON).cells if c.metadata.get("nbgrader", {}).get("grade")
)


@pytest.fixture
def fake(monkeypatch):
    """grade() with its pool replaced: each notebook graded gets the number of the run as its score
    (1 in the first run, 2 in the second...); ``fake.graded`` lists who was graded in each run."""
    from autograder.grader.classroom import canary

    state = {"run": 0, "graded": []}
    monkeypatch.setattr(canary, "process_canary", lambda *a, **k: None)
    monkeypatch.setattr(canary, "solution_canary", lambda *a, **k: None)

    def pool(todo, settings, rec):
        for job in todo:
            s, n = job["student"], job["lesson"]["name"]
            state["graded"][-1].append(s)
            score = float(state["run"])
            r = Result(s, n, score, POINTS, "ok", digest=job["digest"], seed=notebook_seed(settings.seed, s, n))
            r.tests = [TestResult(FIRST, score, POINTS, outcome=Outcome.PASSED if score == POINTS else Outcome.WRONG)]
            rec(job, r.to_dict())

    monkeypatch.setattr(classrun, "_run_pool", pool)

    def run(subs, out, quiet=True, **kw):
        state["run"] += 1
        state["graded"].append([])
        results = classrun.grade(subs, out, kw.pop("settings", Settings(jobs=1)), quiet=quiet, names=[LESSON], **kw)
        report_class(out, quiet=True)  # grade, then report, as the command line does
        return results

    run.graded = state["graded"]
    return run


@pytest.fixture
def subs(tmp_path):
    for student in ("ada", "bob", "cyd"):
        (tmp_path / "subs" / student).mkdir(parents=True)
        nbformat.write(student_nb(LESSON), str(tmp_path / "subs" / student / f"{LESSON}.ipynb"))
    return tmp_path / "subs"


def grades(out):
    return {r["student"]: (r["score"], r["status"]) for r in csv.DictReader(open(out / "grades.csv"))}


def test_a_subset_regrade_keeps_the_other_rows(fake, subs, tmp_path):
    out = tmp_path / "out"
    fake(subs, out)
    assert grades(out) == {s: ("1", "ok") for s in ("ada", "bob", "cyd")}
    results = fake(subs, out, students=["ada"], force=True)
    assert fake.graded[-1] == ["ada"]
    assert grades(out) == {"ada": ("2", "ok"), "bob": ("1", "ok"), "cyd": ("1", "ok")}
    assert {r.student: r.score for r in results} == {"ada": 2, "bob": 1, "cyd": 1}
    tests = {r["student"]: r["score"] for r in csv.DictReader(open(out / "tests.csv"))}
    assert tests == {"ada": "2", "bob": "1", "cyd": "1"}
    assert {d["student"]: d["score"] for d in json.loads((out / "results.json").read_text())} == tests | {
        "ada": 2,
        "bob": 1,
        "cyd": 1,
    }
    assert (out / "feedback" / "bob" / f"{LESSON}.html").is_file()
    data = load(out)
    assert data.problems == [] and len(data.rows) == 3
    assert "cyd" in (out / "report.html").read_text()
    # a new student's rerun adds a row; one run's scope of a student never drops the class
    fake(subs, out, students=["bob"])
    assert fake.graded[-1] == [] and grades(out)["ada"] == ("2", "ok")


def test_an_out_journaled_when_the_lesson_was_called_notebook_resumes(fake, subs, tmp_path):
    """Issue 44 (6): a journal an earlier grader wrote holds each lesson under "notebook": a rerun
    reads it as the class (nothing regraded, every row kept) and writes "lesson" from then on."""
    out = tmp_path / "out"
    fake(subs, out)
    journal = out / "journal.jsonl"
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert lines and all("lesson" in d and "notebook" not in d for d in lines)
    old = [{("notebook" if k == "lesson" else k): v for k, v in d.items()} for d in lines]
    journal.write_text("".join(json.dumps(d) + "\n" for d in old))
    assert set(Journal(journal).done) == {(s, LESSON) for s in ("ada", "bob", "cyd")}
    results = fake(subs, out)
    assert fake.graded[-1] == [] and {(r.student, r.lesson, r.score) for r in results} == {
        (s, LESSON, 1.0) for s in ("ada", "bob", "cyd")
    }
    assert grades(out) == {s: ("1", "ok") for s in ("ada", "bob", "cyd")}
    assert next(csv.reader(open(out / "grades.csv")))[:2] == ["student", "lesson"]
    assert all(d["lesson"] == LESSON for d in json.loads((out / "results.json").read_text()))
    added = journal.read_text().splitlines()[len(old) :]
    assert all("notebook" not in json.loads(line) for line in added)


def test_a_missing_row_outside_the_scope_is_kept(fake, subs, tmp_path):
    out = tmp_path / "out"
    fake(subs, out, students=["ada", "dan"])  # dan has no notebook: missing
    assert grades(out)["dan"] == ("0", "missing")
    fake(subs, out, students=["ada"], force=True)
    assert grades(out) == {"ada": ("2", "ok"), "dan": ("0", "missing")}
    assert set(Journal(out / "journal.jsonl").rows) == {("ada", LESSON), ("dan", LESSON)}


def test_the_first_runs_seed_is_kept_and_seed_replaces_it(fake, subs, tmp_path, capsys):
    out = tmp_path / "out"
    fake(subs, out, quiet=False)
    first = json.loads((out / "run.json").read_text())
    assert first["seed_source"] == "drawn for this OUT" and isinstance(first["seed"], int)
    assert f"Seed {first['seed']}: drawn" in capsys.readouterr().err
    fake(subs, out, quiet=False, force=True)
    again = json.loads((out / "run.json").read_text())
    assert again["seed"] == first["seed"] and again["seed_source"].startswith("kept from OUT/run.json")
    assert f"Seed {first['seed']}: kept from OUT/run.json" in capsys.readouterr().err
    seeds = {d["student"]: d["seed"] for d in json.loads((out / "results.json").read_text())}
    assert seeds["ada"] == notebook_seed(first["seed"], "ada", LESSON)

    fake(subs, out, settings=Settings(jobs=1, seed=first["seed"] + 1), quiet=False)  # no --force
    given = json.loads((out / "run.json").read_text())
    assert given["seed"] == first["seed"] + 1 and given["seed_source"] == "given by --seed"
    assert "given by --seed" in capsys.readouterr().err
    assert sorted(fake.graded[-1]) == ["ada", "bob", "cyd"], "a new seed regrades the scope"
    seeds = {d["student"]: d["seed"] for d in json.loads((out / "results.json").read_text())}
    assert seeds["ada"] == notebook_seed(first["seed"] + 1, "ada", LESSON)
    fake(subs, out)
    assert json.loads((out / "run.json").read_text())["seed"] == first["seed"] + 1
    assert fake.graded[-1] == [], "the kept seed: nothing to regrade"


def override(out, *args):
    return main(["override", str(out), "--student", "bob", "--lesson", "01", *args])


def test_an_override_survives_a_regrade_is_reported_and_removing_it_restores_the_grade(fake, subs, tmp_path, capsys):
    out = tmp_path / "out"
    fake(subs, out)
    reason = "notebook emailed <late>, graded by hand"
    assert override(out, "--score", "11.5", "--reason", reason) == 0
    assert "11.5 / 13 set by hand (graded: 1)" in capsys.readouterr().out
    assert grades(out)["bob"] == ("11.5", "ok")

    fake(subs, out, force=True)  # everyone regraded: bob's grade is 2 now, the override stays
    assert grades(out) == {"ada": ("2", "ok"), "bob": ("11.5", "ok"), "cyd": ("2", "ok")}
    bob = next(d for d in json.loads((out / "results.json").read_text()) if d["student"] == "bob")
    assert bob["score"] == 11.5 and bob["override"]["reason"] == reason and bob["override"]["graded_score"] == 2
    assert {r["student"]: r["score"] for r in csv.DictReader(open(out / "tests.csv"))}["bob"] == "2"
    page = (out / "report.html").read_text()
    assert "Scores set by hand" in page and "notebook emailed &lt;late&gt;, graded by hand" in page
    data = load(out)
    assert data.problems == [] and next(r for r in data.rows if r.student == "bob").override["reason"] == reason
    assert "set by your instructor" in (out / "feedback" / "bob" / f"{LESSON}.html").read_text()
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        assert gb.find_submission_notebook(LESSON, LESSON, "bob").score == 11.5

    assert override(out, "--remove") == 0
    assert grades(out)["bob"] == ("2", "ok")
    assert "Scores set by hand" not in (out / "report.html").read_text()
    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        assert gb.find_submission_notebook(LESSON, LESSON, "bob").score == 2
    fake(subs, out, force=True)
    assert grades(out)["bob"] == ("3", "ok")
    assert [json.loads(x).get("removed", False) for x in (out / "overrides.jsonl").read_text().splitlines()] == [
        False,
        True,
    ]


@pytest.mark.parametrize(
    "args, said",
    [
        (["--score", "14", "--reason", "x"], "outside 0..13"),
        (["--score", "3"], "needs --score and a --reason"),
        (["--remove"], "no override to remove"),
    ],
)
def test_a_wrong_override_changes_nothing(fake, subs, tmp_path, capsys, args, said):
    out = tmp_path / "out"
    fake(subs, out, students=["bob"])
    before = (out / "grades.csv").read_bytes()
    assert override(out, *args) == 2
    assert said in capsys.readouterr().err
    assert (out / "grades.csv").read_bytes() == before and not (out / "overrides.jsonl").exists()
    assert main(["override", str(out), "--student", "eve", "--lesson", "01", "--score", "1", "--reason", "x"]) == 2
    assert "no student 'eve'" in capsys.readouterr().err


def two_lessons(subs):
    """Every student of ``subs`` with lesson 03 too (the stand-in grades whatever it is given)."""
    for student in ("ada", "bob", "cyd"):
        nbformat.write(student_nb(OTHER), str(subs / student / f"{OTHER}.ipynb"))
    return subs


OTHER = "03_int8_quantization"


def rerun(fake, subs, out, settings=None):
    """The stand-in grade() on both lessons; who was graded, as (student, lesson)."""
    from autograder.grader.classroom import classrun as cr

    graded = []
    real = cr._run_pool

    def pool(todo, settings, rec):
        todo = list(todo)  # the jobs are made as they are taken (pool.Feed): once
        graded.extend((j["student"], j["lesson"]["name"]) for j in todo)
        return real(todo, settings, rec)

    cr._run_pool = pool
    try:
        fake.graded.append([])
        classrun.grade(subs, out, settings or Settings(jobs=1), quiet=True, names=[LESSON, OTHER])
    finally:
        cr._run_pool = real
    return sorted(graded)


@pytest.mark.compat  # make compat (CI): a class regraded after each kind of change
def test_a_rerun_regrades_exactly_what_a_change_of_grading_reaches(fake, subs, tmp_path, monkeypatch):
    """Issue 44: the regrade digest holds everything that can change a grade. A rerun with nothing
    changed regrades nothing; another cell timeout, diagnosis switched off, or another grader
    version regrades every row; an edited hidden test of one lesson regrades that lesson's rows
    only; --jobs changes no grade and regrades nothing."""
    from autograder.grader.classroom import gradebook

    out, subs = tmp_path / "out", two_lessons(subs)
    everyone = sorted((s, n) for s in ("ada", "bob", "cyd") for n in (LESSON, OTHER))
    assert rerun(fake, subs, out) == everyone
    assert rerun(fake, subs, out) == [], "nothing changed: nothing regraded"
    assert rerun(fake, subs, out, Settings(jobs=2)) == [], "--jobs decides no grade"
    assert rerun(fake, subs, out, Settings(jobs=1, cell_timeout=60.0)) == everyone, "another --timeout"
    assert rerun(fake, subs, out, Settings(jobs=1, cell_timeout=60.0)) == []
    assert rerun(fake, subs, out, Settings(jobs=1, cell_timeout=60.0, diagnose=False)) == everyone, "--no-diagnose"
    assert rerun(fake, subs, out, Settings(jobs=1, cell_timeout=60.0, diagnose=False)) == []

    real_load = classrun.load_lessons

    def edited(root, names, db):
        lessons = real_load(root, names, db)
        nb = nbformat.reads(lessons[OTHER].source, as_version=4)
        hidden = next(c for c in nb.cells if "BEGIN HIDDEN TESTS" in c.source)
        hidden.source = hidden.source.replace("### END HIDDEN TESTS", "assert True\n### END HIDDEN TESTS")
        return {**lessons, OTHER: dataclasses.replace(lessons[OTHER], source=nbformat.writes(nb))}

    monkeypatch.setattr(classrun, "load_lessons", edited)
    settings = Settings(jobs=1, cell_timeout=60.0, diagnose=False)
    assert rerun(fake, subs, out, settings) == [(s, OTHER) for s in ("ada", "bob", "cyd")], "one hidden test edited"
    assert rerun(fake, subs, out, settings) == []
    monkeypatch.setattr(gradebook, "grader_version", lambda: "a fixed grader")
    assert rerun(fake, subs, out, settings) == everyone, "the grader's code changed"
