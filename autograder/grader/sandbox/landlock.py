"""Landlock, the second layer of the student's sandbox (first: the namespaces of sandbox/launch.py).

An unprivileged Linux security module (5.13+) that binds root too. The student process applies it
to itself before any student code runs (student_side.py, with ``COURSE_LANDLOCK_RW`` naming the one
folder it may write): read-only access to the Python installation, the system folders and, of
``/etc``, only the few files Python and JAX read (ETC_FILES, the same bubblewrap shows), read-write
access to its work folder (never a device file made there: MAKE_CHAR and MAKE_BLOCK are handled and
granted nowhere), a few device files (DEVICES, an accelerator's) and its own ``/proc`` entry only
(never /dev/shm, nor another process's /proc entry); with ABI 4+ no outgoing TCP connection; with
ABI 6+ no signal to any process outside and no abstract unix sockets. Standalone: it is copied
beside student_side.py.
"""

from __future__ import annotations

import ctypes
import os
import sys

# Landlock constants (linux/landlock.h)
_FS = {
    name: 1 << i
    for i, name in enumerate(
        [
            "EXECUTE",
            "WRITE_FILE",
            "READ_FILE",
            "READ_DIR",
            "REMOVE_DIR",
            "REMOVE_FILE",
            "MAKE_CHAR",
            "MAKE_DIR",
            "MAKE_REG",
            "MAKE_SOCK",
            "MAKE_FIFO",
            "MAKE_BLOCK",
            "MAKE_SYM",
            "REFER",
            "TRUNCATE",
            "IOCTL_DEV",
        ]
    )
}
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1, 2
_SYS_CREATE, _SYS_ADD_RULE, _SYS_RESTRICT = 444, 445, 446  # same number on x86_64 and aarch64
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2
_PR_SET_NO_NEW_PRIVS = 38


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _NetPortAttr(ctypes.Structure):
    _fields_ = [("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64)]


# The device files a process needs (read-write): never the rest of /dev (the host's /dev/shm holds
# the grading pool's semaphores under the fallback; zeroing them hung a class run, issue 42).
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
ACCELERATORS = ("/dev/accel*", "/dev/nvidia*", "/dev/vfio")  # a TPU's or GPU's, where the machine has one
# Of /proc, the process's own entry (``/proc/self``, threads included: read-only, so that its memory
# cannot be written through /proc/self/mem, where the TPU emulation lives) and these few
# machine-wide files (read-only): never another process's entry, whose environ, cmdline and memory
# (the checker's, the grader's) are this user's under the fallback.
PROC_FILES = ("/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version")
PROC_FILES += ("/proc/filesystems", "/proc/sys")
# Of /etc, what Python, NumPy, JAX and matplotlib read: the dynamic loader's cache and
# configuration, the time zone, fontconfig's files, the alternatives' links (measured on a student
# process that imports JAX, computes, traces a profile and saves a figure: with strace on CPU, with
# an LD_PRELOAD shim on a TPU v5e, which read only the time zone besides the loader's cache).
# Never the rest (passwd, shadow, hosts, the machine's secrets and keys); bubblewrap shows the same.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/fonts")
ETC_FILES += ("/etc/alternatives",)
# Created nowhere, by anyone: a device file made in the work folder opens the host's devices
# (its kernel log, its disks) wherever the kernel lets the process make one (root under the fallback).
NEVER = ("MAKE_CHAR", "MAKE_BLOCK")


def landlock_abi() -> int:
    """Landlock ABI version of the running kernel, 0 when unavailable (or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        version = libc.syscall(_SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except Exception:
        return 0
    return max(int(version), 0)


def read_only_paths() -> list[str]:
    """The Python installation and the system folders a kernel needs to read."""
    paths = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
        "/usr",
        "/lib",
        "/lib64",
        "/lib32",
        "/bin",
        "/sbin",
        *ETC_FILES,
        "/opt",
        *PROC_FILES,
        "/sys",
        "/run/systemd/resolve",
        "/var/lib/ca-certificates",
    }
    # the grader's site-packages (installation.site_paths: never the repository, a venv inside it is)
    paths.update(p for p in os.environ.get("COURSE_SITE_PATHS", "").split(os.pathsep) if p)
    here = os.environ.get("COURSE_REPOSITORY", "/nonexistent")  # never the course repository
    for entry in sys.path:  # site-packages outside the prefix (user site, conda, editable installs)
        if not entry or not os.path.isdir(entry):
            continue
        real = os.path.realpath(entry)
        if real == here or real.startswith(here + os.sep) and not real.startswith(os.path.realpath(sys.prefix)):
            continue  # never the repository itself (an editable install puts it on sys.path)
        paths.add(real)
    return sorted(p for p in paths if os.path.exists(p))


def apply_landlock(abi: int, workdir: str, extra_files: list[str], read_only: list[str] = ()) -> list[str]:
    """Restrict this process: read-only Python/system folders and ``read_only`` (the checker's
    inputs), read-write ``workdir``, read ``extra_files``."""
    libc = ctypes.CDLL(None, use_errno=True)
    handled = 0  # every right this ABI knows: what no rule grants is refused
    for name in [
        "EXECUTE",
        "WRITE_FILE",
        "READ_FILE",
        "READ_DIR",
        "REMOVE_DIR",
        "REMOVE_FILE",
        "MAKE_CHAR",
        "MAKE_DIR",
        "MAKE_REG",
        "MAKE_SOCK",
        "MAKE_FIFO",
        "MAKE_BLOCK",
        "MAKE_SYM",
    ]:
        handled |= _FS[name]
    if abi >= 2:
        handled |= _FS["REFER"]
    if abi >= 3:
        handled |= _FS["TRUNCATE"]
    work_rights = handled & ~sum(_FS[name] for name in NEVER)  # everything but making device files
    read_dir = _FS["EXECUTE"] | _FS["READ_FILE"] | _FS["READ_DIR"]
    file_rights = _FS["EXECUTE"] | _FS["WRITE_FILE"] | _FS["READ_FILE"] | (_FS["TRUNCATE"] if abi >= 3 else 0)
    attr = _RulesetAttr(
        handled, _NET_CONNECT_TCP if abi >= 4 else 0, _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0
    )
    size = 24 if abi >= 6 else (16 if abi >= 4 else 8)
    fd = libc.syscall(_SYS_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    enforced = [f"landlock ABI {abi}"]

    def allow(path: str, rights: int) -> None:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return
        try:
            rule = _PathBeneathAttr(rights if os.path.isdir(path) else rights & file_rights, pfd)
            if libc.syscall(_SYS_ADD_RULE, fd, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
        finally:
            os.close(pfd)

    for path in [*read_only_paths(), *read_only]:
        allow(path, read_dir)
    import glob

    for path in [*DEVICES, *(p for pattern in ACCELERATORS for p in glob.glob(pattern))]:
        allow(path, read_dir | _FS["WRITE_FILE"])
    allow("/proc/self", read_dir)  # opened here: this process's own /proc/<pid>, read-only (its mem: issue 65)
    allow(workdir, work_rights)
    for path in extra_files:
        allow(path, _FS["READ_FILE"])
    if abi >= 4:  # the kernel only binds (its ZMQ ports); it never needs to connect anywhere
        enforced.append("no outgoing TCP connections")
    if abi >= 6:
        enforced.append("no signals outside the sandbox")
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.syscall(_SYS_RESTRICT, fd, ctypes.c_uint32(0)) != 0:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    os.close(fd)
    enforced.append(
        f"files: read-only Python/system, read-write {workdir} only (no device file made); /dev: {', '.join(DEVICES)}"
    )
    return enforced
