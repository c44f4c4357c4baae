"""Every known answer's per-check outcomes on this machine: the chip's verdicts beside the emulation's.

    python -m autograder.chip.hardware outcomes --out DIR [--lessons 05,06] [--record]   # DIR/outcomes.json

For every solution notebook (run once, in this process, by cellrunner) each known answer of its
lesson (the library's wrong answers, solutions/NN/mistakes.py, and other people's correct ones,
solutions/NN/alternatives.py) is swapped into the finished run and its exercise's own visible and
hidden test cells run again. On a TPU the record of each lesson is its folder's chip/outcomes.json
(``--record`` writes it there; a lesson without one is not yet recorded on a TPU); on a CPU under
``COURSE_EMULATE=tpu`` the same command gives the emulation's outcomes, and
``python -m autograder.chip.hardware compare`` sets the two side by side (docs/HARDWARE.md). Also: a
small warmed XProf trace of this backend (``hardware trace``), which lesson 04 carries from a TPU.
Only stdlib, NumPy and JAX.
"""

from __future__ import annotations

import datetime
import json
import os
import time
from pathlib import Path

from .answer_sets import CHIP_ANSWERS, LIBRARY, answer_record, answers, source_sha
from .cellrunner import NotebookRun, grade_id, read_notebook, run_notebook, swapped
from .other_reading import grade_again
from ..common import lessonfolder
from ..common.notebooks import ROOT, lessons

CELL_TIMEOUT = 600


def candidates(lesson: str, root: Path = ROOT, sets: tuple[str, ...] = (LIBRARY,)) -> list[dict]:
    """Every known answer of a lesson: the library's wrong answers (solutions/NN/mistakes.py) and
    other people's correct ones (solutions/NN/alternatives.py), each {kind, key, function, source,
    source_sha}. A mistake's key is its library key; an alternative's names its source's digest, so
    that a recorded verdict stays with the code it was measured on (source_sha tells a stale one).
    ``sets``: also (or instead) the held-out and independent answers (answer_sets.py)."""
    import ast

    from ..common.mistakes import load

    found = [a for name in sets if name != LIBRARY for a in answers(lesson, name, root)]
    if LIBRARY in sets:
        mistakes = load(lesson, root)
        found += [{"kind": "mistake", "key": m.key, "function": m.function, "source": m.source} for m in mistakes]
    path = lessonfolder.companion(lesson, lessonfolder.ALTERNATIVES_FILE, root)
    if LIBRARY in sets and path.is_file():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["ALTERNATIVES"]:
                for alt in ast.literal_eval(node.value):
                    key = f"{lesson}:{alt['function']}:alternative-{source_sha(alt['source'])[:10]}"
                    found.append(
                        {"kind": "alternative", "key": key, "function": alt["function"], "source": alt["source"]}
                    )
    return [{**c, "source_sha": source_sha(c["source"])} for c in found]


