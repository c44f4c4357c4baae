"""Publish the student-only course: ``python -m autograder publish DIR``.

The full course (solutions/ with its reference solutions and hidden tests, tests/, autograder/,
examples/) can stay in the instructors' private repository while students get a public one. This
writes, into DIR, only what students need:

- ``notebooks/``: the student release, built from solutions/ by the same code as
  ``python -m autograder release``, its Open-in-Colab badges opening the public repository
  (``[tool.course] student_repository`` in pyproject.toml; unset, publish refuses unless
  ``--upstream-is-public`` says the badges are meant to open ``repository``). It must be
  the committed release: a notebook may differ from notebooks/ only in that badge URL, and
  publish refuses (changing nothing) when solutions/ was edited without ``release``;
- ``README.md``: from the template ``autograder/course/templates/student_README.md`` (the instructor's
  to edit): what the course teaches, the lesson table with its Colab badges, how to run a lesson,
  how to check an answer, where the quoted numbers come from (the pinned JAX, the chip's record)
  and how to submit, the licence;
- ``requirements.txt``: the pinned packages a learner needs on their own machine;
- the licence files (``LICENSE``, and ``NOTICE`` if there is one).

DIR must be missing, empty, or a previous publish (a clone of the student repository: entries
whose names start with ``.git`` are left alone). Anything else in it makes publish refuse before
it deletes anything, so that a mistyped DIR costs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

from ..common.config import RELEASE_DIR, ROOT, colab_url, course_settings, emulation_url, student_repository
from ..common.notebooks import lessons
from .release import build_release, count_word, learn_list, lessons_table, release_differences
from ..common.words import plural

LICENCE_FILES = ("LICENSE", "NOTICE")
OWNED = (RELEASE_DIR, "README.md", "requirements.txt", *LICENCE_FILES)
# What a learner installs to run the notebooks locally (pins taken from pyproject.toml).
STUDENT_PACKAGES = ("jax", "jaxlib", "numpy", "ml_dtypes", "matplotlib", "xprof", "jupyterlab")

# The student README: a template the instructor may edit. Its placeholders, each replaced as it
# stands (other braces are text): {title} (the repository README's title line), {intro} (the
# repository README's opening, written for instructors: the course's own template does not use it),
# {table} (the lessons with their badges), {count} (how many lessons, as a word: "Six"), {learn} (a
# line per lesson, "- **NN short title**: ...", from each lesson's lesson.toml), {licence},
# {student_repository}, {jax} (the JAX version requirements.txt pins), {chip_jax} (the JAX version
# of the chip's record, CHIP_RECORD).
STUDENT_README = Path(__file__).resolve().parent / "templates" / "student_README.md"
# The record of the one TPU the lessons' chip notes were measured on (python -m autograder.chip.hardware run).
CHIP_RECORD = "tests/data/tpu/hardware.json"


class PublishError(Exception):
    """Publishing would be wrong or destructive; nothing was written."""


def intro(root: Path = ROOT) -> str:
    """The repository README's opening: its title and what the course is, up to the first section."""
    text = (root / "README.md").read_text()
    return text.split("\n## ", 1)[0].rstrip() + "\n"


def title(root: Path = ROOT) -> str:
    """The repository README's title line."""
    return (root / "README.md").read_text().split("\n", 1)[0].rstrip()


def chip_versions(root: Path = ROOT) -> dict[str, str]:
    """The software versions of the chip's record (CHIP_RECORD): what the lessons' chip notes ran."""
    path = root / CHIP_RECORD
    if not path.is_file():
        raise PublishError(f"{path} is missing: the student README names the chip record's JAX version")
    return json.loads(path.read_text())["environment"]["versions"]


def pinned_version(root: Path, package: str) -> str:
    """The version pyproject.toml pins for ``package`` (``name==version``)."""
    with open(root / "pyproject.toml", "rb") as f:
        pins = tomllib.load(f)["project"]["dependencies"]
    for pin in pins:
        if package_name(pin) == package_name(package) and "==" in pin:
            return pin.split("==", 1)[1].split(";", 1)[0].strip()
    raise PublishError(f"pyproject.toml pins no {package}==VERSION")


def package_name(requirement: str) -> str:
    return re.split(r"[=<>!~\[; ]", requirement, maxsplit=1)[0].lower().replace("-", "_")


def requirements(root: Path = ROOT) -> str:
    """requirements.txt: pyproject.toml's pins of the packages in STUDENT_PACKAGES."""
    with open(root / "pyproject.toml", "rb") as f:
        pins = tomllib.load(f)["project"]["dependencies"]
    chosen = [p for p in pins if package_name(p) in STUDENT_PACKAGES]
    missing = set(STUDENT_PACKAGES) - {package_name(p) for p in chosen}
    if missing:
        raise PublishError(f"pyproject.toml lists no {', '.join(sorted(missing))}: update STUDENT_PACKAGES")
    return "# What the notebooks need on your own machine: pip install -r requirements.txt\n" + "\n".join(chosen) + "\n"


