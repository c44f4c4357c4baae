"""Where the student's process runs: fresh Linux namespaces (bubblewrap), caps, and a fallback.

With bubblewrap (Debian's ``bubblewrap`` package; ``make test`` installs it as root), every student
process gets
- a new network namespace: no interface but a loopback of its own, so no TCP, MPTCP, UDP or any
  other socket reaches anything; it talks to the checker over two pipes only;
- a new PID namespace with ``--die-with-parent``: when its checker ends, is killed or times it out,
  every process the student started is gone with it; ``--new-session``: no terminal to write to;
- a new user namespace mapped to an unprivileged uid (65534), whatever user runs the grader;
- a filesystem of only the read-only Python installation and system libraries, its own work folder
  (shared with its checker, which reads what it writes there), the checker's input folder
  read-only (the files a test hands to the student's code), and private ``/tmp`` and
  ``/dev/shm`` (size-capped, gone with it); no ``/etc/shadow``, no other ``/proc``, no repository;
- caps (rlimits, set before bwrap starts and inherited): address space, file size, open files,
  no core dumps; and, where the grader may create one, a cgroup (cgroup.py) capping processes and
  threads, the memory they hold together and the CPU they use (a fork bomb or a thread flood stops
  there, and the row says "process limit reached"; forked children holding memory, "memory limit
  reached").
Landlock (landlock.py) is applied inside as a second layer where the kernel has it.

Without bubblewrap or user namespaces (macOS, some containers), the process runs with the caps and
Landlock only, in its own session so that it can be killed as a group; the grader says so once.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import cgroup as cgroups
from .cgroup import Cgroup, new_cgroup
from ..core.settings import Limits
from ...words import human_bytes

GRADER = Path(__file__).resolve().parent.parent  # autograder/grader
# copied side by side into the sandbox's code folder, where student_side.py imports the other two
SANDBOX_FILES = ("sandbox/student_side.py", "core/wire.py", "sandbox/landlock.py")
UNPRIVILEGED = 65534


@functools.lru_cache(maxsize=1)
def bwrap_works() -> str:
    """'' when bubblewrap can make the namespaces here, else why not (one line)."""
    exe = shutil.which("bwrap")
    if not exe:
        return "bubblewrap (bwrap) is not installed"
    probe = [
        exe,
        "--unshare-all",
        "--die-with-parent",
        "--uid",
        str(UNPRIVILEGED),
        "--gid",
        str(UNPRIVILEGED),
        *_system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        "/bin/true",
    ]
    try:
        proc = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap failed to start ({exc})"
    return (
        ""
        if proc.returncode == 0
        else "bwrap cannot create namespaces here: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    )


def describe(limits: Limits | None = None) -> str:
    """One line for the start of a grading run: which layers hold, and the limits (in GiB, MiB)."""
    limits = limits or Limits()
    why = bwrap_works()
    cg = cgroups.describe(limits) or "no cgroup (processes capped only by rlimits, memory per process only)"
    caps = (
        f"limits per student process: {human_bytes(limits.memory_bytes)} address space, files up to "
        f"{human_bytes(limits.file_bytes)}, {limits.open_files} open files; work folder "
        f"{human_bytes(limits.work_bytes)}, {limits.work_files:,} files"
    )
    if not why:
        return (
            "sandbox: bubblewrap namespaces (no network, own PIDs, uid 65534, read-only Python, "
            f"private /tmp and /dev/shm of {human_bytes(limits.tmpfs_bytes)}); {cg}; {caps}"
        )
    return (
        f"WARNING: {why}: student code runs WITHOUT namespaces, only with rlimits and Landlock "
        f"where present (see docs/GRADING.md: install bubblewrap, or grade in a container); {caps}"
    )


def _system_binds() -> list[str]:
    args = []
    for path in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin"):
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in (
        "/etc/ld.so.cache",
        "/etc/ld.so.conf",
        "/etc/ld.so.conf.d",
        "/etc/localtime",
        "/etc/fonts",
        "/etc/alternatives",
    ):
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _accelerator_nodes() -> list[str]:
    """Device files of NVIDIA GPUs and TPUs (/dev/nvidia*, /dev/accel*, /dev/vfio)."""
    import glob

    return sorted(glob.glob("/dev/nvidia*") + glob.glob("/dev/accel*") + glob.glob("/dev/vfio"))


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


# The first program of every student process: a fresh interpreter (no threads yet, so no fork
# hazard) that sets the caps, joins the cgroup, asks for SIGKILL when the checker dies, and execs
# bwrap (or, without it, the student's Python in a session of its own). It runs as the grader's
# user outside every layer of the sandbox, so it runs with ``-I -S``: no site hook (a ``.pth``
# file, sitecustomize) is ever executed there; it needs nothing beyond the standard library.
LAUNCHER = """
import ctypes, json, os, resource, sys
spec = json.loads(sys.argv[1])
for name, value in spec["rlimits"].items():
    resource.setrlimit(getattr(resource, name), (value, value) if name != "RLIMIT_NPROC" else
                       (value, resource.getrlimit(resource.RLIMIT_NPROC)[1]))
