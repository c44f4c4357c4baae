"""Gradescope's autograder layout without Gradescope, for tests/test_gradescope*.py.

What Gradescope does, from its "Autograder Specifications" and sample Dockerfile: the zip is
unpacked into /autograder/source, run_autograder is copied to /autograder/run_autograder, setup.sh
runs once as root (``bash /autograder/source/setup.sh``); for each submission the upload lands in
/autograder/submission with /autograder/submission_metadata.json beside it, run_autograder runs
with /autograder as its working folder, and /autograder/results/results.json is read back. Here
the root is a temporary folder (``COURSE_GRADESCOPE_ROOT``), and every results.json is validated
against tests/gradescope_results.schema.json, written from the same page.
"""

import json
import os
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

import jsonschema

SCHEMA = json.loads((Path(__file__).parent / "gradescope_results.schema.json").read_text())


def unpack(zip_path: Path, root: Path) -> Path:
    """A Gradescope root from an autograder zip, as its image build lays it out (modes kept)."""
    for folder in ("source", "submission", "results"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            z.extract(info, root / "source")
            mode = info.external_attr >> 16
            if mode & 0o777:
                os.chmod(root / "source" / info.filename, mode & 0o777)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", 0o755)
    return root


def submit(root: Path, content: bytes, name: str, user_id: int) -> None:
    """One upload: the submission folder holds just this file; the metadata names its student."""
    shutil.rmtree(root / "submission")
    (root / "submission").mkdir()
    (root / "submission" / name).write_bytes(content)
    metadata = {
        "id": 900000 + user_id,
        "created_at": "2026-12-05T10:00:00.000000-08:00",
        "assignment": {"title": "a lesson", "total_points": "13.0"},
        "users": [{"email": f"s{user_id}@example.edu", "id": user_id, "name": f"Student {user_id}"}],
        "previous_submissions": [],
    }
    (root / "submission_metadata.json").write_text(json.dumps(metadata))


def run_autograder(
    root: Path, python: str | None = None, fake_bin: Path | None = None, timeout: float = 600, wrap: list[str] = ()
):
    """Gradescope's call: run_autograder in /autograder (here ``root``); ``wrap``: the command it
    runs under (a mount namespace without cgroups, say)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    env["COURSE_GRADESCOPE_ROOT"] = str(root)
    if python:
        env["COURSE_GRADESCOPE_PYTHON"] = python
    if fake_bin:
        env["PATH"] = f"{fake_bin}:{env['PATH']}"
    proc = subprocess.run(
        [*wrap, str(root / "run_autograder")], cwd=root, env=env, capture_output=True, text=True, timeout=timeout
    )
    print(proc.stdout[-3000:], proc.stderr[-3000:])
    return proc


def results(root: Path) -> dict:
    """results.json as Gradescope would read it, validated against the schema."""
    data = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(data, SCHEMA)
    return data


def fake_bwrap(folder: Path, probe_passes: bool) -> Path:
    """A ``bwrap`` first on PATH: ``probe_passes=False``, one that cannot make namespaces (a
    container without user namespaces: the grader falls back to rlimits and Landlock);
    ``probe_passes=True``, one that passes the grader's probe and then starts nothing (a sandbox
    that cannot start: the grader's fault)."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = 'for last; do :; done\n[ "$last" = /bin/true ] && exit 0\n' if probe_passes else ""
    script = folder / "bwrap"
    script.write_text(f"#!/bin/sh\n{probe}echo 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return folder


def per_check(data: dict) -> dict[str, float]:
    """{grade id: score} of results.json's tests: what grade writes to tests.csv."""
    return {t["extra_data"]["grade_id"]: t["score"] for t in data["tests"]}
