"""The jobs of a class run still to hand out, made one at a time as workers take them (issue 57).

classrun.py hands the pool (pool.py) and the Dask path (distribute.py) a generator that reads each
notebook's bytes when it makes its job; ``Feed`` asks it for a job only when a worker or a Dask
slot can take one, so the parent never holds the class, only the notebooks in flight and a few made
ahead (at most 2 x workers).
"""

from __future__ import annotations

import collections
from collections.abc import Iterable


class Feed:
    """The jobs still to hand out, made one at a time as workers take them (issue 57: a class's
    notebooks are never all in the parent at once). ``fill(n)`` makes up to ``n`` of them ahead,
    ``len`` counts those made and not yet taken, ``bool`` says whether any is left (making one
    ahead if needed); ``popleft`` takes the next, ``appendleft`` puts one back in front. So the parent
    holds at most the jobs in flight and the few made ahead (at most 2 x workers, pool.py and
    distribute.py), whatever the class's size."""

    def __init__(self, jobs: Iterable[dict]):
        self._source = iter(jobs)
        self._made: collections.deque = collections.deque()
        self._ended = False

    def fill(self, n: int) -> None:
        while len(self._made) < n and not self._ended:
            job = next(self._source, None)
            if job is None:
                self._ended = True
            else:
                self._made.append(job)

    def __len__(self) -> int:
        return len(self._made)

    def __bool__(self) -> bool:
        self.fill(1)
        return bool(self._made)

    def popleft(self) -> dict:
        self.fill(1)
        return self._made.popleft()

    def appendleft(self, job: dict) -> None:
        self._made.appendleft(job)

    def __iter__(self):
        while self:
            yield self.popleft()

    @classmethod
    def of(cls, jobs: Iterable[dict]) -> Feed:
        return jobs if isinstance(jobs, Feed) else cls(jobs)
