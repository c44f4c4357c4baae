"""The student's work folder as a file system of its own: a hard cap on its bytes and files.

Where a worker's probe (``available``, once per worker) finds it possible, each checker starts in
a mount namespace of its own (``enter``, spawn.checker_main, before the checker has a thread: root
unshares one; another user a user namespace with it, mapping only itself) and mounts there, on the
work folder, a tmpfs of ``Limits.work_bytes`` + WORK_FS_SLACK_BYTES bytes and ``Limits.work_files``
+ WORK_FS_SLACK_FILES inodes, without devices or setuid (``cap``, from launch.prepare). The checker
reads it at the work folder's own path, as before (workdir.over_limit, a test reading the trace
files the student wrote, docs/AUTHORING.md); the student's process writes it at the same path
(bubblewrap binds it, the fallback's process inherits the checker's mounts); no other process on
the host sees it, and it is gone with the checker and the processes it started. A write past it
fails at once in the student's process (ENOSPC), however fast (posix_fallocate included), and files
held open after being unlinked count too. The watch (twice a second, remote.py) stays as the second
line: it names the limit ("disk limit reached", "file limit reached"), which the slack leaves it
room to see passed. Its pages are memory: charged to the student's cgroup where there is one (its
memory cap holds them with its processes'), else bounded by the tmpfs's own size.

Where no namespace can be made (the fallback in a container without them, Gradescope's), the work
folder is the host's: RLIMIT_FSIZE caps each file, and the watch the folder. Between two looks
(half a second) a student can then fill the disk beyond the folder's cap: posix_fallocate
allocates a file of the file-size cap at once, and a few of them outrun the watch; the watch stops
the process at its next look and empties the folder (docs/GRADING.md, the threat model).
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CLONE_NEWNS, _CLONE_NEWUSER = 0x00020000, 0x10000000
_MS_NOSUID, _MS_NODEV, _MS_REC, _MS_SLAVE = 2, 4, 16384, 1 << 19
_MNT_DETACH = 2
# Module state, by necessity: a process's mount namespace is its own; this says whether this
# process made one, and which folders it capped there
_STATE: dict = {"private": False, "capped": set()}


def enter() -> bool:
    """This process in a mount namespace of its own (see the module's docstring); True where the
    kernel agreed. Only before the process has a second thread (unshare refuses a user namespace
    to a threaded process): a checker right after its fork or its start."""
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(_CLONE_NEWNS | (_CLONE_NEWUSER if uid else 0)) != 0:
        return False
    try:
        if uid:  # the same ids inside as outside: files it makes are still the grader's user's
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(text)
        # what is mounted here stays here (a shared root would pass it back to the host)
        if libc.mount(None, b"/", None, _MS_REC | _MS_SLAVE, None) != 0:
            return False
    except OSError:
        return False
    _STATE["private"] = True
    return True


def cap(folder: Path, size: int, files: int, uid: int, gid: int) -> bool:
    """Mount a tmpfs of ``size`` bytes and ``files`` inodes, owned by ``uid``/``gid`` (mode 0700),
    on ``folder``, once per folder: in this process's own mount namespace only (``enter``), never
    on the host's. True where the folder is so capped."""
    key = os.path.realpath(folder)
    if key in _STATE["capped"]:
        return True
    if not _STATE["private"]:
        return False
    options = f"size={size},nr_inodes={files},mode=0700,uid={uid},gid={gid}".encode()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"tmpfs", key.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options) != 0:
        return False
    _STATE["capped"].add(key)
    return True


@functools.lru_cache(maxsize=1)
def available(bwrap_probe: tuple[str, ...] = ()) -> str:
    """'' where a checker can have a work folder of its own (``enter`` then ``cap`` work, and
    ``bwrap_probe``, bubblewrap's own probe, still passes inside), else why not (one line); found
    once, in a child process."""
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", __file__, json.dumps(list(bwrap_probe))],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the probe did not run ({exc})"
    return "" if proc.returncode == 0 else (proc.stderr.strip().splitlines() or ["refused"])[-1]


def _probe(bwrap_probe: list[str]) -> int:
    """``available``'s child: the steps a checker takes, on a folder of its own."""
    if not enter():
        print("no mount namespace of its own (unshare refused)", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="course-workfs-probe-"))
    try:
        if not cap(folder, 1 << 20, 16, os.geteuid(), os.getegid()):
            print("no tmpfs in its own mount namespace (mount refused)", file=sys.stderr)
            return 1
        if bwrap_probe and subprocess.run(bwrap_probe, capture_output=True).returncode != 0:
            print("bubblewrap does not start inside a namespace of the checker's own", file=sys.stderr)
            return 1
        return 0
    finally:
        ctypes.CDLL(None).umount2(str(folder).encode(), _MNT_DETACH)
        os.rmdir(folder)


if __name__ == "__main__":
    sys.exit(_probe(json.loads(sys.argv[1])))
