"""Re-measure on the chip only what changed since each lesson's record, and merge it in.

    python -m autograder.chip.hardware outcomes --changed [--lessons 02,05]

A lesson's record (solutions/NN/chip/outcomes.json) keeps, per known answer, each check's verdict
with the digest of the check's code. When a visible check is rewritten (lesson.toml's
``changed_since_recorded`` names it) or an answer is added or changed, only those verdicts are stale:
this runs the lesson's solution once, then just those checks for the answers they concern (every
check of a new or changed answer), and writes the record back with the old verdicts kept, the new
ones in their place, answers no longer known left out, and the update listed under ``updates``
(date, commit, checks, answers). A lesson with nothing stale is not run. On a TPU only, like
``outcomes --record``; lesson.toml's ``changed_since_recorded`` is then to be emptied by hand
(tests/test_chip_verdicts.py says which).
"""

from __future__ import annotations

import datetime
import json
import time
from pathlib import Path

from ..common import lessonfolder
from ..common.notebooks import ROOT, lessons


def stale_checks(lesson: str, root: Path = ROOT) -> dict[str, list[str]]:
    """{answer key: the grade ids of its checks to measure again} for the lesson's known answers."""
    from .outcomes import candidates

    rec = lessonfolder.chip_record(lesson, root) or {"outcomes": []}
    changed = set(lessonfolder.settings(lesson, root).changed_since_recorded)
    recorded = {o["key"]: o for o in rec["outcomes"]}
    found = {}
    for c in candidates(lesson, root):
        own = [f"test_{c['function']}_{kind}" for kind in ("visible", "hidden")]
        old = recorded.get(c["key"])
        if old is None or old["source_sha"] != c["source_sha"]:
            found[c["key"]] = own
        elif stale := [g for g in own if g in changed]:
            found[c["key"]] = stale
    return found


def merged(rec: dict, fresh: list[dict], keys: set[str], update: dict) -> dict:
    """The record with ``fresh`` verdicts in place of the old ones, only answers in ``keys`` kept."""
    by_key = {o["key"]: o for o in rec.get("outcomes", [])}
    for o in fresh:
        old = by_key.get(o["key"])
        if old is None or old["source_sha"] != o["source_sha"]:
            by_key[o["key"]] = o
            continue
        for g, verdict in o["checks"].items():
            old["checks"][g] = verdict
            old["tests_sha"][g] = o["tests_sha"][g]
            old["errors"].pop(g, None)
            if g in o["errors"]:
                old["errors"][g] = o["errors"][g]
    kept = [o for k, o in by_key.items() if k in keys]
    return {**rec, "outcomes": kept, "updates": [*rec.get("updates", []), update]}


def rerecord(names: list[str], root: Path = ROOT) -> int:
    """Each lesson of ``names`` with stale verdicts: its solution run once, the stale checks run on
    the chip, the record merged and written back. Exit status 2 where this is no TPU."""
    import jax

    from .cellrunner import run_notebook
    from .outcomes import CELL_TIMEOUT, candidates, check_outcomes, emulating, head_commit

    if jax.default_backend() != "tpu" or emulating():
        print("outcomes --changed: this is no TPU's own arithmetic: nothing recorded")
        return 2
    for name in names:
        stale = stale_checks(name, root)
        if not stale:
            print(f"{name}: nothing stale", flush=True)
            continue
        start = time.perf_counter()
        run = run_notebook(root / "solutions" / name / f"{name}.ipynb", CELL_TIMEOUT)
        fresh = check_outcomes(name, run, root, select=lambda c: stale.get(c["key"], []))
        checks = sorted({g for gs in stale.values() for g in gs})
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        update = {"date": now, "commit": head_commit(), "checks": checks, "answers": len(fresh)}
        rec = lessonfolder.chip_record(name, root) or {"lesson": name, "outcomes": []}
        keys = {c["key"] for c in candidates(name, root)}
        path = lessonfolder.companion(name, lessonfolder.CHIP_RECORD, root)
        path.write_text(json.dumps(merged(rec, fresh, keys, update), indent=1) + "\n")
        print(f"{name}: {len(fresh)} answers, checks {checks}, {time.perf_counter() - start:.0f} s: {path}", flush=True)
    return 0


def command(args) -> int:
    """``hardware outcomes``: the lessons named (numbers or names; all by default), the answers of
    ``--sets``, or with ``--changed`` only what changed since the record (rerecord.py)."""
    from .outcomes import compare_here, outcomes

    wanted, sets = [x for x in args.lessons.split(",") if x], tuple(args.sets.split(","))
    if args.command == "compare":
        return compare_here(args.record, args.out, wanted, args.setup, args.visible_only, sets, args.accepted)
    names = [n for n in lessons() if not wanted or any(w in (n, n.split("_", 1)[0]) for w in wanted)]
    if args.changed:
        return rerecord(names)
    return outcomes(args.out, names=names, record=args.record, sets=sets)
