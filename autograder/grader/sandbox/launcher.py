"""The first program of every student process (sandbox/launch.py's ``Launch.command``).

A fresh interpreter (no threads yet, so no fork hazard) started with ``-I -S`` as the grader's
user, outside every layer of the sandbox: no site hook (a ``.pth`` file, sitecustomize) ever runs
here, and it needs nothing beyond the standard library (``-I`` keeps even its own folder off
sys.path). Given a JSON spec and the command to run, it

1. sets the caps (rlimits), joins the student's cgroup, and starts a session of its own (the
   fallback: the checker kills and freezes that group);
2. under the fallback as root (``spec["drop"]``), becomes an unprivileged user BEFORE any student
   code: every capability dropped from the bounding set, no supplementary group, uid and gid 65534
   (real, effective, saved, file system), no ambient capability, then checked in
   ``/proc/self/status``. Folders on the way to what the student must read that uid 65534 cannot
   search (a Python installed below ``/root``, say) are covered, in a mount namespace of the
   process's own, by a small tmpfs that holds only the entries on those ways, bound back from the
   host (where the kernel refuses the namespace, the launch is refused);
3. under the fallback, sets no_new_privs (no setuid program, no file capability ever adds a
   privilege after this; bubblewrap sets it in its sandbox itself); asks for SIGKILL when the
   checker dies (after the change of user, which clears that request); and execs the command
   (bwrap, or the student's Python under the fallback).

Whatever cannot be done ends the launch with exit status ``REFUSED`` and one line on stderr that
starts with ``sandbox: refused``: the checker sees a student process that died before its first
message, a fault of the grader's (remote.SandboxFault): the run exits 2 before any grade
(canary.py), never a student's zero, and never a student's code run as root.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import stat
import sys

REFUSED = 70  # the exit status of a launch refused (EX_SOFTWARE)
_PR_SET_PDEATHSIG, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS, _PR_CAP_AMBIENT = 1, 24, 38, 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_CLONE_NEWNS = 0x00020000
_MS_NOSUID, _MS_NODEV, _MS_BIND, _MS_REC, _MS_SLAVE = 2, 4, 4096, 16384, 1 << 19
_CAP_VERSION_3 = 0x20080522


class Refused(Exception):
    """The launch cannot go on safely: the student's code is never run."""


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        raise Refused(f"{what}: {os.strerror(ctypes.get_errno())}")


def searchable(st: os.stat_result, uid: int, gid: int) -> bool:
    """Whether a folder with these owner and mode bits may be passed through by ``uid``/``gid``
    holding no capability and no supplementary group."""
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IXUSR)
    if st.st_gid == gid:
        return bool(st.st_mode & stat.S_IXGRP)
    return bool(st.st_mode & stat.S_IXOTH)


def blocked_folders(paths, uid: int, gid: int) -> dict[str, set[str]]:
    """{folder: the names below it on the way to ``paths``} for each folder on the way to one of
    ``paths`` (real paths) that ``uid`` cannot pass through; shallowest first."""
    blocked: dict[str, set[str]] = {}
    for path in paths:
        parts = [p for p in path.split(os.sep) if p]
        for depth in range(len(parts)):
            folder = os.sep + os.sep.join(parts[:depth])
            try:
                st = os.stat(folder)
            except OSError:
                break  # not there: nothing to reach through it
            if not searchable(st, uid, gid):
                blocked.setdefault(folder, set()).add(parts[depth])
    return dict(sorted(blocked.items(), key=lambda item: item[0].count(os.sep)))


