"""Replays' outcomes kept across one worker's checkers (autograder/grader/diagnosis/replayed.py): the store's
bounds, what a checker takes from it and gives back, and, graded for real, a second student with a
failed visible check whose diagnosis replays nothing the first one's did, naming the same mistake."""

import json

import nbformat
import numpy as np
import pytest

from autograder.grader.core import events
from autograder.grader.diagnosis import replayed
from autograder.grader.core.settings import SHARED_OUTCOME_LESSONS
from autograder.grader.diagnosis.diagnose import Diagnoser
from autograder.grader.diagnosis.recording import Recorder, plain_copy
from autograder.grader.core.wire import Decoder, Encoder
from autograder.common.mistakes import load
from autograder.common.notebooks import fill_answers
from conftest import ROOT, grading_lesson, source_nb, student_nb

REFERENCE = "import numpy as np\n\ndef f(x):\n    return np.asarray(x) * 2\n"
MISTAKES = {
    "triples": "def f(x):\n    return np.asarray(x) * 3\n",
    "raises": "def f(x):\n    raise ValueError('no')\n",
    "halves": "def f(x):\n    return np.asarray(x) / 2\n",
}


def diagnoser(tmp_path, known=None, share=True):
    work = tmp_path / "work"
    work.mkdir(parents=True, exist_ok=True)
    mistakes = [{"key": f"00_l:f:{k}", "function": "f", "source": s} for k, s in MISTAKES.items()]
    return Diagnoser([["reference", REFERENCE]], mistakes, str(work), base={}, known=known, share=share), work


def diagnose(d, work, answer, inputs):
    r = Recorder(d.functions(), str(work), str(work.parent / "inputs"))
    for x in inputs:
        call = r.before("f", (x,), {}, None)
        args = plain_copy((x,))
        r.returned("f", call, answer(*args), args)
    return d.diagnose(r.calls, 60.0)


def counted(d, monkeypatch):
    calls = []
    real = d._call
    monkeypatch.setattr(d, "_call", lambda key, *a: calls.append(key) or real(key, *a))
    return calls


def test_a_checker_takes_the_outcomes_another_computed_instead_of_replaying(tmp_path, monkeypatch):
    inputs = (np.arange(3.0), np.ones(2, np.float32))
    first, work = diagnoser(tmp_path)
    replays = counted(first, monkeypatch)
    assert diagnose(first, work, lambda x: np.asarray(x) * 3, inputs) == ["00_l:f:triples"]
    fresh = first.take_fresh()
    assert first.take_fresh() == [], "each outcome is handed over once"
    # "ok" outcomes only: the mistake that raised stays with its checker
    assert {k for k, _, _ in fresh} == {"reference:f", "00_l:f:triples", "00_l:f:halves"}
    assert "00_l:f:raises" in replays
    assert all(type(Decoder()(v)) is tuple for _, _, v in fresh), "the outcome as it was: (result, arguments)"
    frame = json.loads(json.dumps(events.to_frame(events.Replayed(fresh))))  # as it crosses
    assert events.parse(frame) == events.Replayed(fresh)

    second, work = diagnoser(tmp_path / "second", known=frame["outcomes"])
    replays = counted(second, monkeypatch)
    assert diagnose(second, work, lambda x: np.asarray(x) * 3, inputs) == ["00_l:f:triples"]
    assert replays == ["00_l:f:raises"], "only what was not kept is replayed"
    assert second.take_fresh() == [], "what it took is not handed back again"


def test_a_kept_outcome_is_what_the_diagnosis_believes(tmp_path):
    """Why only a namespaced sandbox shares (replayed.shareable): a kept outcome is taken as the
    replay's. One that says the reference returns the student's result makes the student's answer
    the reference's, and the mistake that is theirs is no longer named; never a point either way."""
    inputs = (np.arange(3.0),)
    honest, work = diagnoser(tmp_path)
    diagnose(honest, work, lambda x: np.asarray(x) * 3, inputs)
    forged = [
        [k, fp, Encoder()((np.arange(3.0) * 3, (np.arange(3.0),)))] if k == "reference:f" else [k, fp, v]
        for k, fp, v in honest.take_fresh()
    ]
    d, work = diagnoser(tmp_path / "forged", known=forged)
    assert diagnose(d, work, lambda x: np.asarray(x) * 3, inputs) == []


