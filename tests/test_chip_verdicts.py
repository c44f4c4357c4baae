"""The chip's verdicts on every known answer, held to the library and the alternatives.

Each lesson's chip/outcomes.json (solutions/NN/chip/) was recorded on a TPU v5e by ``python -m
autograder.chip.hardware outcomes --record``: every wrong answer of solutions/NN/mistakes.py and
every correct one of solutions/NN/alternatives.py swapped into its solution's run, its exercise's
checks run again, with the digest of the code measured. Here (no chip needed) the record must cover
every known answer as it is now, and say on the chip what the library says: a mistake fails its
hidden check (one marked "only_under": "cpu" passes there), an alternative passes every check.
``make test`` grades the same answers under the TPU emulation and asserts the same
(tests/test_notebooks.py, tests/test_emulation.py), so the emulation's hidden verdicts are the
chip's; ``hardware compare`` sets every check side by side (docs/HARDWARE.md).

A lesson with no record is "not yet recorded on a TPU": graded and tested under the emulation
alone, and said so (README's "Tested on", the class report's header). A lesson that the chip's
course run (tests/data/tpu/hardware.json) ran must have its record.
"""

import json

import pytest

from autograder.chip.outcomes import candidates, course_record
from autograder.common import lessonfolder
from autograder.common.mistakes import load
from conftest import LESSONS, ROOT

RERECORD = "re-record it on a TPU: python -m autograder.chip.hardware outcomes --record (docs/HARDWARE.md)"
RECORDED = [n for n in LESSONS if lessonfolder.chip_record(n) is not None]
NOT_YET = "not yet recorded on a TPU: graded and tested under the emulation alone"


def record(lesson: str) -> dict:
    found = lessonfolder.chip_record(lesson)
    if found is None:
        pytest.skip(f"{lesson}: {NOT_YET}")
    return found


def not_caught_on_the_chip(lesson: str) -> dict[str, str]:
    """The lesson's known mistakes that the chip's run does not catch, with why (lesson.toml)."""
    return {f"{lesson}:{k}": why for k, why in lessonfolder.settings(lesson).not_caught_on_the_chip.items()}


def not_measured(outcome: dict) -> str:
    """Why the chip's machine could not run this answer at all ("" if it could)."""
    errors = " ".join(outcome["errors"].values())
    return "xprof is not installed on the chip's machine" if "No module named 'xprof'" in errors else ""


def test_every_lesson_the_chip_ran_has_its_record():
    """A lesson the chip's course run took (tests/data/tpu/hardware.json) keeps its verdicts: a
    record that goes missing is not a lesson "not yet recorded"."""
    ran = json.loads((ROOT / "tests" / "data" / "tpu" / "hardware.json").read_text())["lessons"]
    missing = [n for n in ran if n in LESSONS and n not in RECORDED]
    assert ran and not missing, f"{missing}: ran on the chip, no chip/outcomes.json"


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_record_covers_every_known_answer_as_it_is_now(lesson):
    rec = record(lesson)
    assert rec["lesson"] == lesson and rec["environment"]["backend"] == "tpu" and not rec["emulated"]
    recorded = {o["key"]: o for o in rec["outcomes"]}
    missing, stale = [], []
    for c in candidates(lesson):
        if c["key"] not in recorded:
            missing.append(c["key"])
        elif recorded[c["key"]]["source_sha"] != c["source_sha"]:
            stale.append(c["key"])
    assert not missing and not stale, f"not recorded: {missing}; code changed since: {stale}; {RERECORD}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_on_the_chip_mistakes_fail_and_alternatives_pass(lesson):
    library = {m.key: m for m in load(lesson)}
    excused = not_caught_on_the_chip(lesson)
    wrong = []
    for o in record(lesson)["outcomes"]:
        if not_measured(o) or o["key"] in excused:
            continue
        function = o["key"].split(":")[1]
        hidden = o["checks"].get(f"test_{function}_hidden")
        if o["kind"] == "alternative":
            if set(o["checks"].values()) != {"passed"}:
                wrong.append(f"{o['key']}: an alternative the chip fails: {o['errors']}")
        elif library[o["key"]].only_under == "cpu":
            if hidden != "passed":
                wrong.append(f"{o['key']}: only a CPU should catch it, the chip did")
        elif hidden != "failed":
            wrong.append(f"{o['key']}: the chip did not catch it")
    assert not wrong, wrong


