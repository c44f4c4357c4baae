"""Inside Gradescope's container: grade the one uploaded notebook, write results.json (trusted side).

``run_autograder`` (the zip's script) runs ``python -m autograder.gradescope.run`` in
``/autograder/source``, the course the zip holds. It proves the grader's machinery first, as
``grade`` does (canary.py: a trivial student process, and the lesson's solution graded to full
marks, the latter remembered from setup.sh's run in the same image), finds the upload's notebook
whatever its name, and grades it with ``grade_notebook``, the code path of ``grade`` and ``check``.

Who writes what: the student's code runs in its own sandboxed process (grader/sandbox/launch.py) with its
own work folder under this process's temporary folder; ``/autograder/results`` is not in its
sandbox, and results.json is written here only after grading, when no student process is left:
this process is the child subreaper of everything grading starts (a student's double fork and
setsid included), kills and reaps every process below it, then writes results.json whole (a
temporary file renamed over it, never appended to) and reads it back; a submission cannot write
its own results, with bubblewrap or under the fallback. A grader fault (the sandbox could not
start, the canary failed) writes no results.json and exits 2: Gradescope then shows "The
autograder failed to execute correctly" (its troubleshooting page), never a silent zero;
/autograder/results/stdout (instructors only) says why.

``COURSE_GRADESCOPE_ROOT`` (default ``/autograder``) moves the whole layout, for the tests only.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from ..grader.classroom import canary
from ..grader.sandbox import launch as sandbox, reaper
from ..grader.classroom.classrun import load_lessons
from ..grader.core.model import Status
from ..grader.notebook.grade import grade_notebook
from ..grader.notebook.submissions import lesson_of, read_submission
from ..grader.core.settings import MAX_NOTEBOOK_BYTES, Limits, Settings
from ..common.textsafe import printable
from .results import no_notebook_json, results_json

CONFIG = "gradescope.json"  # written by build.py beside the course: lesson, settings, seed, visibility
ROOT_ENV = "COURSE_GRADESCOPE_ROOT"


def autograder_root() -> Path:
    return Path(os.environ.get(ROOT_ENV) or "/autograder")


def load_config(source: Path) -> tuple[dict, Settings]:
    config = json.loads((source / CONFIG).read_text())
    return config, Settings.from_dict(config["settings"])


def student_key(root: Path) -> str:
    """Who submitted, for the hidden tests' seed (run.notebook_seed): the Gradescope user ids of
    submission_metadata.json (a group's, sorted), so a resubmission draws the same inputs and two
    students different ones; "student" where the file is absent."""
    try:
        users = json.loads((root / "submission_metadata.json").read_text())["users"]
        ids = sorted(str(u["id"]) for u in users)
    except (OSError, ValueError, KeyError, TypeError):
        return "student"
    return ",".join(ids) or "student"


def find_notebook(submission: Path, lesson: str) -> tuple[Path | None, str]:
    """The upload's notebook of ``lesson`` whatever its name ("Copy of ...", "mine.ipynb"), and a
    note; None and why where there is none, or several that the exercises cannot tell apart.
    Symlinks and checkpoints are never read."""
    found = sorted(
        p
        for p in submission.rglob("*.ipynb")
        if p.is_file() and not p.is_symlink() and ".ipynb_checkpoints" not in p.parts
    )
    if not found:
        return None, "no .ipynb file in your upload: upload the lesson's notebook"
    if len(found) == 1 and found[0].stat().st_size > MAX_NOTEBOOK_BYTES:
        return found[0], ""  # graded as what it is: unreadable (over the cap), status error
    ours = [p for p in found if p.stat().st_size <= MAX_NOTEBOOK_BYTES and lesson_of(p) == lesson]
    names = ", ".join(printable(p.name, 80, keep="") for p in found)
    if len(ours) == 1:
        return ours[0], "" if len(found) == 1 else f"graded {printable(ours[0].name, 80, keep='')} of {names}"
    if len(found) == 1:
        return None, f"{names} is not a notebook of {lesson} (its exercises are not this lesson's): upload that one"
    return None, f"{len(found)} notebooks uploaded ({names}) and not exactly one of them is {lesson}: upload one"


def end_descendants() -> bool:
    """SIGKILL every process below this one (the zygote, every checker, every process of the
    student's, whatever session or group it made) and reap them; True once none is left."""
    from ..grader.checker.spawn import stop_zygotes

    stop_zygotes()
    return reaper.end_descendants(foreign=False)


def write_results(results_dir: Path, data: dict | None) -> None:
    """Replace results.json by ``data`` (None: remove it, an autograder failure), atomically."""
    results_dir.mkdir(parents=True, exist_ok=True)
    target = results_dir / "results.json"
    if data is None:
        target.unlink(missing_ok=True)
        return
    fd, tmp = tempfile.mkstemp(dir=results_dir, prefix=".results-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, target)


def layers_line(limits: Limits) -> str:
    """One line saying which layers of the sandbox graded this notebook (sandbox.describe)."""
    line = sandbox.describe(limits)  # "sandbox: bubblewrap namespaces ..." or "WARNING: ... WITHOUT namespaces"
    return line if line.startswith("sandbox: ") else "sandbox: " + line.removeprefix("WARNING: ")


def fail(results_dir: Path, why: str) -> int:
    """An autograder failure: no results.json (Gradescope shows the failure), the reason on stdout."""
    write_results(results_dir, None)
    print(f"AUTOGRADER FAILURE (the grader's fault, not the student's): {why}", flush=True)
    return 2


def main(argv: list[str] | None = None) -> int:
    t0 = time.monotonic()
    root = autograder_root()
    source, results_dir = Path.cwd(), root / "results"
    config, settings = load_config(source)
    lesson, visibility = config["lesson"], config["hidden_visibility"]
    if argv and argv[0] == "--prove":  # setup.sh: the machinery works in this image, or the build fails
        try:
            with tempfile.TemporaryDirectory(prefix="gradebook-") as work:
                data = load_lessons(source, [lesson], Path(work) / "gradebook.db")[lesson]
            canary.process_canary(settings, source)
            canary.solution_canary(data, settings, source)
        except canary.CanaryFailed as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{lesson}: the grader grades here ({layers_line(settings.limits)})")
        return 0
    write_results(results_dir, None)  # nothing that was there before grading can stand as the result
    reaper.become_subreaper()  # every process grading starts stays below this one, whatever it does
    layers = layers_line(settings.limits)
    print(layers, flush=True)
    try:
        canary.process_canary(settings, source)  # first: a sandbox that cannot start fails fast
        with tempfile.TemporaryDirectory(prefix="gradebook-") as work:
            data = load_lessons(source, [lesson], Path(work) / "gradebook.db")[lesson]
        canary.solution_canary(data, settings, source)
    except canary.CanaryFailed as exc:
        return fail(results_dir, str(exc))
    path, note = find_notebook(root / "submission", lesson)
    if path is None:
        write_results(results_dir, no_notebook_json(lesson, note, data.max_score(), layers, time.monotonic() - t0))
        print(f"missing: {note}")
        return 0
    submission = read_submission(path)  # past the cap, grade_notebook calls it unreadable
    try:
        r = grade_notebook(student_key(root), data, submission, settings, source)
    except Exception as exc:  # noqa: BLE001  the grader's own machinery (a submission's bytes are its row)
        end_descendants()
        return fail(results_dir, f"the grader crashed ({type(exc).__name__}: {exc})")
    if not end_descendants():  # before results.json: nothing a submission started runs after it
        return fail(results_dir, "a process the grading started could not be ended")
    if r.status == Status.GRADER_ERROR:
        return fail(results_dir, r.detail)
    if note:
        r.notes.insert(0, note)
    data = results_json(r, visibility, layers, time.monotonic() - t0)
    write_results(results_dir, data)
    try:  # written last and checked: what Gradescope reads is what was graded
        written = json.loads((results_dir / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        written = None
    if written != json.loads(json.dumps(data)):
        return fail(results_dir, "results.json changed after it was written")
    # stdout is the instructors' (Gradescope shows it to students only if told to): every check
    name = printable(path.name, 120, keep="")
    print(f"{name}: {r.score:g}/{r.max_score:g} {r.status}" + (f" ({printable(r.detail)})" if r.detail else ""))
    for t in r.tests:
        why = f"  {printable(t.message, 200)}" if t.message else ""
        print(f"  {t.grade_id}: {t.score:g}/{t.max_score:g} {t.outcome}{why}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
