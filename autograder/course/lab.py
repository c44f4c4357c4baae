"""JupyterLab on the course with nbgrader's extensions: ``make lab`` and the browser test.

``python -m autograder.course.lab [JUPYTER LAB OPTIONS]`` (what ``make lab`` runs) starts JupyterLab on
this repository, the instructor's view: ``solutions/`` (nbgrader's source), ``notebooks/`` (the
student release), the formgrader, and nbgrader's assignment list and validate button. Before that
it fills the course's ``gradebook.db`` (git-ignored) from ``solutions/`` by nbgrader's own
``generate_assignment`` in a scratch copy, so the formgrader knows every lesson's cells and points
and ``nbgrader autograde`` can run; ``notebooks/`` is left untouched (``make release`` rewrites it).
It also creates nbgrader's exchange folder ``.exchange/`` (git-ignored). ``--prepare`` does only
these two steps and exits, for nbgrader's own command line.

The server runs with the course directory as both its root and its working directory: nbgrader's
server extensions read ``nbgrader_config.py`` from the working directory, and the formgrader only
works on a course root inside the server root.

tests/test_lab_e2e.py uses :func:`course_copy`, :func:`populate_gradebook` and :func:`start_lab`
to run the same server on a scratch copy of the course.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from ..common.config import RELEASE_DIR, ROOT, SOURCE_DIR
from ..common.notebooks import lessons

# What a course directory needs for nbgrader: the notebooks, the config and what it imports.
COURSE_FILES = [SOURCE_DIR, RELEASE_DIR, "autograder", "nbgrader_config.py", "pyproject.toml"]
GRADEBOOK = "gradebook.db"
EXCHANGE = ".exchange"  # nbgrader's exchange (autograder/common/config.py: Exchange.root), git-ignored


def course_copy(dest: Path, root: Path = ROOT) -> Path:
    """Copy the course (sources, release, nbgrader config) to ``dest``, which must not exist."""
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc")
    for name in COURSE_FILES:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)
    return dest


def gradebook_lessons(db_path: Path) -> set[str]:
    """Names of the assignments already in a gradebook (empty if there is none yet)."""
    if not db_path.exists():
        return set()
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{db_path}") as gb:
        return {a.name for a in gb.assignments}


def stale_lessons(course: Path = ROOT) -> list[str]:
    """Lessons missing from the course's gradebook, or whose source changed since it was written."""
    db = course / GRADEBOOK
    known = gradebook_lessons(db)
    mtime = db.stat().st_mtime if db.exists() else 0.0
    return [
        n for n in lessons(course) if n not in known or (course / SOURCE_DIR / n / f"{n}.ipynb").stat().st_mtime > mtime
    ]


def populate_gradebook(course: Path = ROOT, names: list[str] | None = None) -> list[str]:
    """Record lessons (default: all) in ``course/gradebook.db`` as nbgrader's generate_assignment
    does, working in a scratch course so that nothing in ``course`` but the gradebook changes."""
    from .release import generate, prepare_course

    names = lessons(course) if names is None else names
    if names:
        with tempfile.TemporaryDirectory(prefix="lab-gradebook-") as tmp:
            prepare_course(Path(tmp), course, names)
            generate(Path(tmp), names, (course / GRADEBOOK).resolve())
        (course / GRADEBOOK).touch()
    return names


def ensure_exchange(course: Path = ROOT) -> Path:
    """Create the course's nbgrader exchange folder: without it the formgrader has no Release or
    Collect buttons and students' Assignment List stays empty."""
    exchange = course / EXCHANGE
    exchange.mkdir(exist_ok=True)
    return exchange


def free_port() -> int:
    """A TCP port that is free on the loopback interface right now."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_command(course: Path, extra: list[str] = ()) -> list[str]:
    """The ``jupyter lab`` command line for a course directory (no update or news checks)."""
    return [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={course}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
        *(["--ServerApp.allow_root=True"] if os.geteuid() == 0 else []),  # CI runs as root
        *extra,
    ]


def start_lab(
    course: Path, port: int, token: str, env: dict | None = None, log=None, timeout: float = 60
) -> subprocess.Popen:
    """Start JupyterLab headless on 127.0.0.1:port with a token; return once its API answers."""
    cmd = lab_command(
        course,
        [
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
        ],
    )
    proc = subprocess.Popen(cmd, cwd=course, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api/status?token={token}"
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with code {proc.returncode}: {' '.join(cmd)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_lab(proc)
            raise TimeoutError(f"jupyter lab did not answer on port {port} within {timeout:g} s")
        time.sleep(0.2)


def stop_lab(proc: subprocess.Popen, timeout: float = 10) -> None:
    """Stop a server from :func:`start_lab` and its kernels (its own process group only)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    """``make lab``: fill the gradebook if needed, then run JupyterLab on the repository."""
    argv = sys.argv[1:] if argv is None else argv
    prepare_only = "--prepare" in argv  # gradebook and exchange only, for nbgrader's command line
    argv = [a for a in argv if a != "--prepare"]
    stale = stale_lessons(ROOT)
    if stale:
        print(f"Recording {', '.join(stale)} in {GRADEBOOK} (nbgrader generate_assignment) ...", flush=True)
        populate_gradebook(ROOT, stale)
    ensure_exchange(ROOT)
    if prepare_only:
        print(f"{GRADEBOOK} and {EXCHANGE}/ are ready for nbgrader's commands.")
        return 0
    print(
        "JupyterLab on the course: nbgrader menu > Formgrader (instructors), Assignment List; "
        "Validate in each notebook's toolbar. Regenerate notebooks/ with `make release`, "
        "not the formgrader's Generate button. Ctrl-C stops it.",
        flush=True,
    )
    os.chdir(ROOT)  # nbgrader's server extensions read nbgrader_config.py from here
    cmd = lab_command(ROOT, argv)
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    sys.exit(main())
