"""Text from a submission, made safe for where it is shown: one module, one set of rules.

Every string that came from a submission (a student's folder name, an exception message, a
detail) reaches a terminal, a CSV or a page through here:

- ``printable``: control characters (terminal escapes, bidi overrides, Unicode line separators)
  shown as escapes, lone surrogates as U+FFFD, cut to a length; tabs and newlines kept;
- ``safe_csv_cell``: the same escapes (newlines and tabs too: a cell is one line) and a ``'``
  before anything a spreadsheet would run as a formula (OWASP's advice);
- HTML pages (the class report, the feedback pages) escape every value with the autoescaping
  templates of templating.py (beside this file) on top of these.
"""

from __future__ import annotations

import csv
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path


def whole_text(text: str) -> str:
    """``text`` with each lone surrogate (no UTF-8 file, feedback page or CSV can hold one) as U+FFFD.
    (grader/core/wire.py has the same few lines: it runs alone in the student's sandbox.)"""
    try:
        return text if text.encode("utf-8") else text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


# C0/C1 controls, DEL, line/paragraph separators and the bidirectional overrides that can make
# text display something other than what it holds.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` with every control character except those in ``keep`` as a visible escape
    (``\\n``, ``\\t``, ``\\x07``, ``\\u202e``) and each lone surrogate as U+FFFD."""

    def escape(m: re.Match) -> str:
        c = m.group()
        if c in keep:
            return c
        return _ESCAPES.get(c, f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")

    return CONTROL.sub(escape, whole_text(str(text)))


def printable(text: str, limit: int = 300, keep: str = "\t\n") -> str:
    """``text`` for a terminal, a log line or a feedback note: controls escaped (but those in
    ``keep``: tabs and newlines unless told; ``keep=""`` makes it one line), at most ``limit``
    characters. Its cost is the limit's, whatever the text's length: escaping only lengthens a
    character and never looks at its neighbours, so the text is cut to ``limit + 1`` first."""
    text = escape_controls(str(text)[: limit + 1], keep=keep)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_csv_cell(value) -> str:
    """``value`` as a CSV cell that no spreadsheet runs and that shows what it holds.

    Control characters (and Unicode line separators and bidi overrides) become visible escapes
    (``\\n``, ``\\t``, ``\\x07``, ``\\u202e``); a cell that would start a formula (``=``, ``+``,
    ``-``, ``@``, also after leading spaces, or a leading tab/CR) gets a ``'`` in front, as OWASP
    recommends. Plain numbers, negative ones included, are kept as they are; None is empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    text = str(value)
    if _NUMBER.fullmatch(text.strip()) or text.strip() == "-":  # numbers; Moodle's "no grade" dash
        return text
    starts_formula = text.lstrip(" ").startswith(_FORMULA_START)
    text = escape_controls(text)
    return "'" + text if starts_formula else text


def name_cell(name: str) -> str:
    """A name (a student's) as a CSV cell the grader writes: safe_csv_cell's neutralised form, made
    one-to-one so that two different names never share a cell (an LMS would merge their rows):
    backslashes are doubled before control characters are escaped, and a name that itself starts
    with ``'`` gets one more, as a formula does (decoding: drop one leading ``'``, then undo the
    escapes)."""
    text = str(name).replace("\\", "\\\\")
    cell = safe_csv_cell(text)
    return "'" + cell if text.startswith("'") else cell


def csv_forms(name: str) -> set[str]:
    """The ways a CSV writer that neutralises cells may have written ``name``."""
    escaped = escape_controls(str(name))
    return {name_cell(name), safe_csv_cell(name), escaped, "'" + escaped}


def name_key(name: str) -> str:
    """What a reader, or a file system that ignores case or normalisation (macOS, Windows), may take
    for the same name: two names with one key differ only in Unicode normalisation or case."""
    return unicodedata.normalize("NFKC", whole_text(str(name))).casefold()


def _spelled(name: str) -> str:
    """``name`` with each character past ASCII, and ``<``, spelled out as ``<U+00E9>``: one-to-one
    (no ``<`` is left unspelled) and printed alike by nothing (ASCII only)."""
    return "".join(c if c < "\x80" and c != "<" else f"<U+{ord(c):04X}>" for c in whole_text(str(name)))


def told_apart(names: Iterable[str]) -> dict[str, str]:
    """Each name as a person is shown it (terminal, CSVs, pages): itself, unless another of
    ``names`` differs from it only in normalisation or case (name_key), or would print as it does:
    then spelled out (``café`` as NFC ``caf<U+00E9>``, as NFD ``cafe<U+0301>``), until no two print
    alike (NFC). The names themselves, the rows' keys, are never changed: this is only their face."""
    names = sorted(set(names))
    by_key: dict[str, list[str]] = {}
    for n in names:
        by_key.setdefault(name_key(n), []).append(n)
    marked = {n for group in by_key.values() if len(group) > 1 for n in group}
    while True:  # a spelled name may look like another's own: spell both (marks only grow)
        shown = {n: _spelled(n) if n in marked else n for n in names}
        faces: dict[str, list[str]] = {}
        for n, face in shown.items():
            faces.setdefault(unicodedata.normalize("NFC", face), []).append(n)
        more = {n for group in faces.values() if len(group) > 1 for n in group} - marked
        if not more:
            return shown
        marked |= more


def folder_names(names: Iterable[str]) -> dict[str, str]:
    """Each name as the folder that holds its feedback: itself, unless another of ``names`` differs
    from it only in normalisation or case (a case- or normalisation-insensitive file system, as an
    instructor's macOS or Windows copy, would make the two one folder): then spelled out, brackets
    as parentheses, and ``~`` and 16 hex digits of the name's own sha256, at most 220 bytes. No two
    folders share a name_key."""
    names = sorted(set(names))
    keys: dict[str, int] = {}
    for n in names:
        keys[name_key(n)] = keys.get(name_key(n), 0) + 1
    out, used = {}, set()
    for n in names:
        if keys[name_key(n)] == 1:
            out[n] = n
            used.add(name_key(n))
    for n in names:
        if n in out:
            continue
        digest = hashlib.sha256(whole_text(n).encode("utf-8")).hexdigest()
        stem = _spelled(n).replace("<", "(").replace(">", ")").replace("/", "_")
        for width in (16, 64):
            out[n] = f"{stem[: 220 - width]}~{digest[:width]}"
            if name_key(out[n]) not in used:
                break
        k = 1
        while name_key(out[n]) in used:  # another student named exactly so: the folder is not theirs
            k += 1
            out[n] = f"{stem[:150]}~{digest}-{k}"
        used.add(name_key(out[n]))
    return out


def write_safe_csv(path: Path, rows, *, delimiter: str = ",", bom: bool = False, lineterminator: str = "\r\n") -> Path:
    """Write ``rows`` with every cell through :func:`safe_csv_cell`."""
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8", errors="backslashreplace") as f:
        w = csv.writer(f, delimiter=delimiter, lineterminator=lineterminator)
        for row in rows:
            w.writerow([safe_csv_cell(c) for c in row])
    return path
