"""How a lesson reads: measures of its prose, the same for the course's notebooks and for the
lessons of other courses they are compared with (docs/AUTHORING.md, "Measured limits").

``python -m autograder.course.prose FILE...`` prints, for each notebook (its markdown cells) or markdown
page (outside its code blocks): sentences, their length in words (median, 90th percentile, max,
how many over 40), parentheses inside parentheses, words per section (text between two
headings), words before the first exercise (the first heading that names an exercise), and, for
a lesson of this course, the minutes its title cell states and the minutes its measured read
takes. ``--long N`` also lists the sentences over N words.

Text inside ``<details>`` notes is measured apart from the main line: a student may skip a note.
Inline code counts as one word and inline math as one word; display math, code blocks, HTML tags,
table rules and link targets are not prose. tests/test_prose.py holds the student release to the
limits below and checks it names no file a student does not have (:func:`unavailable_files`).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

# The limits of docs/AUTHORING.md ("Measured limits"); tests/test_prose.py applies them.
MAIN_SENTENCE_WORDS = 40  # the longest sentence of the main line
MAIN_P90_WORDS = 30  # nine sentences in ten of the main line are at most this long
NOTE_SENTENCE_WORDS = 60  # the longest sentence inside a <details> note
MAIN_NESTING = 1  # parentheses may not hold parentheses in the main line...
NOTE_NESTING = 2  # ...and notes may nest them once
SECTION_WORDS = 400  # main-line words between two headings
WORDS_BEFORE_FIRST_EXERCISE = 600  # main-line words before the first exercise heading

# How long a lesson takes (docs/AUTHORING.md, "Stated times"): its main line read at this speed,
# each demo cell run and looked at, each exercise point worked at.
READING_WPM = 150
MINUTES_PER_DEMO_CELL = 1.0
MINUTES_PER_POINT = 2.0

_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "approx.", "No.", "resp.")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})")
_ADMONITION = re.compile(
    r"^\s*(`{3,}|~{3,}|:{3,})\s*\{(note|tip|warning|important|admonition|seealso|attention|caution)\}"
)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*)$")
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s+")
_EXERCISE = re.compile(r"\bexercises?\b", re.I)
_URL = re.compile(r"https?://\S+|www\.\S+")
# The chip's evidence that belongs in a note, not in the main line: a software version, a date, an
# issue or pull-request number.
DATED = re.compile(
    r"\b(?:JAX|jax|jaxlib|libtpu|XLA|xprof|ml_dtypes|NumPy)\s+v?\d+\.\d+[\w.]*|\blibtpu\b"
    r"|\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])\b|(?:[\w.-]+/)?[\w.-]*#\d{3,}\b"
)


@dataclass
class Section:
    """The text between two headings: its heading, main-line and note words, sentences."""

    heading: str
    words: int = 0
    note_words: int = 0
    sentences: list[tuple[int, str, bool]] = field(default_factory=list)  # (words, text, in a note)
    nested: list[tuple[int, str, bool]] = field(default_factory=list)  # (depth, paragraph, in a note)
    dated: list[str] = field(default_factory=list)  # versions, dates and issue numbers of the main line


def markdown_blocks(path: Path) -> list[str]:
    """The prose of a notebook (its markdown cells) or of a markdown page, code blocks removed
    except MyST admonitions, whose content is prose; a page's front matter, d2l's tab and label
    directives and jupytext's cell markers removed."""
    raw = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(raw)["cells"]
        return [without_code("".join(c["source"]).splitlines()) for c in cells if c["cell_type"] == "markdown"]
    lines = raw.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), 0)
        lines = lines[end + 1 :]
    return [without_code(lines)]


def without_code(lines: list[str]) -> str:
    """Markdown lines without their fenced code blocks (an admonition's content stays)."""
    kept, fence, prose_inside = [], None, False
    for line in lines:
        if fence:
            if re.fullmatch(re.escape(fence[0]) + "{%d,}" % len(fence), line.strip()):
                fence = None
            elif prose_inside and not re.match(r"^\s*:\w+:", line):
                kept.append(line)
            continue
        m = _FENCE.match(line)
        if m:
            fence, prose_inside = m.group(1), bool(_ADMONITION.match(line))
            continue
        if re.match(r"^\s*(:(begin|end)_tab:|:label:|:eqlabel:|\+\+\+|<!--.*-->\s*$)", line):
            continue
        kept.append(line)
    return "\n".join(kept)


