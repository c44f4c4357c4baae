"""The student's processes, from the process that started them (its checker): which they are,
frozen between calls, tended while they run, ended.

Where a cgroup holds them (cgroup.py), the cgroup answers. Otherwise, below a checker that is the
child subreaper of what they leave (reaper.py, spawn.checker_main), they are every process of
another session below it: an orphan, a double fork, a ``setsid``, a fork-and-exit chain included;
frozen by SIGSTOP to the process group the launcher made and to each of them (one that called
``setsid`` left that group); their ended links reaped twice a second (``tend``), and, when the
student's process is stopped, every one SIGKILLed round after round until none is left
(``end``). Only where neither holds (a process that is no checker, the canary) are they the tree
below the process it started, and what leaves that tree's group is beyond its reach.
"""

from __future__ import annotations

import contextlib
import os
import signal

from . import reaper
from .cgroup import process_tree


def _orphans_here(launch) -> bool:
    """No cgroup holds the student's processes, and those they orphan come to this process."""
    return launch is not None and launch.cgroup is None and reaper.is_subreaper()


def pids(launch, proc) -> list[int]:
    """The student's processes, as host pids (under bubblewrap, its PID namespace's orphans stay in
    the tree below the process started)."""
    if launch is not None and launch.cgroup is not None:
        return launch.cgroup.pids()
    if _orphans_here(launch):
        return reaper.descendants(foreign=True)
    return process_tree(proc.pid) if proc is not None else []


def freeze(launch, proc, frozen: bool) -> None:
    """Stop (or continue) every process of the student's."""
    if launch is not None and launch.cgroup is not None:
        launch.cgroup.freeze(frozen)
        return
    if proc is None or launch is None or launch.namespaced:
        return
    how = signal.SIGSTOP if frozen else signal.SIGCONT
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, how)
    if _orphans_here(launch):  # and those that left its group (setsid)
        for pid in pids(launch, proc):
            with contextlib.suppress(OSError):
                os.kill(pid, how)


def tend(launch, proc) -> None:
    """While it runs: the processes it left that ended, reaped (a fork-and-exit chain leaves a
    zombie a link here; uncollected, they would hold pids)."""
    if _orphans_here(launch) and proc is not None:
        reaper.reap(keep={proc.pid})


def end(launch, proc) -> None:
    """Kill the process started and every process of the student's, whatever session or group it
    made (the Popen's own status is left for its ``wait``)."""
    with contextlib.suppress(OSError):
        if not launch.namespaced:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.kill()
    if _orphans_here(launch):
        reaper.end_descendants(keep={proc.pid})