def cover(blocked: dict[str, set[str]]) -> None:
    """In a mount namespace of this process's own: each blocked folder covered by a tmpfs that
    only uid 65534's way passes through (mode 0711), holding its entries on the ways to what the
    student reads, each bound back from the host (the same files: what the student writes in its
    work folder is where the checker reads it)."""
    libc = _libc()
    if os.sep in blocked:
        raise Refused("the root folder itself cannot be passed through")
    _check(libc.unshare(_CLONE_NEWNS), "a mount namespace of its own (unshare)")
    _check(libc.mount(None, b"/", None, _MS_REC | _MS_SLAVE, None), "mount --make-rslave /")
    for folder, names in blocked.items():
        kept = {}
        try:
            for name in sorted(names):
                kept[name] = os.open(os.path.join(folder, name), os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
            options = b"mode=0711,size=1m,nr_inodes=1024"
            _check(
                libc.mount(b"tmpfs", folder.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options), f"tmpfs on {folder}"
            )
            for name, fd in kept.items():
                target = os.path.join(folder, name)
                if stat.S_ISDIR(os.fstat(fd).st_mode):
                    os.mkdir(target, 0o711)
                else:
                    os.close(os.open(target, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o600))
                source = f"/proc/self/fd/{fd}".encode()
                _check(libc.mount(source, target.encode(), None, _MS_BIND | _MS_REC, None), f"bind {target}")
        finally:
            for fd in kept.values():
                os.close(fd)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def status() -> dict[str, str]:
    """This process's /proc/self/status, by field."""
    with open("/proc/self/status") as f:
        return {k: v.strip() for k, _, v in (line.partition(":") for line in f)}


def become(uid: int, gid: int) -> None:
    """This process as ``uid``/``gid`` with no capability left, now or after any exec (see the
    module's docstring); Refused where any step fails or the result is not exactly that."""
    libc = _libc()
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        _check(libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap} from the bounding set")
    try:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        raise Refused(f"switching to uid {uid}: {exc.strerror}") from None
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    zero = (_CapData * 2)()  # what setresuid leaves is cleared again (a securebit may keep caps)
    _check(libc.capset(ctypes.byref(_CapHeader(_CAP_VERSION_3, 0)), zero), "capset to nothing")
    now = status()
    ids = {"Uid": now.get("Uid", "").split(), "Gid": now.get("Gid", "").split()}
    caps = {k: now.get(k) for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    if ids != {"Uid": [str(uid)] * 4, "Gid": [str(gid)] * 4} or now.get("Groups", "") != "":
        raise Refused(f"still running as {ids}, groups {now.get('Groups')!r}")
    if any(v is None or int(v, 16) for v in caps.values()):
        raise Refused(f"capabilities left: {caps}")


def launch(spec: dict, argv: list[str]) -> None:
    """Steps 1 to 3 of the module's docstring, then exec ``argv`` (never returns)."""
    for name, value in spec["rlimits"].items():
        hard = value if name != "RLIMIT_NPROC" or spec["drop"] else resource.getrlimit(resource.RLIMIT_NPROC)[1]
        resource.setrlimit(getattr(resource, name), (value, hard))
    for folder in spec["cgroups"]:
        with open(os.path.join(folder, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    if spec["setsid"]:
        os.setsid()
    libc = _libc()
    drop = spec["drop"]
    if drop:
        uid, gid = drop["uid"], drop["gid"]
        blocked = blocked_folders(drop["reach"], uid, gid)
        if blocked:
            try:
                cover(blocked)
            except Refused as exc:
                raise Refused(f"uid {uid} cannot reach {', '.join(blocked)} ({exc})") from None
        become(uid, gid)
        for path in drop["reach"]:  # as the new user: what it must read, it can
            if os.path.exists(path) and not os.access(path, os.R_OK | (os.X_OK if os.path.isdir(path) else 0)):
                raise Refused(f"uid {uid} cannot read {path}")
        if not os.access(argv[0], os.X_OK):
            raise Refused(f"uid {uid} cannot run {argv[0]}")
    else:
        libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if spec["setsid"]:  # the fallback (bwrap sets it for its sandbox itself; a setuid bwrap needs it unset)
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _check(libc.prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != spec["parent"]:
        os._exit(0)  # the checker died before the request took hold
    os.execv(argv[0], argv)


if __name__ == "__main__":
    try:
        launch(json.loads(sys.argv[1]), sys.argv[2:])
    except (Refused, OSError) as exc:
        print(f"sandbox: refused to run the student's code: {exc}", file=sys.stderr, flush=True)
        os._exit(REFUSED)