def check_outcomes(
    lesson: str,
    run: NotebookRun,
    root: Path = ROOT,
    echo=None,
    kinds: tuple[str, ...] = ("visible", "hidden"),
    select=None,
    sets: tuple[str, ...] = (LIBRARY,),
) -> list[dict]:
    """Each known answer (``candidates``) swapped into the finished solution run, then its
    exercise's own visible and hidden test cells run again: the per-check outcome ("passed" or
    "failed"), which the same command gives on the chip and under the emulation on a CPU
    (docs/HARDWARE.md, "Verdicts on the chip and under the emulation"). ``select``: a function of
    an answer giving the grade ids of the checks to run (none: the answer is left out)."""
    nb_cells = read_notebook(run.path)["cells"]
    by_id = {grade_id(c): (i, c) for i, c in enumerate(nb_cells) if c.get("cell_type") == "code"}
    results = []
    for cand in candidates(lesson, root, sets):
        own = select(cand) if select else [f"test_{cand['function']}_{kind}" for kind in kinds]
        if not own:
            continue
        tests = [(by_id[g][0], g, by_id[g][1]["source"]) for g in own if g in by_id]
        start = time.perf_counter()
        noted = []
        ran = swapped(run, cand["source"], tests, CELL_TIMEOUT, noted)
        results.append(
            {
                "key": cand["key"],
                "kind": cand["kind"],
                "source_sha": cand["source_sha"],
                "answer_error": f"{ran[0].ename}: {ran[0].evalue[:200]}" if ran[0].ename else "",
                "checks": {r.grade_id: "failed" if r.ename else "passed" for r in ran[1:]},
                # the checks' own code, digested: a verdict stays with the test it was measured on
                "tests_sha": {g: source_sha(source) for _, g, source in tests},
                "errors": {r.grade_id: f"{r.ename}: {r.evalue[:300]}" for r in ran[1:] if r.ename},
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
        if noted[0]:  # the chip's choices the emulation met: graded again the other way (other_reading.py)
            results[-1]["choices"] = noted[0]
        if echo:
            echo(f"  {cand['key']}: {results[-1]['checks']} {results[-1]['seconds']} s")
    return results


def outcomes(
    out: Path,
    root: Path = ROOT,
    names: list[str] | None = None,
    kinds: tuple[str, ...] = ("visible", "hidden"),
    record: bool = False,
    sets: tuple[str, ...] = (LIBRARY,),
    select=None,
) -> int:
    """Every solution notebook of ``names`` (default: all), then every known answer's per-check
    outcomes (``check_outcomes``, the checks of ``kinds``, or those ``select`` gives):
    OUT/outcomes.json, rewritten after every lesson. ``record``: each lesson's part also written into
    its folder (``lesson_record``), which only a TPU's own arithmetic may do."""
    if record and (os.environ.get("COURSE_EMULATE") or os.environ.get("COURSE_EMULATED_PRECISION")):
        print("outcomes --record: the emulation is on; a lesson's record is the chip's own (unset COURSE_EMULATE)")
        return 2
    from .golden import environment

    out.mkdir(parents=True, exist_ok=True)
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": {},
        "emulated": os.environ.get("COURSE_EMULATED_PRECISION", ""),
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "solutions": {},
        "outcomes": {},
    }
    for name in names or lessons(root):
        start = time.perf_counter()
        nb_run = run_notebook(root / "solutions" / name / f"{name}.ipynb", CELL_TIMEOUT)
        if not report["environment"]:  # after the first setup cell: asking opens JAX's backends
            report["environment"] = environment()
            report["emulated"] = report["emulated"] or ("tpu" if emulating() else "")
        errors = [f"{c.grade_id or c.index}: {c.ename}: {c.evalue[:200]}" for c in nb_run.cells if c.ename]
        report["solutions"][name] = {"ok": not errors, "errors": errors, "seconds": nb_run.seconds}
        echo = lambda line: print(line, flush=True)  # noqa: E731
        report["outcomes"][name] = check_outcomes(name, nb_run, root, echo=echo, kinds=kinds, select=select, sets=sets)
        grade_again(name, report["outcomes"][name], sets, echo)  # as the grader does, under the emulation
        print(f"{name}: {len(report['outcomes'][name])} answers in {time.perf_counter() - start:.0f} s", flush=True)
        (out / "outcomes.json").write_text(json.dumps(report, indent=1) + "\n")
        if record:
            if report["environment"].get("backend") != "tpu" or report["emulated"]:
                print(f"outcomes --record: this is no TPU ({report['environment'].get('backend')}): nothing recorded")
                return 2
            path = lessonfolder.companion(name, lessonfolder.CHIP_RECORD if LIBRARY in sets else CHIP_ANSWERS, root)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(lesson_record(report, name), indent=1) + "\n")
            print(f"{name}: recorded on this {report['environment'].get('device_kind')}: {path}", flush=True)
    return 0


def lesson_record(report: dict, lesson: str, recorded_at: str = "", recorded_with: str = "") -> dict:
    """One lesson's part of an ``outcomes`` report, as its folder keeps it (chip/outcomes.json)."""
    return {
        "lesson": lesson,
        "date": report["date"],
        "recorded_at": recorded_at or head_commit(),
        "recorded_with": recorded_with or ",".join(n[:2] for n in report["outcomes"]),
        "environment": report["environment"],
        "emulated": report["emulated"],
        "xla_flags": report["xla_flags"],
        "solution": report["solutions"][lesson],
        "outcomes": report["outcomes"][lesson],
    }