def split_notes(block: str) -> list[tuple[str, bool]]:
    """A markdown cell cut into (text, in a note) pieces: ``<details>`` spans are notes, and a
    note's ``<summary>`` becomes its heading."""
    pieces, pos = [], 0
    for m in re.finditer(r"<details[^>]*>(.*?)</details>", block, re.S | re.I):
        pieces.append((block[pos : m.start()], False))
        inner = re.sub(r"<summary[^>]*>(.*?)</summary>", r"\n#### \1\n", m.group(1), flags=re.S | re.I)
        pieces.append((inner, True))
        pos = m.end()
    pieces.append((block[pos:], False))
    return [(text, note) for text, note in pieces if text.strip()]


def plain(text: str) -> str:
    """Prose as it is read: inline code and inline math one word each, links their text, URLs one
    word, emphasis and HTML tags gone."""
    text = re.sub(r"(:[a-z]+:)?`[^`\n]+`", " CODE ", text)
    text = re.sub(r"\$[^$\n]+\$", " MATH ", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = _URL.sub(" URL ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\*\*|(?<!\w)\*|\*(?!\w)|(?<![\w])_|_(?![\w])", "", text)
    return text


def words(text: str) -> int:
    """Words: whitespace-separated tokens with a letter or a digit in them."""
    return sum(1 for t in text.split() if re.search(r"[A-Za-z0-9]", t))


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences: cut after ``.``, ``!`` or ``?`` and a space before a word, a
    number, an opening bracket or a quote (abbreviations such as e.g. and et al. do not end one;
    a sentence may start with a lowercase name such as ml_dtypes)."""
    protected = paragraph
    for abbr in _ABBREVIATIONS:
        protected = protected.replace(abbr, abbr.replace(".", "\x00"))
    parts = re.split(r"(?<=[.!?])[)\"']?\s+(?=[A-Za-z0-9(\"'\[]|CODE|MATH)", protected)
    return [p.replace("\x00", ".").strip() for p in parts if words(p)]


def nesting(text: str) -> int:
    """The deepest parenthesis of ``text`` (0 with none, 2 for parentheses inside parentheses)."""
    depth = deepest = 0
    for ch in text:
        if ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth = max(depth - 1, 0)
    return deepest


def paragraphs(text: str):
    """(kind, text) of a markdown piece: ``heading`` lines, ``table`` rows, ``prose`` paragraphs
    (a list item is a paragraph of its own); display math and HTML comments dropped."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$|\\begin\{(\w+\*?)\}.*?\\end\{\1\}", "\n\n", text, flags=re.S)
    current: list[str] = []

    def flush():
        if current:
            yield "prose", " ".join(current)
            current.clear()

    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            yield from flush()
            yield "heading", heading.group(2).strip()
        elif line.lstrip().startswith("|"):
            yield from flush()
            if not re.fullmatch(r"[\s|:-]*", line):
                yield "table", line.replace("|", " ")
        elif not line.strip():
            yield from flush()
        else:
            if _LIST_ITEM.match(line):
                yield from flush()
                line = _LIST_ITEM.sub("", line, count=1)
            current.append(line.strip())
    yield from flush()


def sections(blocks: list[str]) -> list[Section]:
    """The text between headings (a note's summary heads only the note), measured."""
    found = [Section("(before the first heading)")]
    for block in blocks:
        for piece, note in split_notes(block):
            for kind, text in paragraphs(piece):
                if kind == "heading":
                    if not note:
                        found.append(Section(plain(text).strip()))
                    continue
                section = found[-1]
                text = plain(text)
                n = words(text)
                if note:
                    section.note_words += n
                else:
                    section.words += n
                if kind == "table":
                    continue
                if not note:
                    section.dated += [m.group(0) for m in DATED.finditer(text)]
                depth = nesting(text)
                if depth > 1:
                    section.nested.append((depth, text.strip(), note))
                section.sentences.extend((words(s), s, note) for s in sentences(text))
    return [s for s in found if s.words or s.note_words or s.heading != found[0].heading]


@dataclass
class Measures:
    """What tests/test_prose.py checks, and the read's reference numbers."""

    sentences: int
    median_words: float
    p90_words: float
    longest: int
    over_40: int
    longest_note: int
    nested_main: int
    nested_notes: int
    deepest_main: int
    deepest_note: int
    main_words: int
    note_words: int
    largest_section: tuple[int, str]
    before_first_exercise: int | None
    dated: list[str]


