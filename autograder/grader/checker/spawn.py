"""Starting a notebook's checker: forked from a warm zygote, so it does not import JAX again.

Every checker is the same trusted code and imports the same modules (NumPy, JAX, the grader):
about 1.3 CPU-seconds a notebook, a sixth of grading one. Each worker process therefore keeps one
zygote, a ``python -I -S`` that has imported them and does nothing else; a checker is a fork of it,
given its working folder, environment, address-space cap and pipes (sent over a Unix socket) and
then run exactly as a fresh interpreter would run it. Only trusted code ever runs in a zygote: no
student's code, no lesson cell (the checker runs those after the fork). A checker is reaped only
when its worker asks, so its pid cannot be reused while the worker may still signal its process group.
The zygote ends when its worker does (its socket closes), a checker with its zygote (PDEATHSIG).
Where fork or pidfd is missing (not Linux), or COURSE_NO_ZYGOTE=1 (to compare), ``start_checker``
starts a fresh interpreter.

Both start with ``-I -S``, like the student's process (sandbox/launch.py): no ``.pth`` file or
sitecustomize of site-packages ever runs in them (a checker tricked into writing one, issue 42,
would otherwise run it in every later checker); their ``sys.path`` and prefixes are the worker's own, handed to
them as plain data (``site_of_worker``), so they import from the same site-packages and the same
course package. A checker's first steps (``checker_main``), while it has a single thread: a mount
namespace of its own where its worker found one possible (the student's work folder is a
size-capped file system there, sandbox/workfs.py), then the child subreaper of every process its
student starts (sandbox/reaper.py), then its write confinement (guard.py).
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

from ..core.settings import NO_COMPILE_MEMO_ENV, NO_ZYGOTE_ENV, PRIVATE_MOUNTS_ENV

PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])
_FIRST = (
    "import sys, json; site = json.loads(sys.argv[1]); sys.path[:] = site['path']; "
    "sys.prefix, sys.exec_prefix = site['prefix'], site['exec_prefix']; "
    "from autograder.grader.checker.spawn import "
)
CHECKER_MAIN = _FIRST + "checker_main; checker_main()"
ZYGOTE_MAIN = _FIRST + "serve; serve()"
JOB_FOLDER_ENV = "COURSE_JOB_FOLDER"  # the one folder a checker writes in (guard.confine)
PER_JOB = ("HOME", "TMPDIR", "MPLCONFIGDIR", "COURSE_EMULATE", JOB_FOLDER_ENV)  # set in each checker after the fork
# the worker's environment a checker keeps (an allowlist: no secret of the grader's reaches the
# tests' code, nor through it a student's page): the locale, the search path, the accelerator's
KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "LD_LIBRARY_PATH")
KEPT_PREFIXES = ("JAX_", "XLA_", "TPU_", "LIBTPU_", "PJRT_", "CUDA_", "NVIDIA_", "NCCL_", "TF_CPP_")
WARM = ("numpy", "ml_dtypes", "jax", "jax.numpy", "autograder.grader.checker.main", "autograder.grader.core.observer")


def site_of_worker() -> str:
    """What ``site`` gave this worker, for a ``python -I -S`` (JSON): its sys.path from the standard
    library on (the course package first, then the standard library, the site-packages and the
    folders their ``.pth`` files added here; never the current folder, the script's or PYTHONPATH's,
    which come before it and which ``-I`` leaves out; no ``.pth`` file runs again to find them) and
    its prefixes (a virtual environment's, which ``site`` sets: launch.py binds and the student's
    Landlock layer reads the installation from them)."""
    stdlib = os.path.dirname(os.__file__)
    first = next(
        (
            i
            for i, p in enumerate(sys.path)
            if p == stdlib or (p.endswith(".zip") and os.path.dirname(p) == os.path.dirname(stdlib))
        ),
        0,
    )
    paths = [PACKAGE_ROOT] + [p for p in sys.path[first:] if p and os.path.isabs(p) and p != os.getcwd()]
    return json.dumps({"path": list(dict.fromkeys(paths)), "prefix": sys.prefix, "exec_prefix": sys.exec_prefix})


def limit_and_tie(memory_cap: int) -> None:
    """In a checker before it runs: an address-space cap, its own process group, and SIGKILL when
    its parent dies (the student's process dies with the checker: bwrap --die-with-parent)."""
    import resource

    if memory_cap:  # the soft limit caps the checker; the hard one stays, so that the student's
        # process it starts may set its own cap (Limits.memory_bytes), larger or not, without
        # CAP_SYS_RESOURCE (which a container's root often lacks)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (memory_cap, hard))
    os.setpgrp()
    _die_with_parent()


def _die_with_parent() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Forked:
    """A checker forked by the zygote, as much of ``subprocess.Popen`` as notebook/watch.py uses."""

    def __init__(self, zygote: Zygote, pid: int, stdin, stdout):
        self.zygote, self.pid, self.stdin, self.stdout = zygote, pid, stdin, stdout
        self.pidfd = os.pidfd_open(pid)  # it stays a zombie until reaped: the pid cannot be reused
        self.returncode = None

    def wait(self) -> int:
        if self.returncode is None:
            select.select([self.pidfd], [], [])
            self.returncode = self.zygote.reap(self.pid)
            os.close(self.pidfd)
            self.stdout.close()
        return self.returncode


class Zygote:
    """One per worker process, started on first use."""

    def __init__(self, env: dict):
        self.env = env
        ours, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", ZYGOTE_MAIN, site_of_worker(), str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            pass_fds=(theirs.fileno(),),
            # no PR_SET_PDEATHSIG here: it fires when the creating THREAD ends (a Dask worker runs
            # jobs on a thread pool); the zygote ends when its socket does, i.e. with the worker
        )
        theirs.close()
        self.sock = ours

    def _ask(self, request: dict, fds: list[int] = ()) -> dict:
        socket.send_fds(self.sock, [json.dumps(request).encode()], list(fds))
        reply = self.sock.recv(4096)
        if not reply:
            raise OSError("the zygote ended")
        return json.loads(reply)

    def fork(self, cwd: str, env: dict, memory_cap: int, stderr_path: Path) -> Forked:
        r_in, w_in = os.pipe()
        r_out, w_out = os.pipe()
        err = os.open(stderr_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            pid = self._ask({"op": "fork", "cwd": cwd, "env": env, "cap": memory_cap}, [r_in, w_out, err])["pid"]
        finally:
            for fd in (r_in, w_out, err):
                os.close(fd)
        return Forked(self, pid, os.fdopen(w_in, "wb"), os.fdopen(r_out, "rb"))

    def reap(self, pid: int) -> int:
        return self._ask({"op": "reap", "pid": pid})["status"]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """End the zygote (it ends when its socket closes) and wait for it."""
        self.sock.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# Module state, by necessity: a worker process keeps its zygotes (one per checker environment) across
# the notebooks it grades, and stop_zygotes ends them; nothing else holds them.
_ZYGOTES: dict[str, Zygote] = {}  # this worker's, by environment


def stop_zygotes() -> None:
    """End this process's zygotes: for a process that grades once and goes on (the parent's
    solution canary), not a worker, whose zygote ends with it."""
    while _ZYGOTES:
        _ZYGOTES.popitem()[1].close()


def checker_env(home: Path, emulation: str) -> dict:
    """The checker's environment: of this worker's, only the allowlisted (KEPT_ENV, KEPT_PREFIXES),
    with the checker's own home, configuration and working folder (none of them a student's; home
    is ``checker`` in its job folder, notebook/watch.py, the one folder it writes in), and no folder of
    compiled programs (JAX_COMPILATION_CACHE_DIR): one the student's process could write, as in the
    fallback without namespaces, would run its executables in the checker (its replays'
    compilations are kept in its memory and, under bubblewrap only, in the run's private folder:
    replay_cache.py, replay_folder.py)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if (k in KEPT_ENV or k.startswith(KEPT_PREFIXES)) and not k.startswith("JAX_COMPILATION_CACHE")
    }
    env.update(
        HOME=str(home),
        TMPDIR=str(home / "tmp"),
        MPLBACKEND="agg",
        MPLCONFIGDIR=str(home / ".mpl"),
        COURSE_EMULATE=emulation,
    )
    env[JOB_FOLDER_ENV] = str(home.parent)
    if os.environ.get(NO_COMPILE_MEMO_ENV) == "1":  # compile_events.memo_bytes reads it (to compare)
        env[NO_COMPILE_MEMO_ENV] = "1"
    from ..sandbox.launch import work_folder_capped

    if not work_folder_capped():  # each checker makes its student's work folder a file system of its own
        env[PRIVATE_MOUNTS_ENV] = "1"
    return env


def checker_main() -> None:
    """A checker's first code, forked or started, while it has one thread: a mount namespace of its
    own where its worker asks (workfs.enter), the subreaper of its student's processes, its writes
    confined to its job folder, the run's folder of compiled replays and its student's cgroup
    (guard.confine) before the checker's first line, then the checker. No job folder named: it
    stops (never an unconfined checker)."""
    from ..sandbox import cgroup, guard, reaper, workfs

    if os.environ.get(PRIVATE_MOUNTS_ENV) == "1" and workfs.enter():  # refused: the host's folder, watched
        _die_with_parent()  # asked again: a change of credentials may clear it
    reaper.become_subreaper()
    roots = [os.environ[JOB_FOLDER_ENV], *(str(p) for p in cgroup.cgroup_roots().values())]
    guard.confine(roots)
    from .main import main

    main()


def start_checker(env: dict, cwd: str, memory_cap: int, stderr_path: Path):
    """A checker process reading its job on stdin and writing events on stdout."""
    if hasattr(os, "pidfd_open") and hasattr(socket, "send_fds") and os.environ.get(NO_ZYGOTE_ENV) != "1":
        key = json.dumps(sorted((k, v) for k, v in env.items() if k not in PER_JOB))
        zygote = _ZYGOTES.get(key)
        try:
            if zygote is None or not zygote.alive():
                zygote = _ZYGOTES[key] = Zygote({k: v for k, v in env.items() if k not in PER_JOB})
            return zygote.fork(cwd, env, memory_cap, stderr_path)
        except OSError:
            _ZYGOTES.pop(key, None)  # a broken zygote: a fresh interpreter this time, a new zygote next
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", CHECKER_MAIN, site_of_worker()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=open(stderr_path, "ab"),
        env=env,
        cwd=cwd,
        preexec_fn=lambda: limit_and_tie(memory_cap),
    )


def serve() -> None:
    """The zygote: import, then fork a checker for each request until the worker goes."""
    import importlib

    for name in WARM:
        importlib.import_module(name)
    sys.modules["autograder.grader.core.observer"].plugin()  # the diagnosis plug-in too, where it is installed
    sock = socket.socket(fileno=int(sys.argv[2]))
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            os._exit(0)
        if not data:
            os._exit(0)
        request = json.loads(data)
        if request.get("op") == "reap":
            try:
                _, status = os.waitpid(int(request["pid"]), 0)
                code = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                code = -9
            sock.sendall(json.dumps({"status": code}).encode())
            continue
        pid = os.fork()
        if pid == 0:  # the checker
            code = 1
            try:
                sock.close()
                for target, fd in zip((0, 1, 2), fds):
                    os.dup2(fd, target)
                    os.close(fd)
                os.chdir(request["cwd"])
                os.environ.clear()
                os.environ.update(request["env"])
                limit_and_tie(int(request["cap"]))
                checker_main()
                code = 0
            finally:
                os._exit(code)
        for fd in fds:
            os.close(fd)
        sock.sendall(json.dumps({"pid": pid}).encode())
