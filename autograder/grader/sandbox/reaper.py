"""Every process below this one, found and ended: for a process that starts student processes
where no cgroup holds them (the fallback in a container, Gradescope's).

A checker makes itself the child subreaper of everything it starts (``become_subreaper``, in
spawn.checker_main): a student's process that forks and exits, or double-forks and calls
``setsid``, leaves its children to the checker, not to init, so they stay below it, where
``descendants`` finds them, whatever session or process group they made. ``reap`` collects the
ones that ended (a fork-and-exit chain leaves one zombie a link) while the student runs;
``end_descendants`` SIGKILLs and reaps them all, round after round until none is left (a link
that forked between two rounds is found in the next), when the student's process is stopped.
gradescope/run.py does the same for everything its grading started, before it writes results.json.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time

from ..core.settings import END_ROUNDS

_PR_SET_CHILD_SUBREAPER = 36
# Module state, by necessity: the subreaper attribute is the process's; this says whether it was set
_STATE = {"subreaper": False}


def become_subreaper() -> bool:
    """Orphans of this process's descendants are reparented to it; True where the kernel agreed."""
    try:
        done = ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        done = False
    _STATE["subreaper"] = done
    return done


def is_subreaper() -> bool:
    return _STATE["subreaper"]


def _table() -> dict[int, tuple[int, bool, int]]:
    """{pid: (parent, whether a zombie, session)} of every process, from one pass over /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            table[int(entry)] = (int(fields[1]), fields[0] == "Z", int(fields[3]))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return table


def descendants(root: int | None = None, foreign: bool = False, zombies: bool = False) -> list[int]:
    """The processes below ``root`` (this one by default): live ones only unless ``zombies`` (a
    zombie runs nothing, and its children are reparented already); with ``foreign``, only those
    in another session than this process's (a student's process never is in the checker's: the
    launcher or bubblewrap starts a session of its own, and no process can join another's; the
    checker's own helpers, a compiler XLA runs, are in its session and left alone)."""
    table = _table()
    root = os.getpid() if root is None else root
    mine = os.getsid(0)
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            _, zombie, session = table[child]
            if (zombies or not zombie) and not (foreign and session == mine):
                found.append(child)
    return found


def reap(keep=(), foreign: bool = True) -> int:
    """Collect this process's children that ended (those of another session only, with
    ``foreign``), except ``keep`` (those whose status their owner waits for, a
    ``subprocess.Popen``'s); how many."""
    reaped, me, mine = 0, os.getpid(), os.getsid(0)
    for pid, (parent, zombie, session) in _table().items():
        if parent != me or not zombie or pid in keep or (foreign and session == mine):
            continue
        with contextlib.suppress(ChildProcessError, OSError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
    return reaped


def end_descendants(keep=(), foreign: bool = True, rounds: int = END_ROUNDS) -> bool:
    """SIGKILL every process below this one (of another session only, with ``foreign``) and
    reap them (``keep``: see ``reap``), round after round; True once none is left alive."""
    for _ in range(rounds):
        found = descendants(foreign=foreign)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        reap(keep, foreign)
        if not found:
            return not descendants(foreign=foreign)
        time.sleep(0.01)
    return False