def course_record(root: Path = ROOT, names: list[str] | None = None, sets: tuple[str, ...] = (LIBRARY,)) -> dict:
    """The lessons' records (chip/outcomes.json; chip/answers.json for the other ``sets``) as one
    ``outcomes`` report ({"outcomes": {lesson: [...]}, "solutions": ..., "dates": ...}): the lessons
    not yet recorded on a TPU are left out."""
    merged: dict = {"outcomes": {}, "solutions": {}, "dates": {}, "environments": {}}
    for name in names or lessons(root):
        rec = lessonfolder.chip_record(name, root) if LIBRARY in sets else answer_record(name, root)
        if rec is not None:
            merged["outcomes"][name] = rec["outcomes"]
            merged["solutions"][name] = rec["solution"]
            merged["dates"][name] = rec["date"]
            merged["environments"][name] = rec["environment"]
    return merged


def head_commit() -> str:
    import subprocess

    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def emulating() -> bool:
    """Whether the TPU emulation is hooked into this process (a setup cell may have started it)."""
    try:
        from jax._src.interpreters import mlir

        return getattr(mlir.lower_jaxpr_to_module, "__name__", "") == "lower_as_the_chip"
    except ImportError:
        return False


def record_trace(out: Path, steps: int = 2) -> dict:
    """A small warmed XProf trace of this backend (a jitted 256x256 bf16 matmul, ``steps`` steps,
    each a StepTraceAnnotation "train"), its newest xplane file copied to
    OUT/<backend>_trace.xplane.pb: lesson 04 carries one from a TPU so that a student on a CPU can
    try the device planes of their code."""
    import shutil
    import tempfile

    import jax
    import jax.numpy as jnp

    step = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16) * 0.5)
    x = jnp.ones((256, 256), jnp.bfloat16)
    jax.block_until_ready(step(x))
    with tempfile.TemporaryDirectory() as tmp:
        with jax.profiler.trace(tmp):
            for i in range(steps):
                with jax.profiler.StepTraceAnnotation("train", step_num=i):
                    x = jax.block_until_ready(step(x))
        newest = max(Path(tmp).rglob("*.xplane.pb"), key=lambda p: p.stat().st_mtime)
        out.mkdir(parents=True, exist_ok=True)
        target = out / f"{jax.default_backend()}_trace.xplane.pb"
        shutil.copyfile(newest, target)
    return {"file": str(target), "bytes": target.stat().st_size, "device_kind": jax.devices()[0].device_kind}