def student_readme(root: Path = ROOT, repository: str | None = None) -> str:
    with open(root / "pyproject.toml", "rb") as f:
        licence = tomllib.load(f)["project"].get("license", {}).get("text", "")
    named = f"{licence} (see [LICENSE](LICENSE))" if licence else "see [LICENSE](LICENSE)"
    fill = {
        "{title}": title(root),
        "{intro}": intro(root),
        "{jax}": pinned_version(root, "jax"),
        "{chip_jax}": chip_versions(root)["jax"],
        "{table}": lessons_table(root, repository),
        "{count}": count_word(len(lessons(root))),
        "{learn}": learn_list(root),
        "{licence}": f"The course is licensed under {named}.",
        "{student_repository}": repository or student_repository(root),
    }
    return re.sub("|".join(map(re.escape, fill)), lambda m: fill[m.group(0)], STUDENT_README.read_text())


def check_target(out: Path) -> None:
    """Refuse a DIR that holds anything publish did not write (or git's own files)."""
    if out.exists() and not out.is_dir():
        raise PublishError(f"{out} is not a folder")
    if not out.exists():
        return
    foreign = sorted(p.name for p in out.iterdir() if p.name not in OWNED and not p.name.startswith(".git"))
    if foreign:
        raise PublishError(
            f"{out} holds {', '.join(foreign[:8])}{' ...' if len(foreign) > 8 else ''}, "
            "which publish did not write; give it an empty folder, a new one, or a "
            "clone of the student repository (nothing was changed)"
        )


def unreleased(fresh: Path, root: Path, repository: str) -> list[str]:
    """Files of the fresh release (badges opening ``repository``) that are not the committed
    notebooks/ with its badge URLs pointed at ``repository``."""

    def badge_moved(rel: Path, data: bytes) -> bytes:
        if len(rel.parts) == 1:  # the emulation module beside the lessons: no badge
            return data
        lesson = rel.parts[0]
        data = data.replace(emulation_url(root).encode(), emulation_url(root, repository).encode())
        return data.replace(colab_url(lesson, root).encode(), colab_url(lesson, root, repository).encode())

    return release_differences(fresh, root / RELEASE_DIR, badge_moved)


NO_STUDENT_REPOSITORY = (
    "pyproject.toml sets no [tool.course] student_repository, so the published badges would open "
    "the instructor's repository: set student_repository to your public student repository's URL "
    "(docs/INSTRUCTORS.md), or pass --upstream-is-public if students are meant to open {repository}"
)


def publish(out: Path, root: Path = ROOT, upstream_is_public: bool = False) -> list[str]:
    """Write the student-only tree into ``out``; returns the lessons published. Without
    ``[tool.course] student_repository`` it refuses unless ``upstream_is_public`` says that the
    badges are meant to open ``repository`` itself."""
    if not course_settings(root).get("student_repository") and not upstream_is_public:
        raise PublishError(NO_STUDENT_REPOSITORY.format(repository=course_settings(root)["repository"]))
    if os.environ.get("COURSE_LESSONS"):
        raise PublishError("COURSE_LESSONS is set: publish always publishes every lesson (unset it)")
    if not (root / "LICENSE").is_file():
        raise PublishError(f"{root / 'LICENSE'} is missing: the published course needs its licence")
    check_target(out)
    repository = student_repository(root)
    with tempfile.TemporaryDirectory(prefix="course-publish-") as tmp:
        fresh = Path(tmp) / RELEASE_DIR
        names = build_release(fresh, root, repository=repository)
        problems = unreleased(fresh, root, repository)
        if problems:
            raise PublishError(
                "\n".join(problems) + f"\nThe committed {RELEASE_DIR}/ is not the release of "
                "solutions/: run `python -m autograder release`, commit, then publish"
            )
        readme, reqs = student_readme(root, repository), requirements(root)
        out.mkdir(parents=True, exist_ok=True)
        for name in OWNED:  # a previous publish: replaced as a whole (a dropped lesson goes too)
            old = out / name
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            elif old.exists() or old.is_symlink():
                old.unlink()
        shutil.copytree(fresh, out / RELEASE_DIR)
    (out / "README.md").write_text(readme)
    (out / "requirements.txt").write_text(reqs)
    for name in LICENCE_FILES:
        if (root / name).is_file():
            shutil.copyfile(root / name, out / name)
    return names


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder publish",
        description="Write the student-only course (no solutions/, tests/, autograder/, examples/) into DIR.",
    )
    parser.add_argument("dir", type=Path, help="an empty folder, a new one, or a clone of the student repository")
    parser.add_argument(
        "--upstream-is-public",
        action="store_true",
        help="publish with badges opening [tool.course] repository although student_repository is "
        "unset (only when that repository is the one students should open)",
    )
    args = parser.parse_args(argv)
    try:
        names = publish(args.dir, root, upstream_is_public=args.upstream_is_public)
    except PublishError as exc:
        print(f"publish: {exc}", file=sys.stderr)
        return 1
    print(
        f"Published {plural(len(names), 'lesson')} to {args.dir}/ (badges open {student_repository(root)}): "
        f"{', '.join(sorted(p.name for p in args.dir.iterdir() if not p.name.startswith('.git')))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
