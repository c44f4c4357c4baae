"""Where the student's process runs: fresh Linux namespaces (bubblewrap), caps, and a fallback.

With bubblewrap (Debian's ``bubblewrap`` package; ``make test`` installs it as root), every student
process gets
- a new network namespace: no interface but a loopback of its own, so no TCP, MPTCP, UDP or any
  other socket reaches anything; it talks to the checker over two pipes only;
- a new PID namespace with ``--die-with-parent``: when its checker ends, is killed or times it out,
  every process the student started is gone with it; ``--new-session``: no terminal to write to;
- a new user namespace mapped to an unprivileged uid (65534), whatever user runs the grader;
- a filesystem of only the read-only Python installation and system libraries, a few ``/etc``
  files (landlock.ETC_FILES), its own work folder (shared with its checker, which reads what it
  writes there; a size-capped file system of its own where the checker could make one, workfs.py),
  the checker's input folder read-only (the files a test hands to the student's code), and
  private ``/tmp`` and ``/dev/shm`` (size-capped, gone with it); no ``/etc/shadow``, no other
  ``/proc``, no repository;
- caps (rlimits, set before bwrap starts and inherited): address space, file size, open files,
  no core dumps; and, where the grader may create one, a cgroup (cgroup.py) capping processes and
  threads, the memory they hold together and the CPU they use (a fork bomb or a thread flood stops
  there, and the row says "process limit reached"; forked children holding memory, "memory limit
  reached").
Landlock (landlock.py) is applied inside as a second layer where the kernel has it.

Without bubblewrap or user namespaces (macOS, some containers), the process runs with the caps and
Landlock only, in its own session so that it can be killed as a group (and, below a checker that
is their subreaper, every process it leaves behind: reaper.py); the grader says so once. Where the
grader runs as root there (Gradescope's containers), the launcher (launcher.py) switches the
student's process to uid and gid 65534 with no capability before any of its code runs, and the
grader makes what that user must reach reachable (owner.py); where it cannot, nothing is graded.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import cgroup as cgroups, owner, workfs
from .cgroup import Cgroup, new_cgroup
from .installation import python_executable, python_paths, reach, site_paths
from .landlock import ETC_FILES
from ..core import readings
from ..core.settings import UNPRIVILEGED, WORK_FS_SLACK_BYTES, WORK_FS_SLACK_FILES, Limits
from ...common.words import human_bytes

GRADER = Path(__file__).resolve().parent.parent  # autograder/grader
# copied side by side into the sandbox's code folder, where student_side.py imports the others
SANDBOX_FILES = (
    "sandbox/student_side.py",
    "core/wire.py",
    "sandbox/landlock.py",
    "sandbox/audit_rules.py",
    "sandbox/compile_memo.py",
)
LAUNCHER = Path(__file__).resolve().parent / "launcher.py"


def _probe_argv() -> list[str]:
    """bubblewrap's probe: the namespaces a student's process gets, running /bin/true."""
    exe = shutil.which("bwrap") or "bwrap"
    return [
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


@functools.lru_cache(maxsize=1)
def bwrap_works() -> str:
    """'' when bubblewrap can make the namespaces here, else why not (one line)."""
    if not shutil.which("bwrap"):
        return "bubblewrap (bwrap) is not installed"
    try:
        proc = subprocess.run(_probe_argv(), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap failed to start ({exc})"
    return (
        ""
        if proc.returncode == 0
        else "bwrap cannot create namespaces here: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    )


def work_folder_capped() -> str:
    """'' where each checker gives its student a work folder of its own file system (workfs.py),
    bubblewrap still starting inside where it does here; else why not (one line). Found once."""
    return workfs.available(tuple(_probe_argv()) if not bwrap_works() else ())


def drops_root(namespaced: bool) -> bool:
    """Whether the student's process is switched from root to uid 65534 (the fallback as root)."""
    return not namespaced and os.geteuid() == 0


def describe(limits: Limits | None = None) -> str:
    """One line for the start of a grading run: which layers hold, and the limits (in GiB, MiB)."""
    limits = limits or Limits()
    why = bwrap_works()
    cg = cgroups.describe(limits) or "no cgroup (processes capped only by rlimits, memory per process only)"
    folder = (
        "a file system of its own"
        if not work_folder_capped()
        else "measured twice a second (no file system of its own here)"
    )
    caps = (
        f"limits per student process: {human_bytes(limits.memory_bytes)} address space, files up to "
        f"{human_bytes(limits.file_bytes)}, {limits.open_files} open files; work folder "
        f"{human_bytes(limits.work_bytes)}, {limits.work_files:,} files, {folder}"
    )
    if not why:
        return (
            "sandbox: bubblewrap namespaces (no network, own PIDs, uid 65534, read-only Python, "
            f"private /tmp and /dev/shm of {human_bytes(limits.tmpfs_bytes)}); {cg}; {caps}"
        )
    user = "; as uid 65534 without capabilities (the grader is root)" if drops_root(False) else ""
    return (
        f"WARNING: {why}: student code runs WITHOUT namespaces, only with rlimits and Landlock "
        f"where present{user} (see docs/GRADING.md: install bubblewrap, or grade in a container); {cg}; {caps}"
    )