def test_the_store_keeps_its_bounds_and_only_outcomes():
    store = replayed.Store(limit=2000)
    entry = lambda i, n: [f"k{i}", f"fp{i}", "x" * n]  # noqa: E731
    assert store.absorb([entry(1, 100), entry(2, 100), ["k", 3, "fp"], "junk", [1, 2, 3], entry(3, 5000)]) == 2
    assert [k for k, _, _ in store.items()] == ["k1", "k2"]
    store.absorb([entry(4, 950), entry(5, 950)])  # over the limit: the least recently kept go
    assert [k for k, _, _ in store.items()] == ["k4", "k5"] and store.size <= 2000
    assert store.absorb("not a list") == 0
    replayed.forget()
    assert replayed.absorb(None, [entry(6, 10)]) == 0 and replayed.known(None) == []
    assert replayed.absorb("scope", [entry(6, 10)]) == 1 and replayed.known("scope") == [entry(6, 10)]
    replayed.forget()
    assert replayed.known("scope") == []


def test_a_jax_array_and_a_numpy_array_are_different_calls():
    """Red team: lesson 06's overwrites-input mistake writes into a NumPy argument and cannot into a
    JAX one, so the arguments after the call differ; a call's fingerprint (the key of every kept
    outcome) tells the kinds apart, and a weakly typed JAX value from a strongly typed one."""
    import jax.numpy as jnp

    from autograder.grader.diagnosis.recording import Call

    key = lambda x: Call((x,), {}, None).key()  # noqa: E731
    values = np.arange(4, dtype=np.float32)
    assert key(values) == key(values.copy())
    assert key(values) != key(jnp.asarray(values))
    assert key(jnp.asarray(2.0)) != key(jnp.asarray(2.0, jnp.float32)), "weak type"


def test_a_worker_keeps_a_bounded_number_of_lessons():
    replayed.forget()
    try:
        for i in range(SHARED_OUTCOME_LESSONS + 3):
            replayed.absorb(f"scope{i}", [["k", "fp", i]])
        assert replayed.known("scope0") == [] and replayed.known("scope2") == []
        assert replayed.known(f"scope{SHARED_OUTCOME_LESSONS + 2}") == [["k", "fp", SHARED_OUTCOME_LESSONS + 2]]
        assert len(replayed._STORES) == SHARED_OUTCOME_LESSONS
    finally:
        replayed.forget()


def test_an_outcome_too_large_to_share_is_not_even_encoded(tmp_path, monkeypatch):
    from autograder.grader.diagnosis import replayed as module

    exchange = module.Exchange([], share=True)
    monkeypatch.setattr(module, "Encoder", lambda: pytest.fail("encoded"))
    exchange.keep("k", "fp", (np.zeros(module.SHARED_OUTCOME_BYTES, np.uint8), ()))
    assert exchange.fresh() == []


def test_the_scope_is_the_lessons_code_and_the_emulation():
    base = ("setup", [["c", "x = 1"]], [["r", "def f(): pass"]], [{"key": "l:f:a", "source": "def f(): 1"}])
    one = replayed.scope(*base, "tpu")
    assert one == replayed.scope(*base, "tpu")
    assert one != replayed.scope(*base, "none")
    assert one != replayed.scope(*base[:3], [{"key": "l:f:a", "source": "def f(): 2"}], "tpu")
    assert one != replayed.scope("setup2", *base[1:], "tpu")


