"""What the kernel shows, outside the student's process, of a per-process cap it enforced.

The address-space cap (RLIMIT_AS) and the file-size cap (RLIMIT_FSIZE) fail a call inside the
student's process: a MemoryError, an OSError with errno EFBIG. Those exceptions are the student's
to raise as well (``raise MemoryError()``), so their name or number alone never names a cap
(issue 44's red team). The checker names a cap only from what it reads on the host:

- ``address_space_peak``: the largest peak address space (VmPeak in /proc) of the student's
  processes. A process refused by RLIMIT_AS after growing towards it has a peak within
  ``NEAR_MEMORY_CAP`` of the cap; one huge request refused at once leaves no trace, and is then
  the student's own MemoryError (a wrong answer, its message shown), never a limit.
- ``files_at_least``: the regular files of the cap's size or more, in the work folder or held open
  for writing by the student's processes (unlinked ones too), each with its modification time. A write past
  RLIMIT_FSIZE stops at the cap, so the file that was refused is exactly the cap's size; one that
  was not there (or not at that time stamp) at the last look was written since.

What the host cannot see stays the student's exception (a wrong answer, its message shown; it
scores 0 either way): a refusal that grew nothing (one huge request; a second request refused below
an earlier peak; an append to a file already at the cap; a file at the cap removed before the call
returned). A new time stamp set by hand (os.utime) on a file already seen at the cap reads as a new
write: the student did reach the cap once.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .workdir import held_files


def address_space_peak(pids) -> int:
    """Bytes: the largest VmPeak among ``pids`` (0 where none can be read)."""
    peak = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmPeak:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
                        break
        except (OSError, ValueError, IndexError):
            continue
    return peak


def files_at_least(folder: Path, size: int, pids=(), most: int = 20_000) -> set[tuple[int, int, int]]:
    """The regular files of ``size`` bytes or more, as (device, inode, modification time), below
    ``folder`` (at most ``most`` entries looked at, links never followed) or held open by ``pids``
    (unlinked ones too)."""
    found, seen = set(), 0
    for root, _, files in os.walk(folder, followlinks=False):
        for name in files:
            seen += 1
            if seen > most:
                return found
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_size >= size:
                found.add((st.st_dev, st.st_ino, st.st_mtime_ns))
    for pid, fd, st in held_files(pids):
        if stat.S_ISREG(st.st_mode) and st.st_size >= size and _open_for_writing(pid, fd):
            found.add((st.st_dev, st.st_ino, st.st_mtime_ns))
    return found


def _open_for_writing(pid: int, fd: str) -> bool:
    """Whether descriptor ``fd`` of ``pid`` may write (its fdinfo flags): a large file the student
    merely opened to read (a library of the Python installation) is no trace of a write refused."""
    try:
        with open(f"/proc/{pid}/fdinfo/{fd}") as f:
            for line in f:
                if line.startswith("flags:"):
                    return int(line.split()[1], 8) & os.O_ACCMODE != os.O_RDONLY
    except (OSError, ValueError, IndexError):
        pass
    return False
