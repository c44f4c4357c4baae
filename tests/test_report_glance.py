"""Issue 45: the class report reads at a glance for a class of 2,000, and an ambiguous diagnosis
is one entry of the misconceptions table.

- Ambiguous diagnoses: "A or B" on one check is one entry ("one of: A; B"); a later check can
  narrow it to "A"; no student is counted twice (report/misconceptions.py).
- The first screen (1280 x 800 in headless Chromium) on the example class (its real grading OUT)
  and on a generated class of 2,000 students x 6 lessons (tests/report_classes.py: the grader's
  model classes, real lesson names and real keys of the mistakes library, ~30% missing rows, no
  grading): at a glance (status counts, the top of the re-teach list, the rows that need a human
  by cause and lesson) is asserted within 800 px, the misconceptions table's ten rows one line
  each with the rest folded, OUT/missing.csv holds every missing row, and the page's height with
  every <details> closed is bounded (PAGE_HEIGHT_BOUND). The build time, the page's load time in
  Chromium and its heights (closed and open) are printed (run with -s), never asserted.
"""

import csv
import html
import shutil
import time

import pytest

from autograder.common.mistakes import lookup
from autograder.grader.core.model import Outcome, Result, TestResult
from autograder.grader.classroom.outputs import write_outputs
from autograder.report import build_report, from_results, load
from autograder.report import misconceptions as mc
from autograder.report.html import TOP, reteach
from autograder.report.stats import check_stats, ranked
from conftest import ROOT
from report_classes import large_class, library
from test_lab_e2e import browser  # noqa: F401 (Debian's Chromium, shared with the lab's test)

DATA = ROOT / "tests" / "data" / "report"
SHOTS = ROOT / "build" / "report"
VIEWPORT = {"width": 1280, "height": 800}
# Measured in Chromium at 1280 px wide with every <details> closed (issue 45): the example class
# 8,922 px, the generated class of 2,000 x 6 9,463 px (six lessons' figures are 4,800 px of it);
# the old page was 57,498 px for 123 students. Bound: the larger plus about 25%.
PAGE_HEIGHT_BOUND = 12_000


# ---------------------------------------------------------------------------------------------
# Ambiguous diagnoses: one entry, each student once
# ---------------------------------------------------------------------------------------------


def _row(student: str, lesson: str, function: str, *diagnoses) -> Result:
    """A row whose checks of ``function`` failed with these diagnoses (None: the check passed)."""
    tests = [
        TestResult(
            f"test_{function}_{kind}",
            0.0 if keys is not None else 2.0,
            2.0,
            "failed" if keys is not None else "",
            hidden=kind == "hidden",
            outcome=Outcome.WRONG if keys is not None else Outcome.PASSED,
            mistakes=list(keys or []),
        )
        for kind, keys in zip(("visible", "hidden"), diagnoses, strict=True)
    ]
    return Result(student, lesson, sum(t.score for t in tests), 4.0, "ok", tests=tests)


def test_an_ambiguous_diagnosis_is_one_entry_and_no_student_counts_twice(tmp_path):
    """Three students are "A or B" on one check; another check narrows one of them to A: the table
    has A with 1 student and "one of: A; B" with 2, three students in all, none in two rows."""
    lesson = "03_int8_quantization"
    function = "quantize_per_channel"
    a, b = sorted(library()[lesson][function])[:2]
    results = [
        _row("ada", lesson, function, [a, b], [a]),  # narrowed to A by the hidden check
        _row("bob", lesson, function, [a, b], None),
        _row("cy", lesson, function, [b, a], [b, a]),  # the same set, listed the other way
        _row("dee", lesson, function, None, None),
    ]
    out = tmp_path / "out"
    write_outputs(out, results)
    for data in (load(out), from_results(out, results)):
        found = mc.misconceptions(data)
        assert [(m.keys, m.students) for m in found] == [((a, b), 2), ((a,), 1)]
        assert [sorted(r.student for r in m.rows) for m in found] == [["bob", "cy"], ["ada"]]
        assert sum(m.students for m in found) == 3
    page = build_report(out).read_text()
    names = {m.key: m.name for m in lookup([a, b])}
    table = page.split("id=misconceptions-table")[1].split("</table>")[0]
    rows = table.split("<tr data-key=")[1:]
    assert len(rows) == 2
    assert rows[0].startswith(f'"{html.escape(a)} or {html.escape(b)}" data-ambiguous>')
    assert f"one of: {html.escape(names[a])}; {html.escape(names[b])}" in rows[0]
    assert '<td class=n data-k="students">2</td>' in rows[0]
    assert rows[1].startswith(f'"{html.escape(a)}">') and '<td class=n data-k="students">1</td>' in rows[1]
    assert "3 diagnoses (a student and exercise each, counted once)" in page


