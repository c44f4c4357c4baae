"""The class report (autograder/report/): its numbers are those of grades.csv and tests.csv,
every string from a submission is shown as text, the LMS exports round-trip, and the page renders
with every figure in headless Chromium (screenshots under build/report/).

No kernels run here: the OUT folders are the example class's real grading output
(tests/data/report/example_class/, from `python -m autograder grade examples/submissions`) and
classes generated below by writing results.json, grades.csv and tests.csv directly.
"""

import csv
import html
import io
import json
import random
import shutil
import statistics
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder import report as rep
from autograder.report import POINTS_ROW, build_report, main, safe_csv_cell, write_exports, write_safe_csv
from autograder.grader.notebook.verdict import HIDDEN_FAILED
from conftest import ROOT

DATA = ROOT / "tests" / "data" / "report"
SHOTS = ROOT / "build" / "report"
HOSTILE = [
    "<img src=x onerror=alert(1)>",
    '=HYPERLINK("http://evil.example","click")',
    "+1+2",
    "@SUM(A1)",
    "-2+3",
    "tab\there",
    "&amp; <b>bold</b>",
]


# ---------------------------------------------------------------------------------------------
# OUT folders
# ---------------------------------------------------------------------------------------------


def example_out(tmp_path: Path) -> Path:
    """The example class's real OUT/ (4 students, 6 lessons), feedback pages as the grader makes."""
    out = tmp_path / "example"
    shutil.copytree(DATA / "example_class", out)
    for r in json.loads((out / "results.json").read_text()):
        if r["status"] != "missing":
            page = out / "feedback" / r["student"] / f"{r['lesson']}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text("<!doctype html><title>feedback</title>")
    return out


LESSONS = {  # lesson: [(exercise, visible points, hidden points)]
    "01_alpha": [("round_it", 1, 3), ("sum_it", 1, 2), ("table", 1, 2)],
    "02_beta": [("policies", 1, 3), ("curve", 1, 2)],
    "03_gamma": [("quantize", 1, 2), ("matmul", 1, 2), ("errors", 1, 2), ("scale", 1, 1)],
}
MESSAGES = [
    "reference at DEFAULT precision: error {} too large",
    "compile time leaked into the timing ({} ms)",
    "scale of an all-zero column must be 1.0, got {}",
]


def generated_out(
    tmp_path: Path,
    n: int = 60,
    names: list[str] | None = None,
    seed: int = 0,
    run: dict | None = None,
    hostile_text: str = "",
) -> Path:
    """A class of n students written as the grader writes OUT/ (CSV cells through safe_csv_cell):
    every status, hidden failures with instructor-only messages, timings, and feedback pages."""
    rng = random.Random(seed)
    out = tmp_path / f"class{n}-{seed}"
    out.mkdir()
    names = names or [f"s{i:03d}" for i in range(1, n + 1)]
    results = []
    for student in names:
        skill = rng.random()
        for lesson, exercises in LESSONS.items():
            status = rng.choices(["ok", "timeout", "error", "tampered", "missing"], [40, 2, 2, 1, 3])[0]
            r = {
                "student": student,
                "lesson": lesson,
                "score": 0.0,
                "status": status,
                "detail": "",
                "tests": [],
                "notes": [],
                "seconds": round(rng.uniform(2, 30), 2),
                "digest": "ab:tpu",
                "max_score": float(sum(v + h for _, v, h in exercises)),
            }
            if status == "missing":
                r["seconds"] = 0.0
                results.append(r)
                continue
            r["detail"] = {
                "ok": "",
                "timeout": "timed out in a cell",
                "error": "kernel died " + hostile_text,
                "tampered": "deleted test_x_hidden " + hostile_text,
            }[status]
            r["notes"] = [f"note about {hostile_text}"] if hostile_text else []
            for ex, vis, hid in exercises:
                for kind, pts in (("visible", vis), ("hidden", hid)):
                    t = {
                        "grade_id": f"test_{ex}_{kind}",
                        "max_score": float(pts),
                        "hidden": kind == "hidden",
                        "doc": f"{kind.capitalize()} check of {ex} {hostile_text}",
                        "error": "",
                        "message": "",
                    }
                    roll = rng.random()
                    t["outcome"] = "passed"
                    if status == "tampered":
                        t["error"], t["outcome"] = "no points: code aimed at the grader", "voided"
                    elif status in ("timeout", "error") and roll < 0.3:  # failures that judge no answer
                        t["outcome"] = {"timeout": "timed out", "error": rng.choice(["limit reached", "process died"])}[
                            status
                        ]
                        t["error"] = HIDDEN_FAILED if kind == "hidden" else t["outcome"]
                        t["message"] = "StudentDied: the student's process died" if status == "error" else ""
                    elif roll < 0.08:
                        t["error"], t["outcome"] = "NotImplementedError", "unanswered"
                    elif roll < 0.08 + 0.5 * (1 - skill):
                        t["outcome"] = "wrong"
                        msg = rng.choice(MESSAGES).format(round(rng.uniform(0, 9), 3)) + hostile_text
                        t["message"] = "AssertionError: " + msg
                        t["error"] = (
                            "AssertionError (the hidden test's details are not shown)"
                            if kind == "hidden"
                            else "AssertionError: " + msg
                        )
                    t["score"] = 0.0 if t["error"] else float(pts)
                    r["tests"].append(t)
            r["score"] = sum(t["score"] for t in r["tests"])
            results.append(r)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    write_safe_csv(
        out / "grades.csv",
        [["student", "lesson", "score", "max_score", "status"]]
        + [[r["student"], r["lesson"], f"{r['score']:g}", f"{r['max_score']:g}", r["status"]] for r in results],
    )
    write_safe_csv(
        out / "tests.csv",
        [["student", "lesson", "grade_id", "score", "max_score", "outcome"]]
        + [
            [r["student"], r["lesson"], t["grade_id"], f"{t['score']:g}", f"{t['max_score']:g}", t["outcome"]]
            for r in results
            for t in r["tests"]
        ],
    )
    for r in results:
        if r["status"] != "missing":
            page = out / "feedback" / r["student"] / f"{r['lesson']}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text("<!doctype html><title>feedback</title>")
    if run is not None:
        (out / "run.json").write_text(json.dumps(run))
    return out


