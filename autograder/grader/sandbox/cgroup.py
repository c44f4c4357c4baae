"""The student's processes as one cgroup: caps on processes and threads, on the memory they hold
together and on the CPU they use, a freeze between calls, the caps' hits read back, and every
process killed at the end.

rlimits are per process: a student's code that forks eight children each holding 700 MiB stays
under RLIMIT_AS and takes 5 GiB of the grading machine; busy children take its CPU from the
notebook graded next to it. The cgroup holds them all: ``pids`` (processes and threads),
``memory`` (``Limits.group_memory_bytes`` together, no swap; an OOM kill is named "memory limit
reached") and ``cpu`` (``Limits.cpus`` cores at most).

cgroup v2 where the grader may write to /sys/fs/cgroup (root, or a delegated subtree), else v1's
hierarchies (one folder per controller); a controller that cannot be set up is left out (where
pids cannot, ``new_cgroup`` returns None: the sandbox then caps processes with RLIMIT_NPROC and
freezes with SIGSTOP). ``describe`` says which caps hold.
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from ..core.model import ProcessEvent
from ..core.settings import FREEZE_WAIT, Limits
from ...common.words import human_bytes, plural

V2 = Path("/sys/fs/cgroup")
CONTROLLERS = ("pids", "memory", "cpu")
PERIOD_US = 100_000


def stopped(pids, deadline: float) -> bool:
    """Whether every thread of ``pids`` is stopped (or gone) before ``deadline``: SIGSTOP reaches a
    thread running on another core a moment after kill() returns."""
    while True:
        running = False
        for pid in pids:
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue  # gone
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/stat") as f:
                        state = f.read().rsplit(")", 1)[1].split()[0]
                except (OSError, IndexError):
                    continue
                running = running or state not in ("T", "t", "Z", "X")
        if not running or time.monotonic() > deadline:
            return not running
        time.sleep(0.001)


@dataclass
class Cgroup:
    """One student's cgroup: ``path`` holds the pids controller (v2: every controller); v1's other
    hierarchies each hold a folder of their own (``extra``)."""

    path: Path
    extra: dict[str, Path] = field(default_factory=dict)
    reported: set[ProcessEvent] = field(default_factory=set)

    @property
    def folders(self) -> list[Path]:
        return [self.path, *self.extra.values()]

    def _file(self, controller: str, name: str) -> Path:
        return self.extra.get(controller, self.path) / name

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
                break
            for pid in todo:
                try:
                    os.kill(pid, signal)
                except OSError:
                    pass
                done.add(pid)
        if frozen:  # a signal is delivered after kill() returns: wait until every thread has stopped
            stopped(done, time.monotonic() + FREEZE_WAIT)

    def limits_hit(self) -> list[ProcessEvent]:
        """The caps hit since the group was made, each named once over the group's life."""
        hit = []
        if _counter(self._file("pids", "pids.events"), "max") > 0:
            hit.append(ProcessEvent.PROCESS_LIMIT)
        if "memory" in self.extra:  # v1
            oom = _counter(self._file("memory", "memory.oom_control"), "oom_kill")
        else:
            oom = _counter(self.path / "memory.events", "oom_kill")
        if oom > 0:
            hit.append(ProcessEvent.MEMORY_LIMIT)
        new = [h for h in hit if h not in self.reported]
        self.reported.update(new)
        return new

    def remove(self) -> None:
        for folder in self.folders:
            for _ in range(50):
                if not (folder / "cgroup.procs").exists():
                    break
                for pid in [int(p) for p in _read(folder / "cgroup.procs").split() if p.isdigit()]:
                    try:
                        os.kill(pid, 9)
                    except OSError:
                        pass
                try:
                    folder.rmdir()
                    break
                except OSError:
                    time.sleep(0.05)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _counter(path: Path, key: str) -> int:
    for line in _read(path).splitlines():
        name, _, value = line.partition(" ")
        if name == key and value.strip().isdigit():
            return int(value)
    return 0


def _probe(root: Path, settings: dict[str, str]) -> bool:
    probe = root / f"probe-{os.getpid()}"
    try:
        probe.mkdir(exist_ok=True)
        for name, value in settings.items():
            (probe / name).write_text(value)
        return True
    except OSError:
        return False
    finally:
        try:
            probe.rmdir()
        except OSError:
            pass