@pytest.mark.parametrize("lesson", LESSONS)
def test_what_the_chip_did_not_catch_is_named_and_still_true(lesson):
    """lesson.toml's chip notes name answers of the library and stay true of the record: the
    mistakes the chip's run did not catch passed its hidden check there."""
    notes = lessonfolder.settings(lesson)
    keys = {m.key for m in load(lesson)}
    named = {f"{lesson}:{k}" for k in [*notes.not_caught_on_the_chip, *notes.trace_differs]}
    assert named <= keys, sorted(named - keys)
    if not notes.not_caught_on_the_chip:
        return
    recorded = {o["key"]: o for o in record(lesson)["outcomes"]}
    for key in not_caught_on_the_chip(lesson):
        function = key.split(":")[1]
        assert recorded[key]["checks"][f"test_{function}_hidden"] == "passed", key


def visible_surprises(lesson: str) -> tuple[set[str], set[str]]:
    """The library's mistakes whose hidden check failed on the chip while their visible check passed
    there (a surprise at grading), and those not decidable from the record: their visible check
    changed since it was recorded (lesson.toml's changed_since_recorded) or not measured there."""
    library = {m.key: m for m in load(lesson)}
    changed = set(lessonfolder.settings(lesson).changed_since_recorded)
    surprises, undecided = set(), set()
    for o in record(lesson)["outcomes"]:
        if o["kind"] != "mistake" or o["key"] not in library or library[o["key"]].only_under == "cpu":
            continue
        function = o["key"].split(":")[1]
        hidden, visible = f"test_{function}_hidden", f"test_{function}_visible"
        if o["checks"].get(hidden) != "failed":
            continue
        if visible in changed or not_measured(o) or visible not in o["checks"]:
            undecided.add(o["key"])
        elif o["checks"][visible] == "passed":
            surprises.add(o["key"])
    return surprises, undecided


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_surprise_at_grading_every_mistake_the_chip_charges_fails_its_visible_check(lesson):
    """Issue 64: a mistake that loses its hidden points on the chip fails its visible check there
    too, but those lesson.toml names: [chip.hidden_only] (only a hidden input shows it, and the
    exercise's text says which) and [chip.surprises] (the visible check does not catch it yet: an
    open gap, listed in docs/GRADING.md). Both lists stay exact: a name whose visible check now
    fails on the chip must leave them."""
    notes = lessonfolder.settings(lesson)
    surprises, undecided = visible_surprises(lesson)
    named = {f"{lesson}:{k}" for k in [*notes.hidden_only, *notes.surprises]}
    assert not set(notes.hidden_only) & set(notes.surprises), "a mistake is named twice"
    unnamed = sorted(surprises - named)
    stale = sorted(named - surprises - undecided)
    assert not unnamed, f"visible checks that pass these mistakes the chip's hidden tests charge: {unnamed}"
    assert not stale, f"named in lesson.toml but caught by the visible check on the chip (or no mistake): {stale}"


def test_gradings_table_of_surprises_is_the_records():
    """docs/GRADING.md's "No surprise at grading" tables are `hardware surprises`' rendering of the
    chip records and lesson.toml's lists; its emulated column equals the chip's, as the compat test
    (every visible check under the emulation on a student's CPU) proves of the emulation."""
    from autograder.chip.surprises import charged, table

    doc = (ROOT / "docs" / "GRADING.md").read_text(encoding="utf-8")
    shown = doc.split("<!-- surprises:begin -->\n", 1)[1].split("<!-- surprises:end -->", 1)[0]
    as_chip = {r["key"]: r["visible"] for lesson in RECORDED for r in charged(lesson)}
    want = table(emulated=as_chip).splitlines()
    got = shown.splitlines()
    assert len(got) == len(want), "regenerate: python -m autograder.chip.hardware surprises --emulated ..."
    for g, w in zip(got, want):  # a check changed since the record: its emulated verdict is the doc's
        same = g == w or (w.endswith("| not measured | not measured |") and g.rsplit("|", 2)[0] == w.rsplit("|", 2)[0])
        assert same, f"regenerate (python -m autograder.chip.hardware surprises --emulated ...): {g!r} != {w!r}"