# ---------------------------------------------------------------------------------------------
# Reading the page back
# ---------------------------------------------------------------------------------------------


class Tables(HTMLParser):
    """{table id or class: [{"lesson", "check", "status", key: text}]} from the data-k cells."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.row, self.key, self.text = {}, None, None, None, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id") or a.get("class")
            self.tables.setdefault(self.table, [])
        elif tag == "tr" and self.table:
            self.row = {k[5:]: v for k, v in a.items() if k.startswith("data-")}
        elif tag == "td" and "data-k" in a:
            self.key, self.text = a["data-k"], ""

    def handle_data(self, data):
        if self.key:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "td" and self.key:
            self.row[self.key] = self.text.strip()
            self.key = None
        elif tag == "tr" and self.row is not None:
            if len(self.row) > 1:
                self.tables[self.table].append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None


def tables(page: str) -> dict:
    p = Tables()
    p.feed(page)
    return p.tables


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def number(text: str) -> float | None:
    return None if text in ("–", "\u2013") else float(text.replace("%", "").strip())


def assert_numbers_match_csvs(out: Path, page: str) -> None:
    """Every number of the lesson and check tables, recomputed from grades.csv and tests.csv."""
    grades, tests = read_csv(out / "grades.csv"), read_csv(out / "tests.csv")
    t = tables(page)
    lessons = sorted({g["lesson"] for g in grades})
    assert [r["lesson"] for r in t["lessons"]] == lessons
    for row in t["lessons"]:
        mine = [g for g in grades if g["lesson"] == row["lesson"]]
        scores = [float(g["score"]) for g in mine if g["status"] != "missing"]
        assert number(row["students"]) == len(mine)
        assert number(row["submitted"]) == len(scores)
        assert number(row["mean"]) == pytest.approx(statistics.fmean(scores), abs=0.005)
        assert number(row["median"]) == statistics.median(scores)
        assert number(row["min"]) == min(scores) and number(row["max"]) == max(scores)
        assert number(row["max_score"]) == max(float(g["max_score"]) for g in mine)
        for s in ("ok", "timeout", "error", "tampered", "missing"):
            assert number(row[s]) == sum(g["status"] == s for g in mine), (row["lesson"], s)
    checks = {(r["lesson"], r["check"]): r for r in t["checks"]}
    expected = {(x["lesson"], x["grade_id"]) for x in tests}
    assert set(checks) == expected
    for (lesson, gid), row in checks.items():
        mine = [x for x in tests if x["lesson"] == lesson and x["grade_id"] == gid]
        passed = sum(float(x["score"]) >= float(x["max_score"]) for x in mine)
        assert number(row["n"]) == len(mine) and number(row["passed"]) == passed, (lesson, gid)
        assert number(row["share"]) == pytest.approx(100 * passed / len(mine), abs=0.5)
        assert number(row["lost"]) == sum(float(x["max_score"]) - float(x["score"]) for x in mine)
        if "outcome" in mine[0]:  # points lost to wrong answers: only the checks the grader judged wrong
            wrong = sum(float(x["max_score"]) - float(x["score"]) for x in mine if x["outcome"] == "wrong")
            assert number(row["lost_wrong"]) == wrong, (lesson, gid)
    for row in t.get("ranked", []):  # the ranking agrees with the per-check table
        assert number(row["lost"]) == number(checks[(row["lesson"], row["check"])]["lost"])
        assert number(row["lost_wrong"]) == number(checks[(row["lesson"], row["check"])]["lost_wrong"]) > 0
    ranked = [number(r["lost_wrong"]) for r in t.get("ranked", [])]
    assert ranked == sorted(ranked, reverse=True)
    human = [g for g in grades if g["status"] != "ok"]
    assert len(t.get("needs-human", [])) == len(human)


# ---------------------------------------------------------------------------------------------
# The numbers
# ---------------------------------------------------------------------------------------------


def test_example_class_numbers_equal_the_csvs(tmp_path):
    out = example_out(tmp_path)
    path = build_report(out)
    assert path == out / "report.html"
    page = path.read_text()
    assert_numbers_match_csvs(out, page)
    assert 'id="problems"' not in page and "id=problems" not in page  # the files agree
    # What an instructor reads first: the check that cost most to wrong answers, its docstring.
    # cy lost 4 points to wrong answers in lesson 02's policies (visible and hidden), 3 in each of
    # three other exercises (ties: the earlier lesson first)
    reteach = page.split("<ol id=reteach>")[1].split("</ol>")[0]
    assert [x.split("</code>")[0] for x in reteach.split("<li><code>")[1:]] == [
        "evaluate_precision_policies",
        "format_table",
        "quantize_per_channel",
    ]
    assert (
        "evaluate_precision_policies</code> in 02_matmul_accumulation: 4 points lost to wrong answers, "
        "1 of 4 students" in reteach
    )
    # The rows that need a human: eve's three kinds, cy's missing lesson, and what was found.
    rows = tables(page)["needs-human"]
    assert sorted(r["status"] for r in rows) == ["error", "error", "missing"] + ["tampered"] * 4
    assert "deleted test_accumulation_error_curve_hidden" in page
    assert 'href="feedback/cy/01_number_formats.html"' in page
    assert "not recorded" in page  # this OUT folder has no run.json


def test_generated_class_of_60_numbers_equal_the_csvs(tmp_path):
    run = {
        "date": "2026-12-02T10:00:00Z",
        "course_commit": "0ecc4a6",
        "emulation": "tpu",
        "seed": 1234,
        "versions": {"jax": "0.10.2", "jaxlib": "0.10.2", "nbgrader": "0.9.6", "python": "3.11.2"},
        "limits": {"cell_timeout_s": 120, "notebook_timeout_s": 900, "memory_gib": 4},
    }
    out = generated_out(tmp_path, 60, run=run)
    page = build_report(out).read_text()
    assert_numbers_match_csvs(out, page)
    assert "id=problems" not in page
    # Hidden messages are grouped (numbers masked) and counted; the group counts add up.
    results = json.loads((out / "results.json").read_text())
    wrong = [
        t
        for r in results
        for t in r["tests"]
        if t["outcome"] == "wrong" and r["lesson"] == "01_alpha" and t["grade_id"] == "test_round_it_hidden"
    ]
    counts = [
        int(c)
        for c in __import__("re").findall(
            r"<li><b>(\d+)&times;</b> <span class=msg>",
            page.split('data-check="test_round_it_hidden"')[1].split("</tr>")[0],
        )
    ]
    assert sum(counts) == len(wrong) and len(counts) <= len(MESSAGES)
    # Provenance, every field.
    prov = page.split("id=provenance>")[1].split("</table>")[0]
    for value in ("2026-12-02T10:00:00Z", "0ecc4a6", "0.10.2", "0.9.6", "3.11.2", "tpu", "1234", "cell_timeout_s"):
        assert value in prov
    assert "not recorded" not in prov


def test_disagreeing_files_are_reported(tmp_path):
    out = example_out(tmp_path)
    rows = read_csv(out / "grades.csv")
    rows[0]["score"] = "12"  # grades.csv no longer agrees with results.json and tests.csv
    write_safe_csv(out / "grades.csv", [list(rows[0])] + [list(r.values()) for r in rows])
    page = build_report(out).read_text()
    assert "id=problems" in page and "ada/01_number_formats: grades.csv says 12 ok, results.json says 13 ok" in page
    assert "ada/01_number_formats: tests.csv sums to 13, grades.csv says 12" in page
    assert number(tables(page)["lessons"][0]["max"]) == 12  # the numbers shown are grades.csv's


# ---------------------------------------------------------------------------------------------
# Strings from submissions are text
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("  =1", "'  =1"),
        ("\t=1", "'\\t=1"),
        ("\r=1", "'\\r=1"),
        ("a\nb", "a\\nb"),
        ("bell\x07", "bell\\x07"),
        ("rtl\u202eoverride", "rtl\\u202eoverride"),
        ("-5", "-5"),
        ("-0.25", "-0.25"),
        ("1e-3", "1e-3"),
        ("-", "-"),
        (13.0, "13"),
        (2.5, "2.5"),
        (7, "7"),
        (None, ""),
        ("ada", "ada"),
        ("Lovelace, Ada", "Lovelace, Ada"),
        ("    Points Possible", "    Points Possible"),
        ("100.00%", "100.00%"),
    ],
)
def test_safe_csv_cell(value, cell):
    assert safe_csv_cell(value) == cell


def test_html_and_formulas_in_names_and_messages_are_text(tmp_path):
    out = generated_out(tmp_path, names=HOSTILE + ["ada"], hostile_text=" <script>alert('x')</script> =2+2", seed=3)
    page = build_report(out).read_text()
    assert "<script" not in page and "onerror=alert(1)>" not in page and "<b>bold</b>" not in page
    assert html.escape("<img src=x onerror=alert(1)>") in page and html.escape("&amp; <b>bold</b>") in page
    assert html.escape("<script>alert('x')</script>") in page
    assert "id=problems" not in page  # names neutralised in the CSVs still join with results.json
    assert_numbers_match_csvs(out, page)
    # Feedback links are percent-encoded paths inside OUT/feedback.
    assert 'href="feedback/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E/01_alpha.html"' in page
    paths = write_exports(out)
    for path in paths:
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))):
            for cell in row:
                assert not cell.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r")) or _is_number(cell), cell
    wide = read_csv(out / "grades_wide.csv")
    assert {r["student"] for r in wide} >= {
        "'" + '=HYPERLINK("http://evil.example","click")',
        "'+1+2",
        "'@SUM(A1)",
        "'-2+3",
        "tab\\there",
        "<img src=x onerror=alert(1)>",
    }


def test_terminal_escapes_and_bidi_overrides_in_messages_are_shown_as_escapes(tmp_path):
    """A message holding an OSC-8 terminal hyperlink (ESC ... BEL) or a right-to-left override reaches
    the page as visible escapes: the instructor's terminal (cat, grep, less -R) and browser show the
    text it holds, not what it would make them show."""
    hostile = " \x1b]8;;http://evil\x07click\x1b]8;;\x07 \u202eevil\r "
    out = generated_out(tmp_path, names=["ada", "bob"], hostile_text=hostile, seed=3)
    page = build_report(out).read_text()
    assert "\\x1b]8;;http://evil\\x07click" in page and "\\u202eevil\\r" in page
    assert not any(c in page for c in "\x1b\x07\u202e\r")


def _is_number(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------------------------


def test_grades_wide_has_a_points_row_and_one_row_per_student(tmp_path):
    out = generated_out(tmp_path, 60, seed=1)
    write_exports(out)
    with open(out / "grades_wide.csv", newline="") as f:
        table = list(csv.reader(f))
    assert table[0] == ["student", *LESSONS, "total"]
    maxes = [sum(v + h for _, v, h in ex) for ex in LESSONS.values()]
    assert table[1] == [POINTS_ROW, *map(str, maxes), str(sum(maxes))]
    grades = read_csv(out / "grades.csv")
    assert [r[0] for r in table[2:]] == sorted({g["student"] for g in grades})
    for row in table[2:]:
        mine = {g["lesson"]: float(g["score"]) for g in grades if g["student"] == row[0]}
        assert [float(x) for x in row[1:-1]] == [mine[n] for n in LESSONS]
        assert float(row[-1]) == sum(mine.values())


def _read_table(path: Path) -> tuple[list[list[str]], bytes]:
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline=""))), raw


@pytest.mark.parametrize(
    "roster, lesson_headers, appended, missing_side",
    [
        (
            "canvas_gradebook.csv",
            {
                "01_number_formats": "01 Number formats (58101)",
                "02_matmul_accumulation": "02 Matmul accumulation (58102)",
                "03_int8_quantization": "Lesson 3: int8 quantization (58103)",
            },
            ["04_xprof_profiling", "05_precision_policy", "06_block_scaled_formats"],
            {"in roster, not graded": 2, "graded, not in roster": 0},
        ),
        (
            "moodle_grades.csv",
            {
                "01_number_formats": "Assignment: 01 Number formats (Real)",
                "04_xprof_profiling": "Assignment: 04 XProf profiling (Real)",
            },
            ["02_matmul_accumulation", "03_int8_quantization", "05_precision_policy", "06_block_scaled_formats"],
            {"in roster, not graded": 1, "graded, not in roster": 1},
        ),
    ],
)
def test_roster_export_round_trips(tmp_path, roster, lesson_headers, appended, missing_side):
    out = example_out(tmp_path)
    paths = write_exports(out, DATA / roster)
    filled_path = out / (Path(roster).stem + "_filled.csv")
    assert filled_path in paths and out / "roster_check.csv" in paths
    original, raw_in = _read_table(DATA / roster)
    filled, raw_out = _read_table(filled_path)
    # The file's own conventions are kept: byte-order mark, line ending.
    assert raw_out.startswith(b"\xef\xbb\xbf") == raw_in.startswith(b"\xef\xbb\xbf")
    assert (b"\r\n" in raw_out) == (b"\r\n" in raw_in)
    header = original[0]
    assert filled[0] == header + appended and len(filled) == len(original)
    cols = {n: header.index(h) for n, h in lesson_headers.items()} | {
        n: len(header) + i for i, n in enumerate(appended)
    }
    grades = {(g["student"], g["lesson"]): g["score"] for g in read_csv(out / "grades.csv")}
    keys = {
        "Lovelace, Ada": "ada",
        "Builder, Bob": "bob",
        "Yang, Cy": "cy",
        "Example, Eve": "eve",
        "Ada": "ada",
        "Bob": "bob",
        "Cy": "cy",
    }
    for before, after in zip(original[1:], filled[1:]):
        # every cell that is not a lesson column is as it was
        assert [c for i, c in enumerate(after) if i not in cols.values()] == [
            c for i, c in enumerate(before) if i not in cols.values()
        ]
        student = keys.get(before[0])
        for lesson, c in cols.items():
            if before[0].strip() == POINTS_ROW:
                expected = (
                    before[c]
                    if c < len(before) and before[c]
                    else max(float(g["max_score"]) for g in read_csv(out / "grades.csv") if g["lesson"] == lesson)
                )
                assert float(after[c]) == float(expected)
            elif student:
                assert after[c] == grades[(student, lesson)], (student, lesson)
            else:  # a roster student who was not graded: untouched
                assert after[c] == (before[c] if c < len(before) else "")
    check = read_csv(out / "roster_check.csv")
    for kind, n in missing_side.items():
        assert sum(r["kind"] == kind for r in check) == n, check
    assert all(r["kind"] != "ambiguous" for r in check)


def test_roster_ambiguity_and_hostile_cells(tmp_path):
    out = example_out(tmp_path)
    roster = tmp_path / "canvas.csv"
    roster.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,01_number_formats\n"
        '"Lovelace, Ada",1,S1,ada,A,\n"Lovelace, Ada",2,S2,ada,B,\n'
        "\"=cmd|' /C calc'!A0\",3,S3,bob,A,\n"
    )
    write_exports(out, roster)
    filled, _ = _read_table(out / "canvas_filled.csv")
    assert filled[1][5] == "" and filled[2][5] == ""  # two rows claim ada: neither is filled
    assert filled[3][0] == "'=cmd|' /C calc'!A0" and filled[3][5] == "0"  # bob, neutralised name kept
    check = read_csv(out / "roster_check.csv")
    assert {(r["kind"], r["student"]) for r in check} >= {
        ("ambiguous", "ada"),
        ("graded, not in roster", "cy"),
        ("graded, not in roster", "eve"),
    }


def test_command_line(tmp_path, capsys):
    out = example_out(tmp_path)
    assert main([str(out), "--roster", str(DATA / "moodle_grades.csv")]) == 0
    said = capsys.readouterr().out
    assert f"Class report: {out / 'report.html'}" in said and "graded, not in roster: eve" in said
    assert (out / "report.html").is_file() and (out / "grades_wide.csv").is_file()
    assert "Roster export: students on one side only" in (out / "report.html").read_text()
    assert main([str(tmp_path / "nowhere")]) == 2
    from autograder.__main__ import main as cli

    assert cli(["report", str(out)]) == 0


# ---------------------------------------------------------------------------------------------
# The page in a browser
# ---------------------------------------------------------------------------------------------

# The lab test's Chromium (Debian's, installed as root when missing; skipped with the reason when
# it cannot be had): the same browser and flags, shared rather than copied.
from test_lab_e2e import browser  # noqa: E402,F401


@pytest.mark.parametrize("which", ["example", "class60", "hostile"])
def test_page_renders_every_figure_in_chromium(tmp_path, browser, which):  # noqa: F811 (the fixture)
    if which == "example":
        out = example_out(tmp_path)
    elif which == "class60":
        out = generated_out(tmp_path, 60)
    else:
        out = generated_out(tmp_path, names=HOSTILE, hostile_text=" <script>alert('x')</script>", seed=3)
    path = build_report(out)
    SHOTS.mkdir(parents=True, exist_ok=True)
    lessons = len({g["lesson"] for g in read_csv(out / "grades.csv")})
    context = browser.new_context(viewport={"width": 1300, "height": 900}, offline=True)
    page = context.new_page()
    requests, dialogs, errors = [], [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        images = page.eval_on_selector_all(
            "img", "els => els.map(e => [e.complete, e.naturalWidth, e.naturalHeight, e.src.slice(0, 22)])"
        )
        # one overview, then per lesson a histogram and a check chart
        assert len(images) == 1 + 2 * lessons, images
        assert all(ok and w > 300 and h > 150 and src == "data:image/png;base64," for ok, w, h, src in images), images
        assert requests == [path.as_uri()], requests  # nothing but the page itself is loaded
        assert dialogs == [] and errors == [], (dialogs, errors)
        text = page.text_content("body")  # folded <details> included
        assert "Re-teach first" in text and "How these grades were made" in text
        if which == "hostile":
            for name in HOSTILE:
                if "\t" not in name:
                    assert name in text, name  # shown literally, as text
            assert page.eval_on_selector_all("script, img:not([src^='data:image/png'])", "els => els.length") == 0
        page.screenshot(path=str(SHOTS / f"{which}.png"), full_page=True)
        page.screenshot(path=str(SHOTS / f"{which}_top.png"))
    finally:
        context.close()


def test_older_or_empty_out_folders_still_give_a_report(tmp_path):
    """No results.json (only the CSVs), no run.json, or nobody graded yet: a page that says so."""
    csvs_only = tmp_path / "csvs"
    csvs_only.mkdir()
    for name in ("grades.csv", "tests.csv"):
        shutil.copy(DATA / "example_class" / name, csvs_only / name)
    page = build_report(csvs_only).read_text()
    assert "results.json is missing" in page and "not recorded" in page
    assert_numbers_match_csvs(csvs_only, page)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "grades.csv").write_text("student,lesson,score,max_score,status\n")
    page = build_report(empty).read_text()
    assert "Class report: 0 students, 0 lessons" in page
    assert [p.name for p in write_exports(empty)] == ["grades_wide.csv"]


def test_names_join_whichever_way_the_grader_neutralised_them(tmp_path):
    """A writer that escapes control characters but prefixes ' only before =, +, - and @ (not after
    spaces or before an escaped tab) still joins grades.csv to results.json."""
    names = [" =1+1", "\t=1", "=x", "bell\x07", "plain"]
    out = generated_out(tmp_path, names=names, seed=5)
    results = json.loads((out / "results.json").read_text())

    def other(text):
        text = text.encode("unicode_escape").decode("ascii") if any(ord(c) < 32 for c in text) else text
        return "'" + text if text[:1] in "=+-@" else text

    for name, columns in (
        ("grades.csv", ["score", "max_score", "status"]),
        ("tests.csv", ["grade_id", "score", "max_score"]),
    ):
        rows = read_csv(out / name)
        raw = {(safe_csv_cell(r["student"]), r["lesson"]): r["student"] for r in results}
        with open(out / name, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["student", "lesson", *columns])
            for r in rows:
                w.writerow([other(raw[(r["student"], r["lesson"])]), r["lesson"], *(r[c] for c in columns)])
    assert read_csv(out / "grades.csv")[0]["student"] != safe_csv_cell(" =1+1")  # written differently
    page = build_report(out).read_text()
    assert "id=problems" not in page, page.split("id=problems")[1][:500]
    assert_numbers_match_csvs(out, page)


def test_the_report_knows_every_status_a_grade_can_have():
    """A grades.csv row's status is one of the grader's graded statuses (grader-error rows are
    never written); the report's list is that list, in that order (its table and figure columns)."""
    from autograder.grader.core.model import GRADED, STATUSES as ALL, Status

    assert rep.STATUSES == GRADED
    assert set(ALL) == set(Status) and "grader-error" in ALL and "grader-error" not in rep.STATUSES