@functools.lru_cache(maxsize=1)
def cgroup_roots() -> dict[str, Path]:
    """{controller: the folder under which each student's group is made}, for the controllers
    this machine lets the grader use; empty when pids is not among them."""
    if (V2 / "cgroup.controllers").exists():
        root = V2 / "course-grader"
        try:
            root.mkdir(exist_ok=True)
        except OSError:
            root = None
        if root is not None:
            usable = {}
            for c in CONTROLLERS:
                try:
                    (V2 / "cgroup.subtree_control").write_text(f"+{c}")
                    (root / "cgroup.subtree_control").write_text(f"+{c}")
                except OSError:
                    continue
                usable[c] = root
            if "pids" in usable and _probe(root, {"pids.max": "10"}):
                return usable
    usable = {}
    for c in CONTROLLERS:
        root = V2 / c / "course-grader"
        try:
            root.mkdir(exist_ok=True)
        except OSError:
            continue
        check = {"pids": {"pids.max": "10"}, "memory": {"memory.limit_in_bytes": str(2**30)}}.get(
            c, {"cpu.cfs_period_us": str(PERIOD_US)}
        )
        if _probe(root, check):
            usable[c] = root
    return usable if "pids" in usable else {}


def cgroup_root() -> Path | None:
    """Where the pids groups are made (None: no cgroup at all)."""
    return cgroup_roots().get("pids")


def describe(limits: Limits) -> str:
    """What the cgroup caps, with the limits in human units; "" without a cgroup. The CPU is named
    only when ``limits.cpus`` sets a cap (0, the default, is none)."""
    caps = cgroup_roots()
    if not caps:
        return ""
    names = {
        "pids": f"processes and threads ({limits.processes})",
        "memory": f"memory together ({human_bytes(limits.group_memory_bytes)}, no swap)",
        "cpu": f"CPU ({plural(limits.cpus, 'core')} together)",
    }
    shown = [names[c] for c in CONTROLLERS if c in caps and (c != "cpu" or limits.cpus)]
    return "a cgroup caps " + ", ".join(shown) + ("" if limits.cpus else "; no CPU cap (Limits.cpus is 0)")


def new_cgroup(limits: Limits) -> Cgroup | None:
    roots = cgroup_roots()
    if not roots:
        return None
    name = uuid.uuid4().hex[:16]
    v2 = roots["pids"].parent == V2
    quota = str(int(limits.cpus * PERIOD_US)) if limits.cpus else "max"
    if v2:
        settings = {"pids": {"pids.max": str(limits.processes)}}
        settings["memory"] = {"memory.max": str(limits.group_memory_bytes), "memory.swap.max": "0"}
        settings["cpu"] = {"cpu.max": f"{quota} {PERIOD_US}"}
    else:
        settings = {
            "pids": {"pids.max": str(limits.processes)},
            "memory": {"memory.limit_in_bytes": str(limits.group_memory_bytes)},
            "cpu": {"cpu.cfs_period_us": str(PERIOD_US), "cpu.cfs_quota_us": quota if limits.cpus else "-1"},
        }
    group = None
    for controller, root in roots.items():
        folder = root / name
        try:
            if not folder.exists():
                folder.mkdir()
            for file, value in settings[controller].items():
                try:
                    (folder / file).write_text(value)
                except OSError:
                    if file != "memory.swap.max":  # no swap accounting: nothing to cap
                        raise
            if controller == "memory" and not v2:
                try:  # v1: no swap either, where swap accounting is on
                    (folder / "memory.memsw.limit_in_bytes").write_text(str(limits.group_memory_bytes))
                except OSError:
                    pass
        except OSError:
            if controller == "pids":
                return None
            continue
        if group is None:
            group = Cgroup(folder)
        elif not v2:
            group.extra[controller] = folder
    return group


def process_tree(root: int, most: int = 4096) -> list[int]:
    """``root`` and its descendants (at most ``most``), from /proc's children lists: the student's
    processes where there is no cgroup to ask."""
    found, todo = [], [root]
    while todo and len(found) < most:
        pid = todo.pop()
        found.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return found
