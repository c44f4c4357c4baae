"""The Python installation a student's process runs: where it is, what of it the sandbox shows.

Its real folders (a virtual environment reached through a symlink is bound at its real path), its
site-packages (handed to the student's ``python -I -S`` as plain folders), and never the course
repository (an editable install puts it on sys.path, and it holds the solutions and hidden tests).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def python_paths(repository: Path) -> list[str]:
    """The Python installation: its prefixes and the site-packages folders on sys.path, never the
    course repository (an editable install puts it on sys.path) nor the current folder."""
    repo = str(repository.resolve())
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    if any(repo == p or repo.startswith(p + os.sep) for p in prefixes):
        repo = "/nonexistent"  # a non-editable install: the "repository" is site-packages itself
    paths = set(prefixes)
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if (
            real
            and os.path.isdir(real)
            and (
                "site-packages" in real or "dist-packages" in real or any(real.startswith(p + os.sep) for p in prefixes)
            )
        ):
            paths.add(real)
    keep = sorted(
        p
        for p in paths
        if not p.startswith(("/usr/", "/lib"))
        and p not in ("/usr", "/")
        and not (
            p == repo
            or (
                p.startswith(repo + os.sep)
                and not any(p.startswith(q) for q in prefixes if q.startswith(repo + os.sep))
            )
        )
    )
    return [p for p in keep if not any(p != q and p.startswith(q + os.sep) for q in keep)]


def site_paths(repository: Path) -> list[str]:
    """The site-packages folders on this interpreter's sys.path (a venv's, the base's, conda's, an
    egg's inside one), real paths in order, never the repository: handed to the student's Python,
    which starts with ``-S`` and so runs no ``.pth`` file or sitecustomize of its own."""
    repo = os.path.realpath(repository)
    prefixes = [os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    out: list[str] = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if (
            not real
            or real in out
            or not os.path.isdir(real)
            or not ("site-packages" in real or "dist-packages" in real)
        ):
            continue  # the standard library's own folders are there with -S too
        if (real == repo or real.startswith(repo + os.sep)) and not real.startswith(tuple(prefixes)):
            continue  # the repository (an editable install's .pth may name it), not a venv inside it
        out.append(real)
    return out


def python_executable() -> str:
    """This interpreter, through its real folder: a virtual environment reached through a symlink
    (conda, pyenv, a shared install) is bound at its real path (``python_paths``), so the link's
    own path does not exist in the sandbox. The file name is kept: a venv's ``python`` is itself a
    link to the base interpreter, and following it would leave the venv."""
    return os.path.join(os.path.realpath(os.path.dirname(sys.executable)), os.path.basename(sys.executable))


def reach(repository: Path, code_dir: Path, workdir: Path, inputs: Path | None) -> list[str]:
    """What the student's process must read (real paths): the Python installation, its standard
    library and site-packages, the sandbox's code, the work and input folders (launcher.py checks
    that uid 65534 can, and makes the way there where it cannot)."""
    import sysconfig

    paths = [*python_paths(repository), *site_paths(repository), os.path.dirname(python_executable())]
    paths += [os.path.realpath(python_executable())]
    paths += [sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")]
    paths += [str(code_dir), str(workdir), str(workdir / "tmp")] + ([str(inputs)] if inputs is not None else [])
    return list(dict.fromkeys(os.path.realpath(p) for p in paths))