def test_the_example_class_fixture_is_what_todays_grader_writes(tmp_path):
    """tests/data/report/example_class/ is the grader's own output for examples/submissions (its
    three files copied from `python -m autograder grade examples/submissions --out OUT`): every
    results.json row and check has exactly the fields of the grader's model (a field added, renamed
    or dropped fails here until the fixture is regenerated), every check an Outcome that agrees with
    its points, and the CSVs the columns the grader writes today."""
    from dataclasses import fields

    from autograder.grader.core.model import Outcome, Result, Status, TestResult
    from autograder.grader.classroom.outputs import write_outputs

    rows = json.loads((DATA / "example_class" / "results.json").read_text())
    assert rows
    for d in rows:
        assert set(d) == {f.name for f in fields(Result)}, sorted(set(d) ^ {f.name for f in fields(Result)})
        r = Result.from_dict(d)
        assert r.status in Status
        for t in r.tests:
            assert set(vars(t)) == {f.name for f in fields(TestResult)}
            assert (t.outcome == Outcome.PASSED) == (t.score >= t.max_score), (r.student, t.grade_id)
    outcomes = {t.outcome for d in rows for t in Result.from_dict(d).tests}
    assert {Outcome.PASSED, Outcome.WRONG, Outcome.UNANSWERED, Outcome.VOIDED} <= outcomes
    write_outputs(tmp_path, [Result.from_dict(d) for d in rows])
    for name in ("grades.csv", "tests.csv"):
        header = read_csv(tmp_path / name)[0].keys()
        assert list(read_csv(DATA / "example_class" / name)[0].keys()) == list(header), name