def _system_binds() -> list[str]:
    args = []
    for path in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin"):
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in ETC_FILES:  # the same the fallback's Landlock layer lets it read
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _accelerator_nodes() -> list[str]:
    """Device files of NVIDIA GPUs and TPUs (/dev/nvidia*, /dev/accel*, /dev/vfio)."""
    import glob

    return sorted(glob.glob("/dev/nvidia*") + glob.glob("/dev/accel*") + glob.glob("/dev/vfio"))


@dataclass
class Launch:
    """How to start one student process: ``command()`` is what the checker runs."""

    argv: list[str]
    env: dict
    cgroup: Cgroup | None
    limits: Limits
    namespaced: bool
    notes: list[str] = field(default_factory=list)
    drop: dict | None = None  # the fallback as root: the user it runs as, what it must reach (launcher.py)
    folders: tuple = ()  # (work folder, input folder): what ``hand_over`` keeps the student's

    def shown(self) -> list[str]:
        """The host folders the student's process is shown (bubblewrap's bind sources)."""
        binds = ("--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try")
        return [os.path.realpath(self.argv[i + 1]) for i, a in enumerate(self.argv[:-1]) if a in binds]

    def command(self) -> list[str]:
        """The launcher (launcher.py, a fresh ``python -I -S``), its spec, then ``argv``."""
        lim = self.limits
        rlimits = {"RLIMIT_CORE": 0, "RLIMIT_FSIZE": lim.file_bytes, "RLIMIT_NOFILE": lim.open_files}
        if lim.memory_bytes:
            rlimits["RLIMIT_AS"] = lim.memory_bytes
        # root is exempt from RLIMIT_NPROC (the cgroup caps it there); uid 65534 is not, but every
        # student graded at once shares it: it caps only where no cgroup caps each one
        if os.getuid() != 0 or (self.drop and self.cgroup is None):
            rlimits["RLIMIT_NPROC"] = lim.processes
        spec = {
            "rlimits": rlimits,
            "cgroups": [str(f) for f in self.cgroup.folders] if self.cgroup else [],
            "setsid": not self.namespaced,
            "parent": os.getpid(),
            "drop": self.drop,
        }
        import json

        return [sys.executable, "-I", "-S", str(LAUNCHER), json.dumps(spec), *self.argv]

    def hand_over(self) -> None:
        """Before a call of the student's, its processes frozen: under the fallback as root, what
        the checker made in the work and input folders since, the student's to use (owner.py)."""
        if self.drop and self.folders:
            work, inputs = self.folders
            owner.hand_over(work, inputs, self.drop["uid"], self.drop["gid"], self.limits.work_files)


def prepare(
    job_dir: Path,
    workdir: Path,
    limits: Limits,
    repository: Path,
    emulation: str,
    inputs: Path | None = None,
    reading: str = "",
) -> Launch:
    """The command for a student process whose only writable folder is ``workdir``; ``inputs``
    (where the checker writes the files its tests hand to the student) is there read-only.
    ``reading``: readings.OTHER for the chip's other choices (a second grading, core/readings.py)."""
    code_dir = job_dir / "sandbox-code"
    code_dir.mkdir(exist_ok=True)
    for name in SANDBOX_FILES:
        shutil.copy(GRADER / name, code_dir / Path(name).name)
    namespaced = not bwrap_works()
    drop = None
    if drops_root(namespaced):
        drop = {"uid": UNPRIVILEGED, "gid": UNPRIVILEGED}
    notes = []
    # in a checker with a mount namespace of its own: a file system of the work folder's size
    who = (UNPRIVILEGED, UNPRIVILEGED) if drop else (os.geteuid(), os.getegid())
    size, files = limits.work_bytes + WORK_FS_SLACK_BYTES, limits.work_files + WORK_FS_SLACK_FILES
    if workfs.cap(workdir, size, files, *who):
        notes.append(f"work folder: a file system of its own, {human_bytes(size)}, {files:,} files")
    (workdir / "tmp").mkdir(exist_ok=True)
    if drop:
        owner.share(job_dir, workdir, inputs, code_dir, *who, limits.work_files)
        drop["reach"] = reach(repository, code_dir, workdir, inputs)
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
    if reading == readings.OTHER:  # read by the emulation before any of the student's code runs
        env["COURSE_EMULATE_WITHOUT"] = readings.OTHER
    for key in ("JAX_PLATFORMS", "XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "TPU_VISIBLE_CHIPS", "LD_LIBRARY_PATH"):
        if key in os.environ:
            env[key] = os.environ[key]
    # -I -S: no site hook runs in the student's Python either (under the fallback a .pth file would
    # run before its Landlock layer); its site-packages come from COURSE_SITE_PATHS, as plain folders
    python = [python_executable(), "-I", "-S", str(code_dir / "student_side.py")]
    cgroup = new_cgroup(limits)
    folders = (workdir, inputs)
    if not namespaced:
        return Launch(python, env, cgroup, limits, namespaced=False, notes=notes, drop=drop, folders=folders)
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
    return Launch(argv + ["--"] + python, env, cgroup, limits, namespaced=True, notes=notes, folders=folders)