def test_checks_that_disagree_keep_the_most_specific_diagnosis():
    assert mc.combine([["b", "a"], ["a"]]) == ("a",)  # narrowed
    assert mc.combine([["a", "b", "c"], ["c", "b"]]) == ("b", "c")
    assert mc.combine([["a", "b"], ["c"]]) == ("c",)  # no common key: the most specific
    assert mc.combine([["a"], ["c"]]) == ("a",)  # equals: the first check's


# ---------------------------------------------------------------------------------------------
# The first screen, in Chromium
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """{"example": OUT, "class2000": OUT}, their reports built (build time printed)."""
    tmp = tmp_path_factory.mktemp("glance")
    example = tmp / "example"
    shutil.copytree(DATA / "example_class", example)
    build_report(example)
    big = tmp / "class2000"
    big.mkdir()
    start = time.perf_counter()
    results = large_class(2000)
    made = time.perf_counter() - start
    start = time.perf_counter()
    data = from_results(big, results)
    build_report(big, data)
    built = time.perf_counter() - start
    print(f"\nclass of 2,000 x 6: {len(results)} rows made in {made:.2f} s, report built in {built:.2f} s")
    return {"example": (example, load(example)), "class2000": (big, data)}


def _box(page, selector: str) -> dict:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; }",
    )


@pytest.mark.compat  # make compat (CI): a browser, as the lab's test
@pytest.mark.parametrize("which", ["example", "class2000"])
def test_the_first_screen_says_what_to_do_first(classes, browser, which):  # noqa: F811 (the fixture)
    out, data = classes[which]
    path = out / "report.html"
    context = browser.new_context(viewport=VIEWPORT, offline=True)
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        loaded = time.perf_counter() - start
        # at a glance: the status counts, the top of the re-teach list, the rows that need a human
        statuses = {s: sum(r.status == s for r in data.rows) for s in ("ok", "timeout", "error", "tampered", "missing")}
        shown = page.eval_on_selector_all(
            "#status-counts span[data-status]", "els => els.map(e => [e.dataset.status, e.textContent])"
        )
        assert dict(shown) == {s: f"{n} {s}" for s, n in statuses.items()}
        first = reteach(ranked(check_stats(data)), mc.misconceptions(data))[0]
        assert page.inner_text("#reteach li:first-child").startswith(f"{first['exercise']} in {first['lesson']}: ")
        cells = page.eval_on_selector_all(
            "#human-counts tr[data-status]",
            "rows => rows.map(r => [r.dataset.status,"
            " Object.fromEntries([...r.querySelectorAll('td[data-k]')].map(c => [c.dataset.k, c.textContent]))])",
        )
        for status, counts in cells:
            for lesson in data.lessons:
                assert int(counts[lesson]) == sum(r.status == status and r.lesson == lesson for r in data.rows)
            assert int(counts["all"]) == statuses[status]
        assert [s for s, _ in cells] == ["tampered", "error", "timeout", "missing"]
        for selector in ("#status-counts", "#reteach li:first-child", "#human-counts"):
            assert _box(page, selector)["bottom"] <= VIEWPORT["height"], selector
        # the misconceptions: a ranked table of at most ten rows, one line each, the rest folded
        rows = page.query_selector_all("#misconceptions-table tr[data-key]")
        found = mc.misconceptions(data)
        diagnosed = {(r.student, *where) for r in data.rows for where in mc.diagnoses(r)}
        assert sum(m.students for m in found) == len(diagnosed)  # each student and exercise once
        assert which == "example" or any(m.ambiguous for m in found)
        assert len(rows) == min(TOP, len(found)) > 0
        line = page.eval_on_selector("#misconceptions-table summary", "e => parseFloat(getComputedStyle(e).lineHeight)")
        assert all(r.bounding_box()["height"] < 1.8 * line for r in rows), line  # one line and padding
        if len(found) > TOP:
            assert page.eval_on_selector("#misconceptions-more", "e => !e.open")
        # every missing row in OUT/missing.csv, linked from the first screen
        with open(out / "missing.csv", newline="") as f:
            listed = [(r["lesson"], r["student"]) for r in csv.DictReader(f)]
        assert sorted(listed) == sorted((r.lesson, r.student) for r in data.rows if r.status == "missing")
        assert page.eval_on_selector("#glance a[href='missing.csv']", "e => e.getBoundingClientRect().bottom") <= 800
        # the height with every fold closed, bounded; then opened, for the record
        closed = page.evaluate("document.documentElement.scrollHeight")
        page.screenshot(path=str(SHOTS / f"glance_{which}_top.png"))
        page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
        opened = page.evaluate("document.documentElement.scrollHeight")
        print(f"\n{which}: loaded in Chromium in {loaded:.2f} s; {closed} px tall with folds closed, {opened} px open")
        assert closed <= PAGE_HEIGHT_BOUND, closed
    finally:
        context.close()