def as_before_the_rename(d: dict) -> dict:
    """A results.json row or CSV row as the grader wrote it before issue 44: its lesson under "notebook"."""
    return {("notebook" if k == "lesson" else k): v for k, v in d.items()}


def test_an_out_written_when_the_lesson_was_called_notebook_is_read_the_same(tmp_path):
    """Issue 44 (6): results.json's key and the CSVs' column are "lesson" (they were "notebook"); an
    OUT an earlier grader wrote is still read, each row and problem as from today's files, and
    Result.from_dict reads its old rows."""
    from autograder.grader.core.model import Result

    new, old = tmp_path / "new", tmp_path / "old"
    shutil.copytree(DATA / "example_class", new)
    shutil.copytree(DATA / "example_class", old)
    rows = json.loads((new / "results.json").read_text())
    (old / "results.json").write_text(json.dumps([as_before_the_rename(d) for d in rows], indent=1))
    for name in ("grades.csv", "tests.csv"):
        lines = (new / name).read_text(encoding="utf-8").split("\n", 1)
        assert lines[0].startswith("student,lesson,")
        (old / name).write_text(lines[0].replace(",lesson,", ",notebook,") + "\n" + lines[1], encoding="utf-8")
    assert "notebook" in read_csv(old / "grades.csv")[0] and '"notebook"' in (old / "results.json").read_text()
    before, now = rep.load(old), rep.load(new)
    assert before.rows == now.rows and before.problems == now.problems == []
    assert {r.lesson for r in before.rows} == {d["lesson"] for d in rows}
    assert all(r.checks for r in before.rows if r.status != "missing")
    for d in rows:
        assert Result.from_dict(as_before_the_rename(d)) == Result.from_dict(d)


