"""`make run`: regenerate the release, execute every lesson headlessly, summarise what ran.

Executed copies go to build/executed/<lesson>.ipynb and build/html/<lesson>.html. Each lesson
runs in its own scratch folder under build/run/ so nothing it writes lands in the repository.
When examples/submissions/ exists, the bundled example class is graded into build/grades/.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

import nbformat

from ..common.config import ROOT, SOURCE_DIR
from ..common.notebooks import lessons
from ..common.words import plural

BUILD = ROOT / "build"


def execute_lesson(lesson: str, timeout: int = 600) -> dict:
    from nbconvert import HTMLExporter

    from ..common.notebooks import execute

    nb = nbformat.read(str(ROOT / SOURCE_DIR / lesson / f"{lesson}.ipynb"), as_version=4)
    workdir = BUILD / "run" / lesson
    workdir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    nb, crash = execute(nb, workdir, timeout)
    seconds = time.perf_counter() - t0
    errors, summary, figures = [crash] if crash else [], [], 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                errors.append(f"{out.get('ename')}: {out.get('evalue')}"[:200])
            if out.get("output_type") == "display_data" and "image/png" in out.get("data", {}):
                figures += 1
            if "summary" in cell.get("metadata", {}).get("tags", []) and out.get("output_type") == "stream":
                summary.append(out.get("text", ""))
    (BUILD / "executed").mkdir(parents=True, exist_ok=True)
    (BUILD / "html").mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(BUILD / "executed" / f"{lesson}.ipynb"))
    body, _ = HTMLExporter().from_notebook_node(nb)
    (BUILD / "html" / f"{lesson}.html").write_text(body)
    return {"lesson": lesson, "seconds": seconds, "errors": errors, "figures": figures, "summary": "".join(summary)}


def run(jobs: int | None = None) -> int:
    from .release import release

    release()
    names = lessons()
    jobs = jobs or min(len(names), os.cpu_count() or 1)
    print(f"Executing {plural(len(names), 'solution notebook')} ({jobs} at a time)...")
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        reports = list(pool.map(execute_lesson, names))
    print(f"\n{'lesson':<28} {'seconds':>7} {'figures':>7}  result")
    for r in reports:
        print(
            f"{r['lesson']:<28} {r['seconds']:>7.1f} {r['figures']:>7}  "
            + ("ok" if not r["errors"] else f"{len(r['errors'])} error(s): {r['errors'][0]}")
        )
    for r in reports:
        if r["summary"]:
            print(f"\n--- {r['lesson']} ---\n{r['summary'].rstrip()}")
    failed = [r for r in reports if r["errors"]]

    examples = ROOT / "examples" / "submissions"
    if examples.is_dir():
        from ..grader import Settings, grade, print_table
        from ..report import report_class

        print("\nGrading the bundled example class (examples/submissions/)...")
        print_table(grade(examples, BUILD / "grades", Settings(jobs=jobs), quiet=True))
        report_class(BUILD / "grades", quiet=True)
        print(f"Gradebook: {BUILD / 'grades' / 'grades.csv'}")
        print(f"Class report: {BUILD / 'grades' / 'report.html'}")
    print(f"\nDone in {time.perf_counter() - t0:.0f} s. Executed notebooks: build/executed/, HTML: build/html/.")
    return 1 if failed else 0
