"""The student's processes as one pids cgroup: a cap on processes and threads, a freeze between
calls, the cap's hit read back, and every process killed at the end.

cgroup v2 where the grader may write to /sys/fs/cgroup (root, or a delegated subtree), else v1's
pids hierarchy; ``new_cgroup`` returns None where neither is writable (the sandbox then caps
processes with RLIMIT_NPROC and freezes with SIGSTOP).
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from .settings import Limits


@dataclass
class Cgroup:
    """A pids cgroup for one student process (v2 or v1 hierarchy, whichever is writable)."""

    path: Path

    def join(self) -> None:  # in the child, before exec
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def freeze(self, frozen: bool) -> None:
        """Stop (or continue) every process of the student's: between calls nothing of theirs runs,
        so nothing can swap a folder the checker is writing into for a symlink."""
        if (self.path / "cgroup.freeze").exists():  # cgroup v2: atomic
            try:
                (self.path / "cgroup.freeze").write_text("1" if frozen else "0")
                return
            except OSError:
                pass
        signal = 19 if frozen else 18  # SIGSTOP / SIGCONT, until no new process appears
        done: set[int] = set()
        for _ in range(100):
            todo = [p for p in self.pids() if p not in done]
            if not todo:
                return
            for pid in todo:
                try:
                    os.kill(pid, signal)
                except OSError:
                    pass
                done.add(pid)

    def limit_hit(self) -> bool:
        try:
            for line in (self.path / "pids.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max" and int(value) > 0:
                    return True
        except (OSError, ValueError):
            pass
        return False

    def remove(self) -> None:
        for _ in range(50):
            if not (self.path / "cgroup.procs").exists():
                return
            for pid in self.pids():
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.05)


@functools.lru_cache(maxsize=1)
def cgroup_root() -> Path | None:
    candidates = []
    if Path("/sys/fs/cgroup/cgroup.controllers").exists():
        candidates.append(Path("/sys/fs/cgroup"))
    candidates.append(Path("/sys/fs/cgroup/pids"))
    for base in candidates:
        root = base / "course-grader"
        try:
            root.mkdir(exist_ok=True)
            if base == Path("/sys/fs/cgroup"):
                (base / "cgroup.subtree_control").write_text("+pids")
                (root / "cgroup.subtree_control").write_text("+pids")
            probe = root / f"probe-{os.getpid()}"
            probe.mkdir(exist_ok=True)
            (probe / "pids.max").write_text("10")
            probe.rmdir()
            return root
        except OSError:
            continue
    return None


def new_cgroup(limits: Limits) -> Cgroup | None:
    root = cgroup_root()
    if root is None:
        return None
    path = root / uuid.uuid4().hex[:16]
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(limits.processes))
    except OSError:
        return None
    return Cgroup(path)