def test_what_the_chip_did_not_measure_is_named():
    """The answers not measured are those that import xprof (4 of 406), which the chip's machine lacked."""
    recorded = {o["key"]: o for n in RECORDED for o in record(n)["outcomes"]}
    sources = {c["key"]: c["source"] for lesson in LESSONS for c in candidates(lesson)}
    unmeasured = [k for k, o in recorded.items() if not_measured(o)]
    assert len(unmeasured) <= 4 and all("xprof" in sources[k] for k in unmeasured), unmeasured


# Issue 60 (4): the visible checks give the chip's verdict on a student's CPU.


def trace_differs(lesson: str) -> set[str]:
    """Visible checks that read a trace's device planes, which a CPU's trace lacks (lesson.toml)."""
    return {f"{lesson}:{k}" for k in lessonfolder.settings(lesson).trace_differs}


def current_checks() -> dict:
    """Each lesson's test cells' digests now."""
    from autograder.chip.outcomes import source_sha
    from autograder.common.notebooks import cell_grade_id
    from conftest import source_nb

    return {
        lesson: {cell_grade_id(c): source_sha(c.source) for c in source_nb(lesson).cells if c.cell_type == "code"}
        for lesson in LESSONS
    }


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_record_knows_which_check_each_verdict_was_measured_on(lesson):
    """Every verdict keeps its check's digest; the checks (visible or hidden) that changed since are
    exactly those lesson.toml names (a check changed again, or re-recorded, changes this test)."""
    now, changed = current_checks()[lesson], set()
    for o in record(lesson)["outcomes"]:
        assert set(o["tests_sha"]) == set(o["checks"]), o["key"]
        changed |= {g for g, sha in o["tests_sha"].items() if now.get(g) != sha}
    assert changed == set(lessonfolder.settings(lesson).changed_since_recorded), changed


