"""The grading plan of one submission, made from notebooks read as data (no code runs here).

Two sides get code, in notebook order:
- the STUDENT process (sandboxed): the lesson's setup cell, the instructor cells' definitions, and
  the student's answer cells (and cells they added) reduced to definitions;
- the trusted CHECKER: the same setup and instructor definitions, then the test cells, taken
  from the SOURCE notebook (hidden tests included), never from the submission. In the checker
  each exercise's function (the ``contract``) is a stand-in that calls the student's process.

Each of the student's cells is parsed once (``studentcode.parse_cell``, bounded there) and read
for its definitions and for attacks from that one tree, which is dropped before the next cell is
parsed: a plan costs one parse of the submission's code (at most MAX_CODE_CHARS, submissions.py)
and holds one cell's tree at a time.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from ...common.notebooks import cell_grade_id, is_hidden, is_test, points
from .attacks import attacks_in
from ..core.studentcode import Protected, UnreadableCode, definitions_of, definitions_only, parse_cell, wire_size
from ...common.textsafe import printable
from ..core.settings import MAX_KEPT_CODE_BYTES, NAMED_IN_A_NOTE
from .submissions import tampering


@dataclass
class TestStep:
    __test__ = False  # not a pytest test class
    grade_id: str
    points: float
    hidden: bool
    doc: str
    source: str


@dataclass
class Plan:
    setup: str  # the lesson's first code cell, run on both sides
    student_cells: list[tuple[str, str]]  # (label, code) for the student process, in order
    checker_cells: list[tuple[str, str]]  # the instructor's definitions, for the checker
    tests: list[TestStep]
    contract: list[str]  # the exercises' function names
    edits: list[str] = field(default_factory=list)  # test cells the submission changed
    attacks: list[str] = field(default_factory=list)  # code aimed at the grader
    notes: list[str] = field(default_factory=list)  # for the student's feedback


def docstring(source: str) -> str:
    """The first paragraph of a test cell's docstring (what the check is about), on one line: a
    sentence wrapped over several lines is kept whole."""
    try:
        doc = ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        m = re.match(r'\s*"""(.*?)(?:"""|\n)', source, re.S)
        doc = m.group(1) if m else ""
    paragraph = doc.strip().split("\n\n")[0]
    return " ".join(paragraph.split())


def run_order(tests: list[TestStep]) -> list[int]:
    """The order the checker runs the tests in (indices into ``tests``): every visible test, then
    every hidden one, each in notebook order. One student process answers them all; a hidden
    test's inputs reach it only after the last visible test, whose messages (expected against
    what came back) are the only ones a student reads, so no answer can echo a hidden input there.
    Records and feedback stay in notebook order."""
    return [i for i, t in enumerate(tests) if not t.hidden] + [i for i, t in enumerate(tests) if t.hidden]


def graded_steps(source_nb) -> list[TestStep]:
    return [
        TestStep(cell_grade_id(c), points(c), is_hidden(c.source), docstring(c.source), c.source)
        for c in source_nb.cells
        if c.cell_type == "code" and is_test(c)
    ]


def contract_names(source_nb) -> list[str]:
    """Functions the answer cells of the source notebook define (top-level ``def``s)."""
    names = []
    for cell in source_nb.cells:
        if cell.cell_type == "code" and cell_grade_id(cell).startswith("answer_"):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            names += [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return names


def _student_cells(submitted_nb, release_nbs) -> tuple[dict, dict]:
    """({answer grade_id: source}, {answer grade_id: [sources of cells added before it]})."""
    release_code = {c.source.strip() for nb in release_nbs for c in nb.cells if c.cell_type == "code"}
    release_ids = {c.get("id") for nb in release_nbs for c in nb.cells if c.get("id")}
    answers, extras, pending = {}, {}, []
    for cell in submitted_nb.cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = str(cell.get("source", ""))
        gid = cell_grade_id(cell)
        if gid.startswith("answer_") and gid not in answers:
            answers[gid] = source
            extras[gid], pending = pending, []
        elif not gid and source.strip() and source.strip() not in release_code and not _released_id(cell, release_ids):
            pending.append(source)
    return answers, {**extras, "_after_last": pending}


def _released_id(cell, release_ids: set) -> bool:
    """Whether a submitted cell carries the id of a release's cell (an id is any JSON there: a
    list is no id, and no crash)."""
    cell_id = cell.get("id")
    return isinstance(cell_id, str) and cell_id in release_ids


@dataclass(frozen=True)
class CellReading:
    """What the plan takes from one of the student's cells (its tree is not kept)."""

    problem: str | None  # why it does not parse, or why it parses but cannot run (``written``), or None
    attacks: tuple[str, ...] = ()
    code: str = ""  # its definitions (definitions_of)
    dropped: int = 0
    refused: tuple[str, ...] = ()
    written: bool = False  # it parses, but cannot be written back as code to run (UnreadableCode)