def test_every_report_module_is_one_small_room():
    """The report is a package read one job at a time: every module of autograder/report/ has a
    docstring saying what it owns, is at most 350 lines, and imports no other module's private
    (underscore) name; its templates ship with it (package data) in a normal install."""
    import ast
    import fnmatch
    import tomllib

    package = ROOT / "autograder" / "report"
    modules = sorted(package.glob("*.py"))
    assert {m.stem for m in modules} >= {"__init__", "load", "stats", "figures", "html", "lms", "cli"}
    for module in [*modules, ROOT / "autograder" / "grader" / "classroom" / "outputs.py"]:
        text = module.read_text()
        tree = ast.parse(text)
        assert ast.get_docstring(tree), f"{module.name}: no docstring saying what it owns"
        assert len(text.splitlines()) <= 350, f"{module.name}: {len(text.splitlines())} lines; split it by job"
        imported_modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    assert not alias.name.startswith("_"), f"{module.name} imports {node.module}.{alias.name}"
                    if node.module is None:  # from . import templating
                        imported_modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                imported_modules |= {(a.asname or a.name).split(".")[0] for a in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                private = node.attr.startswith("_") and not node.attr.startswith("__")
                assert not (private and node.value.id in imported_modules), (
                    f"{module.name}: {node.value.id}.{node.attr}"
                )
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {"autograder", "autograder.grader", "autograder.report"} <= set(setuptools["packages"])
    templates = sorted((package.parent / "common" / "templates").iterdir())  # the pages' (common/templating.py)
    assert templates
    for template in templates:
        patterns = setuptools["package-data"]["autograder.common"]
        assert any(fnmatch.fnmatch(f"templates/{template.name}", p) for p in patterns), template.name


def test_the_grader_and_report_out_give_the_same_page(tmp_path):
    """``grade`` builds the report from the results it holds (load.from_results), ``report OUT``
    from the files it wrote (load.load, every cross-check): for the same class, the same page and
    the same wide CSV, whether the names needed neutralising in the CSVs or not."""
    import re

    from autograder.grader.core.model import Result
    from autograder.grader.classroom.outputs import write_outputs
    from autograder.report import from_results, load, render

    run = {"date": "2026-12-02T10:00:00Z", "emulation": "tpu", "seed": 7, "versions": {"jax": "0.12.0.1"}}
    classes = [
        generated_out(tmp_path, 30, run=run),
        generated_out(tmp_path, names=HOSTILE + ["ada"], hostile_text=" <script>alert('x')</script> =2+2", seed=3),
    ]
    outs = [example_out(tmp_path)]  # the grader's own OUT/ for examples/submissions, as it is
    for i, generated in enumerate(classes):  # the generated classes, written as the grader writes them
        out = tmp_path / f"written{i}"
        write_outputs(out, [Result.from_dict(d) for d in json.loads((generated / "results.json").read_text())])
        if (generated / "run.json").is_file():
            shutil.copy(generated / "run.json", out / "run.json")
        outs.append(out)
    for out in outs:
        results = [Result.from_dict(d) for d in json.loads((out / "results.json").read_text())]
        held, read = from_results(out, results), load(out)
        assert held == read, out.name
        pages = [re.sub(r" on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\. ", " on (now). ", render(d)) for d in (held, read)]
        assert pages[0] == pages[1] and " on (now). " in pages[0], out.name
        assert "<img id=fig-overview" in pages[0] and "id=problems" not in pages[0]
        wide = [path.read_bytes() for data in (held, None) for path in write_exports(out, data=data)]
        assert wide[0] == wide[1]
    # A grader-error row is never a grade: neither grades.csv nor the report holds it.
    example = [Result.from_dict(d) for d in json.loads((outs[0] / "results.json").read_text())]
    broken = Result("zed", "01_number_formats", status="grader-error", max_score=20, detail="the grader crashed")
    assert from_results(outs[0], [*example, broken]) == from_results(outs[0], example)


def test_markup_and_template_syntax_from_a_submission_are_text_on_both_pages(tmp_path):
    """A student's folder name, an exception message and a docstring holding markup and Jinja2
    syntax reach the class report and the student's feedback page escaped and never evaluated:
    the templates autoescape every value and never render a value as a template."""
    import re

    from autograder.grader.core.model import Outcome, Result, TestResult
    from autograder.grader.classroom.outputs import feedback_html, write_outputs
    from autograder.report import from_results, load, render

    hostile = "<script>alert(1)</script> {{ 7*7 }} {% if true %}evaluated{% endif %} &amp;"
    shown = html.escape(hostile)
    assert "{{ 7*7 }}" in shown and "<" not in shown

    def unevaluated(page: str) -> bool:
        text = re.sub(r'href="[^"]*"', "", page)  # the links hold the name percent-encoded
        block = "{% if true %}evaluated{% endif %}"
        return "{{ 7*7 }}" in text and " 49 " not in text and text.count("evaluated") == text.count(block) > 0

    def result(student: str) -> Result:
        tests = [
            TestResult("test_f_visible", 0, 1, "AssertionError: " + hostile, False, "checks " + hostile,
                       message="AssertionError: " + hostile, outcome=Outcome.WRONG),
            TestResult("test_f_hidden", 0, 2, HIDDEN_FAILED, True, "hidden " + hostile,
                       message="AssertionError: SECRET " + hostile, outcome=Outcome.WRONG),
        ]  # fmt: skip
        return Result(student, "01_alpha", 0, 3, "ok", notes=["note " + hostile], tests=tests, seconds=3.0)

    results = [result(hostile), result("ada")]
    out = tmp_path / "out"
    write_outputs(out, results)
    for page in (render(from_results(out, results)), render(load(out))):
        assert "<script" not in page and unevaluated(page)
        assert page.count(f"<span class=msg>AssertionError: {shown}</span>") == 1  # the visible check's group
        assert f"<span class=msg>AssertionError: SECRET {shown}</span>" in page  # instructor-only, as text
        assert f"<small>checks {shown}</small>" in page and f"hidden {shown}" in page
        assert f">{shown}</a>" in page  # the student's name, linking to the feedback page
    written = (out / "feedback" / hostile / "01_alpha.html").read_text()
    for page in (feedback_html(results[0]), written):
        assert "<script" not in page and unevaluated(page) and "SECRET" not in page
        assert f"<title>01_alpha: {shown}</title>" in page and f"<b>{shown}</b>" in page
        assert f"<code>AssertionError: {shown}</code>" in page and f"<small>checks {shown}</small>" in page
        assert f"<li>note {shown}</li>" in page and f"hidden {shown}" in page


def test_the_roster_never_erases_a_grade_the_download_has_no_notebook_for(tmp_path):
    """Red team round 5: a lesson-01 download in which one student's lesson-02 notebook brings lesson
    02 into scope made every classmate `missing` for 02, and the filled roster wrote their 0 over
    the grades the LMS already held. A missing row never overwrites a non-empty LMS cell: the cell
    is kept and the roster check says so; a graded row still fills its cell. (In the example class
    cy did not submit lesson 06; the gradebook below already holds 10 for it for everyone.)"""
    out = example_out(tmp_path)
    roster = tmp_path / "gradebook.csv"
    rows, _ = _read_table(DATA / "canvas_gradebook.csv")
    rows[0].append("06 Block scaled formats (58106)")
    rows[1].append("19.00")
    for row in rows[2:]:
        row.append("10.00")
    write_safe_csv(roster, rows, bom=True)
    write_exports(out, roster)
    filled, _ = _read_table(out / "gradebook_filled.csv")
    col = filled[0].index("06 Block scaled formats (58106)")
    by_login = {r[3]: r for r in filled[2:]}
    grades = {(r["student"], r["lesson"]): r for r in read_csv(out / "grades.csv")}
    assert grades[("cy", "06_block_scaled_formats")]["status"] == "missing"
    assert by_login["cy"][col] == "10.00", "kept, not overwritten with 0"
    assert float(by_login["ada"][col]) == float(grades[("ada", "06_block_scaled_formats")]["score"]) == 19
    kept = [r for r in read_csv(out / "roster_check.csv") if r["kind"] == "kept the LMS's grade"]
    assert [r["student"] for r in kept] == ["cy"]


def test_names_that_neutralise_alike_keep_their_own_rows(tmp_path):
    """Two students whose names a formula-neutraliser writes alike ("=a" and "'=a"; a control
    character and its escape spelled out) get distinct grades.csv cells (textsafe.name_cell is
    one-to-one) and the report joins each cell to its own results.json row: no merged or swapped
    grades, no disagreement listed."""
    from autograder.common.textsafe import name_cell

    pairs = [("=a", "'=a"), ("b\n", "b\\n"), ("'c", "''c"), ("\\", "\\\\")]
    names = [n for pair in pairs for n in pair]
    assert len({name_cell(n) for n in names}) == len(names)
    assert len({safe_csv_cell(n) for n in names}) < len(names), "the plain neutraliser collides: the case"
    from autograder.grader.core.model import Result
    from autograder.grader.classroom.outputs import write_outputs
    from autograder.report.load import load

    made = generated_out(tmp_path, n=0, names=names, seed=5)
    out = tmp_path / "graded"
    write_outputs(out, [Result.from_dict(d) for d in json.loads((made / "results.json").read_text())])
    cells = {g["student"] for g in read_csv(out / "grades.csv")}
    assert cells == {name_cell(n) for n in names}, cells
    data = load(out)
    assert data.problems == []
    results = {(d["student"], d["lesson"]): d["score"] for d in json.loads((out / "results.json").read_text())}
    assert {(r.student, r.lesson): r.score for r in data.rows} == results
    write_exports(out)
    wide = [r["student"] for r in read_csv(out / "grades_wide.csv")][1:]  # after "Points Possible"
    assert sorted(wide) == sorted(cells), wide


def test_misconceptions_rank_known_mistakes_by_students_with_coverage(tmp_path):
    """Issue 32: the report's misconceptions name each diagnosed known mistake (its library name
    and section), ranked by the students it describes, link their feedback pages, show an "or"
    diagnosis as one entry ("one of: A; B", issue 45) and per exercise the share of wrong answers no
    known mistake explains; the students' pages name the mistake under the failed check."""
    from autograder.common import mistakes
    from autograder.grader.core.model import Outcome, Result, TestResult
    from autograder.grader.classroom.outputs import write_outputs
    from autograder.report import misconceptions as mc
    from autograder.report.load import load

    lesson = "03_int8_quantization"
    library = [m for m in mistakes.load(lesson) if m.function == "quantize_per_channel"]
    first, second = library[0], library[1]

    def row(student, *keys_per_check):
        tests = [
            TestResult(
                "test_quantize_per_channel_hidden" if i else "test_quantize_per_channel_visible",
                0.0 if keys is not None else 3.0,
                3.0,
                "failed" if keys is not None else "",
                hidden=bool(i),
                outcome=Outcome.WRONG if keys is not None else Outcome.PASSED,
                mistakes=list(keys or []),
            )
            for i, keys in enumerate(keys_per_check)
        ]
        return Result(student, lesson, sum(t.score for t in tests), 6.0, "ok", tests=tests)

    results = [
        row("ada", [first.key], [first.key]),  # one student, two checks: counted once
        row("bob", [first.key, second.key], None),  # an "or" diagnosis
        row("cy", [], [second.key]),  # one check unexplained
        row("dee", ["03_int8_quantization:quantize_per_channel:gone"], None),  # since removed
        row("eve", None, None),
    ]
    out = tmp_path / "out"
    write_outputs(out, results)
    data = load(out)
    ranked = mc.misconceptions(data)
    gone = "03_int8_quantization:quantize_per_channel:gone"
    assert sorted((m.keys, m.students, m.ambiguous) for m in ranked) == sorted(
        [
            ((first.key,), 1, False),  # ada, counted once
            (tuple(sorted([first.key, second.key])), 1, True),  # bob's "or": one entry, not one in each
            ((second.key,), 1, False),  # cy
            ((gone,), 1, False),  # dee
        ]
    )
    assert [m for m in ranked if m.keys == (gone,)][0].mistake is None
    assert [m for m in ranked if m.keys == (first.key,)][0].mistake == first
    [cov] = mc.coverage(data)
    assert (cov.exercise, cov.wrong, cov.explained) == ("quantize_per_channel", 6, 5)
    page = build_report(out).read_text()
    section = page[page.index("id=misconceptions>") : page.index("id=lessons-h")]
    assert html.escape(first.name) in section and html.escape(second.name) in section and ":gone" in section
    assert f"one of: {html.escape(min(first, second, key=lambda m: m.key).name)}; " in section
    assert 'href="feedback/ada/03_int8_quantization.html"' in section
    assert html.escape(first.section.replace("`", "")) in section and "17 %" in section
    bob = (out / "feedback" / "bob" / f"{lesson}.html").read_text()
    assert "behaves like\none of these known mistakes" in bob and html.escape(second.explanation) in bob
    eve = (out / "feedback" / "eve" / f"{lesson}.html").read_text()
    assert "known mistake" not in eve


def test_the_header_names_the_lessons_not_yet_recorded_on_a_tpu(tmp_path):
    """Issue 59 (3): a lesson whose known answers no chip has recorded yet (its folder has no
    chip/outcomes.json) is graded under the emulation alone, and the report's header says so, from
    run.json's chip_records (the grader writes it); recorded lessons, and a run.json without the
    field, add nothing."""
    run = {"date": "2026-12-02T10:00:00Z", "emulation": "tpu", "seed": 1}
    records = {"01_alpha": "2026-12-06T09:47:04+00:00", "02_beta": "", "03_gamma": "2026-12-06T09:47:04+00:00"}
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
    page = build_report(generated_out(tmp_path / "a", 8, run={**run, "chip_records": records})).read_text()
    header = page.split("id=glance")[0]
    assert "id=chip-status" in header and "Not yet recorded on a TPU: <b>02_beta</b>." in header
    assert "01_alpha</b>" not in header and "03_gamma</b>" not in header
    for name, other in (("b", {**run, "chip_records": {**records, "02_beta": "2026-12-07"}}), ("c", run)):
        assert "id=chip-status" not in build_report(generated_out(tmp_path / name, 8, run=other)).read_text()


def test_the_grader_records_which_lessons_a_tpu_recorded(tmp_path):
    """run.json's chip_records: every lesson of the course with its chip record's date, "" where
    its folder holds no chip/outcomes.json (lessonfolder.chip_status)."""
    from autograder.common import lessonfolder
    from autograder.grader.classroom.classrun import provenance
    from autograder.grader.core.settings import Settings
    from conftest import LESSONS

    records = provenance(ROOT, Settings())["chip_records"]
    assert set(records) == set(LESSONS)
    assert all(records[n] == (lessonfolder.chip_record(n) or {}).get("date", "") for n in LESSONS)
    assert any(records.values()), "the course's lessons recorded on a TPU"
    root = tmp_path / "course"
    (root / "solutions" / "07_new").mkdir(parents=True)
    (root / "solutions" / "07_new" / "07_new.ipynb").write_text("{}")
    assert lessonfolder.chip_status(["07_new"], root) == {"07_new": ""}