for folder in spec["cgroups"]:
    with open(os.path.join(folder, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
if spec["setsid"]:
    os.setsid()
ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG: SIGKILL when the checker dies
if os.getppid() != spec["parent"]:
    sys.exit(0)  # the checker died before prctl took hold
os.execv(sys.argv[2], sys.argv[2:])
"""


@dataclass
class Launch:
    """How to start one student process: ``command()`` is what the checker runs."""

    argv: list[str]
    env: dict
    cgroup: Cgroup | None
    limits: Limits
    namespaced: bool
    notes: list[str] = field(default_factory=list)

    def shown(self) -> list[str]:
        """The host folders the student's process is shown (bubblewrap's bind sources)."""
        binds = ("--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try")
        return [os.path.realpath(self.argv[i + 1]) for i, a in enumerate(self.argv[:-1]) if a in binds]

    def command(self) -> list[str]:
        lim = self.limits
        rlimits = {"RLIMIT_CORE": 0, "RLIMIT_FSIZE": lim.file_bytes, "RLIMIT_NOFILE": lim.open_files}
        if lim.memory_bytes:
            rlimits["RLIMIT_AS"] = lim.memory_bytes
        if os.getuid() != 0:  # root is exempt from RLIMIT_NPROC: the cgroup caps it there
            rlimits["RLIMIT_NPROC"] = lim.processes
        spec = {
            "rlimits": rlimits,
            "cgroups": [str(f) for f in self.cgroup.folders] if self.cgroup else [],
            "setsid": not self.namespaced,
            "parent": os.getpid(),
        }
        import json

        return [sys.executable, "-I", "-S", "-c", LAUNCHER, json.dumps(spec), *self.argv]


def python_executable() -> str:
    """This interpreter, through its real folder: a virtual environment reached through a symlink
    (conda, pyenv, a shared install) is bound at its real path (``python_paths``), so the link's
    own path does not exist in the sandbox. The file name is kept: a venv's ``python`` is itself a
    link to the base interpreter, and following it would leave the venv."""
    return os.path.join(os.path.realpath(os.path.dirname(sys.executable)), os.path.basename(sys.executable))


def prepare(
    job_dir: Path, workdir: Path, limits: Limits, repository: Path, emulation: str, inputs: Path | None = None
) -> Launch:
    """The command for a student process whose only writable folder is ``workdir``; ``inputs``
    (where the checker writes the files its tests hand to the student) is there read-only."""
    code_dir = job_dir / "sandbox-code"
    code_dir.mkdir(exist_ok=True)
    for name in SANDBOX_FILES:
        shutil.copy(GRADER / name, code_dir / Path(name).name)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(workdir),
        "TMPDIR": str(workdir / "tmp"),
        "MPLCONFIGDIR": str(workdir / ".matplotlib"),
        "MPLBACKEND": "agg",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "COURSE_EMULATE": emulation,
        "COURSE_LANDLOCK_RW": str(workdir),
        "COURSE_LANDLOCK_RO": str(inputs) if inputs is not None else "",
        "COURSE_REPOSITORY": str(repository.resolve()),
        "COURSE_SITE_PATHS": os.pathsep.join(site_paths(repository)),  # for its ``-S`` (student_side.py)
        "LANG": "C.UTF-8",
    }
    for key in ("JAX_PLATFORMS", "XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "TPU_VISIBLE_CHIPS", "LD_LIBRARY_PATH"):
        if key in os.environ:
            env[key] = os.environ[key]
    (workdir / "tmp").mkdir(exist_ok=True)
    # -I -S: no site hook runs in the student's Python either (under the fallback a .pth file would
    # run before its Landlock layer); its site-packages come from COURSE_SITE_PATHS, as plain folders
    python = [python_executable(), "-I", "-S", str(code_dir / "student_side.py")]
    cgroup = new_cgroup(limits)
    if bwrap_works():
        return Launch(python, env, cgroup, limits, namespaced=False)
    argv = [
        shutil.which("bwrap"),
        "--unshare-all",
        "--unshare-user",
        "--die-with-parent",
        "--new-session",
        "--uid",
        str(UNPRIVILEGED),
        "--gid",
        str(UNPRIVILEGED),
        "--hostname",
        "sandbox",
        *_system_binds(),
        # the private /tmp and /dev first: a Python installation or a work folder below /tmp
        # (a CI clone in /tmp, say) is bound on top of them, not hidden by them
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(limits.tmpfs_bytes),
        "--tmpfs",
        "/tmp",
        "--size",
        str(limits.tmpfs_bytes),
        "--tmpfs",
        "/dev/shm",
    ]
    for node in _accelerator_nodes():  # a GPU or TPU machine grades on its device
        argv += ["--dev-bind", node, node]
    for path in python_paths(repository):
        argv += ["--ro-bind", path, path]
    argv += [
        "--bind",
        str(workdir),
        str(workdir),
        # tmp, where the checker makes each test's folders, bound on its own: a mount point the
        # student cannot rename, remove or replace by a symlink to somewhere else on the host
        "--bind",
        str(workdir / "tmp"),
        str(workdir / "tmp"),
        "--ro-bind",
        str(code_dir),
        str(code_dir),
    ]
    if inputs is not None:  # the tests' input files: readable, never writable (docs/AUTHORING.md)
        argv += ["--ro-bind", str(inputs), str(inputs)]
    argv += [
        "--chdir",
        str(workdir),
        "--disable-userns",
        "--clearenv",
    ]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    return Launch(argv + ["--"] + python, env, cgroup, limits, namespaced=True)
