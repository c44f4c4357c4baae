"""How the course's command lines and pages write numbers for people: a count with its noun in the
right number ("1 student", "2 students"), a size in GiB, MiB or KiB rather than raw bytes."""

from __future__ import annotations


def plural(n: float, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, plural unless n is 1: plural(1, "student") -> "1 student"."""
    return f"{n:g} {noun if n == 1 else (nouns or noun + 's')}"


def human_bytes(n: float) -> str:
    """A size as a person reads it: 4294967296 -> "4 GiB", 268435456 -> "256 MiB", 1536 -> "1.5 KiB"."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(n) >= size:
            return f"{round(n / size, 2):g} {unit}"
    return plural(n, "byte")
