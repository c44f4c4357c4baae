"""No surprise at grading: which mistakes a visible check shows before the hidden tests charge them.

    python -m autograder.chip.hardware surprises [--emulated OUT/outcomes.json]

From each lesson's chip record (solutions/NN/chip/outcomes.json, measured on a TPU v5e) and the
library (solutions/NN/mistakes.py): for every mistake whose hidden check fails on the chip, whether
its exercise's visible check failed there too; for the library's TPU-only mistakes (``"only_under":
"tpu"``) one row each, with the visible verdict a student's CPU gives under the emulation where an
``hardware compare --setup student --visible-only`` report is given. docs/GRADING.md ("No surprise
at grading") holds its output; tests/test_chip_verdicts.py keeps that table equal to the records and
lesson.toml's ``[chip.hidden_only]`` and ``[chip.surprises]`` exact. Only the standard library.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..common import lessonfolder
from ..common.notebooks import ROOT, lessons

VERDICT = {"failed": "caught", "passed": "**passes**", None: "not measured"}


def charged(lesson: str, root: Path = ROOT) -> list[dict]:
    """The lesson's library mistakes whose hidden check failed on the chip, each {key, function, id,
    name, only_under, visible}: visible is the chip's verdict on the exercise's visible check
    ("failed", "passed"; None where the check changed since it was recorded)."""
    from ..common.mistakes import load

    rec = lessonfolder.chip_record(lesson, root)
    if rec is None:
        return []
    changed = set(lessonfolder.settings(lesson, root).changed_since_recorded)
    library = {m.key: m for m in load(lesson, root)}
    rows = []
    for o in rec["outcomes"]:
        m = library.get(o["key"])
        if o["kind"] != "mistake" or m is None or m.only_under == "cpu":
            continue
        hidden, visible = f"test_{m.function}_hidden", f"test_{m.function}_visible"
        if o["checks"].get(hidden) != "failed":
            continue
        seen = None if visible in changed else o["checks"].get(visible)
        rows.append(
            {
                "key": m.key,
                "function": m.function,
                "id": m.id,
                "name": m.name,
                "only_under": m.only_under,
                "visible": seen,
            }
        )
    return rows


def emulated_visible(report: Path | None) -> dict[str, str]:
    """{answer key: visible verdict} from a ``hardware compare --visible-only`` OUT/outcomes.json."""
    if report is None:
        return {}
    data = json.loads(Path(report).read_text(encoding="utf-8"))
    found = {}
    for outcomes in data["outcomes"].values():
        for o in outcomes:
            function = o["key"].split(":")[1]
            found[o["key"]] = o["checks"].get(f"test_{function}_visible")
    return found


def table(root: Path = ROOT, emulated: dict[str, str] | None = None) -> str:
    """The markdown docs/GRADING.md shows: per lesson, how many charged mistakes the visible checks
    catch on the chip; then every TPU-only mistake, on the chip and under the emulation."""
    emulated = emulated or {}
    out = [
        "| lesson | mistakes the hidden tests charge on the chip | caught by the visible check there"
        " | visible check changed since (not yet measured there)"
        " | only a hidden input shows (`hidden_only`) | not yet caught (`surprises`) |",
        "|---|---|---|---|---|---|",
    ]
    tpu_rows = []
    for lesson in lessons(root):
        rows = charged(lesson, root)
        if not rows:
            continue
        notes = lessonfolder.settings(lesson, root)
        caught, pending = sum(r["visible"] == "failed" for r in rows), sum(r["visible"] is None for r in rows)
        counts = f"{len(rows)} | {caught} | {pending} | {len(notes.hidden_only)} | {len(notes.surprises)}"
        out.append(f"| {lesson} | {counts} |")
        tpu_rows += [(lesson, r) for r in rows if r["only_under"] == "tpu"]
    out += [
        "",
        "| lesson | exercise | TPU-only mistake | visible check on the chip (recorded)"
        " | visible check on a CPU (emulated) |",
        "|---|---|---|---|---|",
    ]
    for lesson, r in tpu_rows:
        here = VERDICT.get(emulated.get(r["key"]), "not measured")
        out.append(
            f"| {lesson[:2]} | `{r['function']}` | `{r['id']}`: {r['name']} | {VERDICT[r['visible']]} | {here} |"
        )
    return "\n".join(out) + "\n"


def add_command(sub) -> None:
    s = sub.add_parser("surprises", help="docs/GRADING.md's table: which charged mistakes the visible checks catch")
    s.add_argument("--emulated", type=Path, help="a `compare --setup student --visible-only` OUT/outcomes.json")


def command(args) -> int:
    print(table(emulated=emulated_visible(args.emulated)), end="")
    return 0