def measure(found: list[Section]) -> Measures:
    main = [n for s in found for n, _, note in s.sentences if not note]
    notes = [n for s in found for n, _, note in s.sentences if note]
    nested_main = [d for s in found for d, _, note in s.nested if not note]
    nested_notes = [d for s in found for d, _, note in s.nested if note]
    before = None
    total = 0
    for s in found:
        if _EXERCISE.search(s.heading):
            before = total
            break
        total += s.words
    ordered = sorted(main)
    return Measures(
        sentences=len(main),
        median_words=statistics.median(main) if main else 0,
        p90_words=ordered[int(0.9 * (len(ordered) - 1))] if main else 0,
        longest=max(main, default=0),
        over_40=sum(n > 40 for n in main),
        longest_note=max(notes, default=0),
        nested_main=len(nested_main),
        nested_notes=len(nested_notes),
        deepest_main=max(nested_main, default=1),
        deepest_note=max(nested_notes, default=1),
        main_words=sum(s.words for s in found),
        note_words=sum(s.note_words for s in found),
        largest_section=max(((s.words, s.heading) for s in found), default=(0, "")),
        before_first_exercise=before,
        dated=[d for s in found for d in s.dated],
    )


def stated_minutes(title: str) -> tuple[int, int] | None:
    """The time a lesson's title cell states: ``**Time**: 60–75 minutes`` -> (60, 75)."""
    m = re.search(r"\*\*Time(?::\*\*|\*\*:)\s*(?:about\s+)?(\d+)(?:\s*[–-]\s*(\d+))?\s*min", title)
    return (int(m.group(1)), int(m.group(2) or m.group(1))) if m else None


def estimated_minutes(path: Path) -> float:
    """A lesson's measured read: its main-line words at READING_WPM, one minute per demo cell
    (a code cell that is no answer and no test), MINUTES_PER_POINT per exercise point."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    main_words = measure(sections(markdown_blocks(path))).main_words
    grade_ids = [c.get("metadata", {}).get("nbgrader", {}) for c in cells]
    demos = sum(
        1
        for c, g in zip(cells, grade_ids)
        if c["cell_type"] == "code" and not g.get("grade_id") and "".join(c["source"]).strip()
    )
    points = sum(g.get("points", 0) for g in grade_ids if g.get("grade"))
    return main_words / READING_WPM + demos * MINUTES_PER_DEMO_CELL + points * MINUTES_PER_POINT


def suggested_minutes(estimate: float) -> tuple[int, int]:
    """A stated time for a measured read: a range that holds it and that tests/test_prose.py
    accepts (at most max(15, a quarter of its start) wide), starting at the 5 minutes below."""
    lo = 5 * int(estimate // 5)
    return lo, lo + 15


def report(path: Path, long: int | None = None) -> str:
    found = sections(markdown_blocks(path))
    m = measure(found)
    lines = [
        f"{path}",
        f"  main line: {m.main_words} words, {m.sentences} sentences, words per sentence median {m.median_words:g}, "
        f"90th percentile {m.p90_words}, longest {m.longest}, over 40: {m.over_40}",
        f"  parentheses inside parentheses: {m.nested_main} in the main line (deepest {m.deepest_main}), "
        f"{m.nested_notes} in notes (deepest {m.deepest_note})",
        f"  notes: {m.note_words} words, longest sentence {m.longest_note}",
        f"  largest section: {m.largest_section[0]} words ({m.largest_section[1][:60]!r}); "
        f"sections {len(found)}, median {statistics.median([s.words for s in found]) if found else 0:g} words",
        f"  words before the first exercise: {m.before_first_exercise}",
        f"  versions, dates and issue numbers in the main line: {len(m.dated)} {m.dated[:6]}",
    ]
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        stated = stated_minutes("".join(cells[0]["source"])) if cells else None
        estimate = estimated_minutes(path)
        if stated:
            lines.append(f"  time: stated {stated[0]}-{stated[1]} min, measured read {estimate:.0f} min")
        else:
            lo, hi = suggested_minutes(estimate)
            lines.append(
                f"  time: none stated in the title cell; measured read {estimate:.0f} min. "
                f"Put this line in the title cell: **Time**: {lo}–{hi} minutes."
            )
    if long is not None:
        for s in found:
            for n, text, note in s.sentences:
                if n > long:
                    lines.append(f"    {n} words{' (note)' if note else ''}: {text}")
            for depth, text, note in s.nested:
                lines.append(f"    nested {depth}{' (note)' if note else ''}: {text[:200]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m autograder.course.prose", description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", type=Path, help="notebooks (.ipynb) or markdown pages (.md)")
    p.add_argument("--long", type=int, default=None, help="also list the sentences longer than this many words")
    args = p.parse_args(argv)
    for path in args.files:
        print(report(path, args.long))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