def test_a_second_student_s_visible_check_is_not_replayed_again(tmp_path):
    """Graded for real (lesson 01), two students with the same wrong answer in one worker: the
    first one's checker sends its outcomes, the second one's takes them and computes none of the
    visible check's again; both are named the same mistake. Where the student's process has no
    namespaces (the fallback), nothing is kept."""
    from autograder.grader.notebook.grade import grade_notebook
    from autograder.grader.core.settings import Settings

    lesson = "01_number_formats"
    mistake = next(m for m in load(lesson) if m.id == "truncates")  # its visible check fails too
    nb = fill_answers(student_nb(lesson), source_nb(lesson), {mistake.function: mistake.source})
    the_lesson = grading_lesson(lesson)
    settings = Settings(jobs=1, emulation="none", seed=1)
    replayed.forget()
    sent = {"first": [], "second": []}
    real = replayed.absorb
    named = {}
    try:
        for student in sent:
            replayed.absorb = lambda scope, items, _s=student: sent[_s].extend(items) or real(scope, items)
            r = grade_notebook(student, the_lesson, nbformat.writes(nb).encode(), settings, ROOT)
            named[student] = {t.grade_id: t.mistakes for t in r.tests if t.mistakes}
    finally:
        replayed.absorb = real
        replayed.forget()
    visible = [g for g in named["first"] if g.endswith("_visible")]
    assert visible and all(mistake.key in named["first"][g] for g in visible), named
    assert all(named["second"].get(g) == named["first"][g] for g in visible), named
    if not replayed.shareable():
        assert sent == {"first": [], "second": []}, "nothing is kept without the sandbox's namespaces"
        return
    assert sent["first"], "the first checker sent the outcomes of its visible check's replays"
    # the second student's visible check makes the same calls: it takes them all and computes
    # none again; its hidden check's calls draw from its own seed, so it sends those to nobody
    assert sent["second"] == [], [k for k, _, _ in sent["second"]]


@pytest.mark.parametrize("shares", ["outcomes", "programs", "nothing"])
def test_a_checker_whose_student_is_not_namespaced_stops_when_its_worker_shares(monkeypatch, shares):
    """Red team: the worker decides to share from its own probe of bubblewrap; a checker whose
    probe then fails (a timeout under load) would run the student in the fallback, able to reach
    the event pipe whose outcomes the worker keeps, or the folder of compiled replays (native code
    the next checkers run), and even sharing nothing it would grade one notebook in the weaker
    sandbox without a word (issue 42's red team). Its launch fails instead: the grader's fault (Ready.grader_fault, no
    grade), never a shared outcome or program and never a zero."""
    from types import SimpleNamespace

    from autograder.grader.checker import main as checker
    from autograder.grader.diagnosis import plugin

    launched = SimpleNamespace(namespaced=False, shown=lambda: [])
    monkeypatch.setattr(checker.sandbox, "prepare", lambda *a: launched)
    job = SimpleNamespace(job_dir="/nonexistent", repository="/nonexistent", namespaced=shares == "nothing", reading="")
    observer = plugin.Diagnosis.__new__(plugin.Diagnosis)  # its payload's switches, without a diagnoser
    observer.share = shares == "outcomes"
    observer.compiled = "/nonexistent/compiled" if shares == "programs" else ""
    fake = SimpleNamespace(job=job, workdir="/nonexistent/w", limits=None, inputs="/nonexistent/i", observer=observer)
    fake.settings = SimpleNamespace(emulation="none")
    with pytest.raises(OSError, match="bubblewrap"):
        checker.Checker._launch(fake)
    observer.share, observer.compiled, job.namespaced = False, "", False
    assert checker.Checker._launch(fake) is launched, "a worker in the fallback: its checkers too"


def test_a_folder_of_compiled_replays_that_the_student_is_shown_stops_the_checker(monkeypatch, tmp_path):
    """Red team: the folder of compiled replays must be none the student's process can see or
    write (a TMPDIR inside the Python installation, say, which the sandbox binds): a checker whose
    job names such a folder stops as the grader's fault instead of loading programs from it."""
    from types import SimpleNamespace

    from autograder.grader.checker import main as checker
    from autograder.grader.diagnosis import plugin

    shown = tmp_path / "venv"
    launched = SimpleNamespace(namespaced=True, shown=lambda: [str(shown), "/usr"])
    monkeypatch.setattr(checker.sandbox, "prepare", lambda *a: launched)
    job = SimpleNamespace(job_dir="/nonexistent", repository="/nonexistent", namespaced=True, reading="")
    observer = plugin.Diagnosis.__new__(plugin.Diagnosis)  # its payload's switches, without a diagnoser
    observer.share, observer.compiled = True, str(shown / "tmp" / "compiled")
    fake = SimpleNamespace(job=job, workdir="/nonexistent/w", limits=None, inputs="/nonexistent/i", observer=observer)
    fake.settings = SimpleNamespace(emulation="none")
    with pytest.raises(OSError, match="shown"):
        checker.Checker._launch(fake)
    observer.compiled = str(tmp_path / "venv-other" / "compiled")  # a sibling whose name starts the same
    assert checker.Checker._launch(fake) is launched