@pytest.mark.compat  # make compat (CI): every known answer's visible check, as a student's CPU runs it (70 s)
def test_the_visible_checks_give_the_chips_verdict_on_a_students_cpu(tmp_path):
    """Each recorded lesson run as a student's CPU runtime runs it (its setup cell starts the
    emulation, fetched as on Colab), every known answer swapped in and its visible check run again:
    the verdict is the chip's, for every check the chip measured as it is now, but the trace reads
    of lesson.toml's trace_differs."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "autograder.chip.hardware", "compare"]  # the lessons' own records
    cmd += ["--setup", "student", "--visible-only", "--out", str(tmp_path)]
    cmd += ["--lessons", ",".join(RECORDED)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1500)
    here = json.loads((tmp_path / "outcomes.json").read_text())
    assert here["emulated"] == "tpu", "the setup cells did not start the emulation"
    assert all(s["ok"] for s in here["solutions"].values()), here["solutions"]
    now, differ, compared, exempt_but_equal = current_checks(), [], 0, []
    for lesson, recorded in course_record()["outcomes"].items():
        mine = {o["key"]: o for o in here["outcomes"][lesson]}
        for o in recorded:
            for check, verdict in o["checks"].items():
                if not check.endswith("_visible") or o["tests_sha"][check] != now[lesson][check]:
                    continue
                if not_measured(o):
                    continue
                if o["key"] in trace_differs(lesson):  # an exemption holds only while the verdicts differ
                    if mine[o["key"]]["checks"][check] == verdict:
                        exempt_but_equal.append(f"{o['key']} {check}")
                    continue
                compared += 1
                if mine[o["key"]]["checks"][check] != verdict:
                    differ.append(
                        f"{o['key']} {check}: chip {verdict}, a student's CPU {mine[o['key']]['checks'][check]}"
                    )
    print(proc.stdout[-2000:])
    assert compared > 300 and differ == [], differ
    assert exempt_but_equal == [], f"lesson.toml's trace_differs names answers whose verdicts agree: {exempt_but_equal}"


# Issue 64: the answers written apart from the library (solutions/NN/heldout.py, independent/), on
# the chip: chip/answers.json, recorded by `hardware outcomes --sets heldout,independent,choices --record`.

SETS = ("heldout", "independent", "choices")
ANSWERS_RERECORD = (
    "re-record on a TPU: python -m autograder.chip.hardware outcomes --sets heldout,independent,choices --record"
)


def answers(lesson: str) -> dict:
    from autograder.chip.answer_sets import answer_record

    found = answer_record(lesson)
    if found is None:
        pytest.skip(f"{lesson}: its held-out and independent answers are {NOT_YET}")
    return found


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_chips_record_of_the_answers_written_apart_is_current(lesson):
    """chip/answers.json holds every held-out and independent answer as its code is now, measured on
    a TPU's own arithmetic, each check's digest the current check's or one lesson.toml names as
    changed since (changed_since_recorded)."""
    rec = answers(lesson)
    assert rec["lesson"] == lesson and rec["environment"]["backend"] == "tpu" and not rec["emulated"]
    now = {c["key"] for c in candidates(lesson, sets=SETS)}
    got = {o["key"] for o in rec["outcomes"]}
    assert now == got, f"not recorded: {sorted(now - got)}; gone: {sorted(got - now)}; {ANSWERS_RERECORD}"
    checks, changed = current_checks()[lesson], set(lessonfolder.settings(lesson).changed_since_recorded)
    stale = {g for o in rec["outcomes"] for g, sha in o["tests_sha"].items() if checks.get(g) != sha}
    assert stale <= changed, f"changed since the chip measured them: {sorted(stale - changed)}; {ANSWERS_RERECORD}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_chip_accepts_every_answer_written_as_correct_and_differs_only_where_named(lesson):
    """Every answer its writer meant correct passed every check on the chip (the compat test below
    holds the grader on a CPU to the same verdicts), and lesson.toml's answers_differ names answers
    of the record."""
    rec = answers(lesson)
    rejected = [
        f"{o['key']}: {o['errors']}"
        for o in rec["outcomes"]
        if o["kind"] == "independent-correct" and set(o["checks"].values()) != {"passed"} and not not_measured(o)
    ]
    assert not rejected, rejected
    keys = {o["key"].split(":", 1)[1] for o in rec["outcomes"]}
    unknown = set(lessonfolder.settings(lesson).answers_differ) - keys
    assert not unknown, f"lesson.toml's answers_differ names no recorded answer: {sorted(unknown)}"


@pytest.mark.compat  # make compat (CI): every held-out and independent answer's visible check again
def test_the_grader_on_a_cpu_gives_the_chips_verdicts_on_the_answers_written_apart(tmp_path):
    """The answers no author of the library wrote (a blind writer's 44 correct and 252 wrong ones,
    the developers' 53 held-out wrong ones), graded on a CPU under the emulation as the grader starts
    it: every visible check, and the hidden checks of every answer the chip accepted, give the
    chip's verdict (chip/answers.json), for every check the chip measured as it is now, but those
    lesson.toml's answers_differ names while they differ. So no answer the chip accepts is rejected
    on a CPU, and no mistake whose visible check fails on the chip passes it here. (The hidden checks
    of the answers the chip charged agreed too when measured, 2026-12-07: docs/GRADING.md; they are
    left out here for CI's time.)"""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "autograder.chip.hardware", "compare", "--sets", ",".join(SETS), "--accepted"]
    proc = subprocess.run([*cmd, "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=1500)
    here = json.loads((tmp_path / "outcomes.json").read_text())
    assert here["emulated"] == "tpu", proc.stderr[-2000:]
    now, differ, exempt_but_equal, compared = current_checks(), [], [], 0
    for lesson in LESSONS:
        excused = {f"{lesson}:{k}" for k in lessonfolder.settings(lesson).answers_differ}
        mine = {o["key"]: o for o in here["outcomes"].get(lesson, [])}
        for o in answers(lesson)["outcomes"]:
            if not_measured(o):
                continue
            ran = mine[o["key"]]["checks"]
            same = all(ran[g] == v for g, v in o["checks"].items() if o["tests_sha"][g] == now[lesson][g] and g in ran)
            if set(o["checks"].values()) == {"passed"}:  # accepted on the chip: its hidden check ran here too
                assert set(o["checks"]) <= set(ran), (o["key"], ran)
            if o["key"] in excused:
                exempt_but_equal += [o["key"]] if same else []
                continue
            compared += 1
            if not same:
                differ.append(f"{o['key']} ({o['kind']}): chip {o['checks']}, a CPU {mine[o['key']]['checks']}")
    assert compared > 300 and differ == [], differ
    assert exempt_but_equal == [], f"answers_differ names answers whose verdicts agree: {exempt_but_equal}"