def device_only_mutants(lesson: str, run: NotebookRun, backend: str, root: Path = ROOT) -> list[dict]:
    """Each wrong answer marked ``"only_under"``, swapped into the finished solution run (its
    namespace), then the exercise's own visible and hidden test cells run again; the namespace is
    put back after each. Caught: its hidden test failed. On a TPU, a "tpu" one must be caught and a
    "cpu" one (a plain CPU's mistake that the chip computes right) must not."""
    from ..common.mistakes import load

    mutants = [m for m in load(lesson, root) if m.only_under]
    if not mutants:
        return []
    nb_cells = read_notebook(run.path)["cells"]
    by_id = {grade_id(c): (i, c) for i, c in enumerate(nb_cells) if c.get("cell_type") == "code"}
    results = []
    for m in mutants:
        own = [f"test_{m.function}_visible", f"test_{m.function}_hidden"]
        tests = [(by_id[g][0], g, by_id[g][1]["source"]) for g in own if g in by_id]
        start = time.perf_counter()
        ran = swapped(run, m.source, tests, CELL_TIMEOUT)
        failed = [r for r in ran[1:] if r.ename]
        results.append(
            {
                "key": m.key,
                "function": m.function,
                "why": m.why,
                "only_under": m.only_under,
                "answer_error": f"{ran[0].ename}: {ran[0].evalue[:200]}" if ran[0].ename else "",
                "failed_tests": [r.grade_id for r in failed],
                "errors": [f"{r.grade_id}: {r.ename}: {r.evalue[:200]} ({r.line})" for r in failed],
                "caught": f"test_{m.function}_hidden" in [r.grade_id for r in failed] and not ran[0].ename,
                "must_be_caught": m.only_under == backend,
                "must_pass": m.only_under == "cpu" and backend == "tpu",
                "hidden_test_found": f"test_{m.function}_hidden" in by_id,
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    return results


def compare(chip: dict, here: dict) -> tuple[list[str], str]:
    """The chip's record beside this machine's (both ``outcomes`` reports): the answers whose
    per-check outcomes differ (with both), and a markdown table, one row a lesson."""
    differ, rows = [], ["| lesson | answers | checks | equal | differ |", "|---|---|---|---|---|"]
    for lesson, recorded in chip["outcomes"].items():
        mine = {o["key"]: o for o in here["outcomes"].get(lesson, [])}
        answers = checks = equal = 0
        for o in recorded:
            if o["key"] not in mine:
                continue
            answers += 1
            for check, verdict in o["checks"].items():
                if check not in mine[o["key"]]["checks"]:  # not run here (compare_here's ``accepted``)
                    continue
                checks += 1
                if mine[o["key"]]["checks"].get(check) == verdict:
                    equal += 1
                else:
                    differ.append(f"{o['key']} {check}: chip {verdict}, here {mine[o['key']]['checks'].get(check)}")
        rows.append(f"| {lesson} | {answers} | {checks} | {equal} | {checks - equal} |")
    return differ, "\n".join(rows) + "\n"


def compare_here(
    record: Path | None,
    out: Path,
    wanted: list[str],
    setup: str = "grader",
    visible_only: bool = False,
    sets: tuple[str, ...] = (LIBRARY,),
    accepted: bool = False,
) -> int:
    """``hardware compare``: every known answer's outcomes under the TPU emulation in this process,
    beside the chip's ``record`` (an ``outcomes`` report; None: the lessons' own records,
    ``course_record``): OUT/outcomes.json, OUT/compare.md; exit status 1 if any check
    differs. ``setup`` "grader": the emulation started here, as the grader starts it, before JAX
    opens its CPU backend; "student": as a student's CPU runtime gets it, from each lesson's setup
    cell (CHIP = "v5e", the course's module fetched as on Colab: COURSE_EMULATION_URL), nothing set
    here. ``visible_only``: the visible checks alone (what a student sees before submitting).
    ``sets``: the answers of those sets (answer_sets.py) beside the lessons' chip/answers.json.
    ``accepted``: every visible check, and the hidden ones only of the answers the chip accepted."""
    if setup == "student":
        os.environ.pop("COURSE_EMULATE", None)
        os.environ.setdefault("COURSE_EMULATION_URL", (ROOT / "notebooks" / "tpu_emulation.py").as_uri())
    else:
        from .emulation import source

        os.environ["COURSE_EMULATE"] = "tpu"
        exec(compile(source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
    chip = json.loads(Path(record).read_text()) if record else course_record(sets=sets)
    names = [n for n in chip["outcomes"] if not wanted or any(w in (n, n.split("_", 1)[0]) for w in wanted)]
    kinds = ("visible",) if visible_only else ("visible", "hidden")
    passed = {o["key"] for n in names for o in chip["outcomes"][n] if set(o["checks"].values()) == {"passed"}}
    own = lambda c: [f"test_{c['function']}_{k}" for k in kinds if k == "visible" or c["key"] in passed]  # noqa: E731
    outcomes(out, names=names, kinds=kinds, sets=sets, select=own if accepted else None)
    here = json.loads((out / "outcomes.json").read_text())
    recorded = {
        n: [
            {**o, "checks": {c: v for c, v in o["checks"].items() if c.rsplit("_", 1)[-1] in kinds}}
            for o in chip["outcomes"][n]
        ]
        for n in names
    }
    differ, table = compare({"outcomes": recorded}, here)
    (out / "compare.md").write_text(table + "".join(f"- {d}\n" for d in differ))
    print(table + "\n".join(differ))
    return 1 if differ else 0