def read_cells(sources: list[str], protected: Protected) -> dict[str, CellReading]:
    """{source: its reading} for each distinct source, parsed once, one tree alive at a time."""
    readings = {}
    for src in sources:
        if src not in readings:
            tree, problem = parse_cell(src)
            if tree is None:
                readings[src] = CellReading(problem)
            else:
                attacks = tuple(attacks_in(tree, protected))
                try:
                    code, dropped, refused = definitions_of(tree, protected)
                    readings[src] = CellReading(None, attacks, code, dropped, tuple(refused))
                except UnreadableCode as exc:  # the student's code, so the student's row: a reason, no crash
                    readings[src] = CellReading(str(exc), attacks, written=True)
            del tree
    return readings


def build_plan(source_nb, release_nb, submitted_nb, committed_nb=None) -> Plan:
    releases = [release_nb] + ([committed_nb] if committed_nb is not None else [])
    edits = tampering(submitted_nb, release_nb, *releases[1:])
    answers, extras = _student_cells(submitted_nb, releases)
    answer_ids = [cell_grade_id(c) for c in source_nb.cells if cell_grade_id(c).startswith("answer_")]
    after_last = len(extras["_after_last"])  # cells added after the last answer: with it, named so
    if after_last and answer_ids:
        extras.setdefault(answer_ids[-1], []).extend(extras["_after_last"])
    release_answers = {cell_grade_id(c): c.source for c in release_nb.cells if cell_grade_id(c).startswith("answer_")}

    instructor = [
        c.source
        for c in source_nb.cells
        if c.cell_type == "code" and not cell_grade_id(c).startswith("answer_") and not is_test(c)
    ]
    protected = Protected(instructor)
    student_sources = list(answers.values()) + [s for gid, v in extras.items() if gid != "_after_last" for s in v]
    unanswered = [release_answers.get(gid, "") for gid in answer_ids if gid not in answers]
    readings = read_cells(student_sources + unanswered, protected)
    plan = Plan(
        setup="",
        student_cells=[],
        checker_cells=[],
        tests=graded_steps(source_nb),
        contract=contract_names(source_nb),
        edits=edits,
        attacks=sorted({a for src in student_sources for a in readings[src].attacks}),
    )

    dropped, refused, unparsed = 0, [], 0
    kept, over = 0, 0  # the student's code kept to run, as the wire carries it; cells past MAX_KEPT_CODE_BYTES
    code_cells = [c for c in source_nb.cells if c.cell_type == "code"]
    for cell in code_cells:
        gid = cell_grade_id(cell)
        if cell is code_cells[0]:
            plan.setup = cell.source
        elif is_test(cell):
            continue
        elif gid.startswith("answer_"):
            mine = extras.get(gid, [])
            last = after_last if gid == answer_ids[-1] else 0
            where = ["before"] * (len(mine) - last) + ["after"] * last
            sources = [(f"cell added {w} {gid}", s) for w, s in zip(where, mine)]
            if gid not in answers:
                plan.notes.append(f"answer cell {gid} is missing: graded as the unanswered stub")
            sources.append((gid, answers.get(gid, release_answers.get(gid, ""))))
            for label, src in sources:
                reading = readings[src]
                if reading.problem:
                    unparsed += 1
                    if unparsed <= NAMED_IN_A_NOTE:
                        how = "did not run when grading" if reading.written else "does not parse"
                        plan.notes.append(f"{label} {how} ({reading.problem}): nothing in it was defined")
                    continue
                if reading.code.strip() and kept + wire_size(reading.code) > MAX_KEPT_CODE_BYTES:
                    over += 1  # the student's bytes: this cell's note, never a frame the wire refuses
                    if over <= NAMED_IN_A_NOTE:
                        plan.notes.append(
                            f"{label} did not run when grading: with the cells before it, the code to run "
                            f"is over {MAX_KEPT_CODE_BYTES // 2**20} MiB"
                        )
                    continue
                dropped, refused = dropped + reading.dropped, refused + list(reading.refused)
                if reading.code.strip():
                    kept += wire_size(reading.code)
                    plan.student_cells.append((label, reading.code))
        else:  # an instructor cell: its definitions, none of its demo computations
            code, _, _ = definitions_only(cell.source, calls=False)
            if code.strip():
                label = gid or f"lesson cell {code_cells.index(cell)}"
                plan.student_cells.append((label, code))
                plan.checker_cells.append((label, code))
    if unparsed > NAMED_IN_A_NOTE:
        plan.notes.append(f"{unparsed - NAMED_IN_A_NOTE} more cells do not parse: nothing in them was defined")
    if over > NAMED_IN_A_NOTE:
        plan.notes.append(f"{over - NAMED_IN_A_NOTE} more cells did not run when grading: the code was too large")
    if refused:
        plan.notes.append(
            "not run when grading, since they would replace a builtin or a name the "
            "notebook itself defines (tests rely on those): "
            + ", ".join(printable(n, 60) for n in sorted(set(refused)))
        )
    if dropped:
        plan.notes.append(
            f"{dropped} top-level statement(s) in your cells did not run when grading: "
            "only imports, def/class statements and simple constants do (the exercises "
            "are functions)"
        )
    return plan
