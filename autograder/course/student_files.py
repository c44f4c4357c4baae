"""What a lesson refers to that a student of the published course does not have: the course
repository's own folders (tests/, docs/, autograder/, solutions/...) and its data files. The student
release carries notebooks/, the README, requirements.txt and the licence only
(``python -m autograder publish``); tests/test_prose.py holds the release to none of the rest.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

_URL = re.compile(r"https?://\S+|www\.\S+")


def repository_data_files(root: Path) -> set[str]:
    """The names of the repository's own .json and .npz files (a student has none of them)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "*.json", "*.npz"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = [str(p.relative_to(root)) for ext in ("json", "npz") for p in root.rglob(f"*.{ext}")]
    return {Path(p).name for p in listed if not p.startswith(("notebooks/", ".venv/"))}


# Folders of the course repository that the student release does not carry (autograder publish
# gives students notebooks/, README.md, requirements.txt and the licence).
INSTRUCTOR_FOLDERS = ("tests", "docs", "autograder", "solutions", "benchmarks", "examples", "deploy")


def unavailable_files(path: Path, data_files: set[str]) -> list[str]:
    """References in a notebook (markdown and code cells; URLs excepted) to the repository's
    folders a student does not have or to its data files."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    folders = re.compile(r"(?<![\w./-])(" + "|".join(INSTRUCTOR_FOLDERS) + r")/[\w./-]*")
    names = (
        re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(data_files))) + r")(?![\w.-])")
        if data_files
        else None
    )
    found = []
    for cell in cells:
        text = _URL.sub(" ", "".join(cell["source"]))
        found += [m.group(0) for m in folders.finditer(text)]
        if names:
            found += [m.group(0) for m in names.finditer(text)]
        found += re.findall(r"\b(?:HARDWARE|COURSE|AUTHORING|GRADING|INSTRUCTORS|SCALING|TESTING)\.md\b", text)
    return found
