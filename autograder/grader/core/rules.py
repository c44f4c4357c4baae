"""The rules of a hidden test: the clause of the exercise's contract each of its assertions checks,
declared by the author in the solution notebook, and which one a failed check broke. Pure: text in,
text out (docs/AUTHORING.md, "Rules").

Inside a hidden test's ``### BEGIN HIDDEN TESTS`` block:

    # default rule: `bf16_round` returns a float32 ndarray of x's shape, each value rounded to bf16
    ...
    # rule: a value halfway between two bf16 neighbours rounds to the one with an even last bit
    assert not bad.any(), f"{label}: {int(bad.sum())} values differ from round-to-nearest-even"

``# rule: S`` labels the statement directly below it (other comment lines may sit between, no blank
line) with all the lines it spans: an assertion (``assert``, a call of an ``assert_*`` function such
as np.testing's, ``raise AssertionError``) or a block (a loop, a helper's ``def``) whose assertions
have no rule of their own. Every assertion of a hidden block is labelled, itself or by a block around
it, and the cell has one ``# default rule: S`` (``problems`` lists what is not so: lessoncheck refuses
it). A rule is student-facing text: never an expected value, a bound, a seed or an input (``leaks``).

Which rule a failure broke is decided from two facts the trusted checker takes from its own traceback
(checker/failure.py), never from anything the student's process says: the line of the innermost
frame of the test cell's code, and ``raised_by``, the exercise whose call the exception came out of
("" when the test's own code raised). The test's own failure gets the rule of the innermost labelled
statement around that line, else the cell's default rule; an exception that came out of the
student's function, whatever its type, message or printed traceback, gets ``raised(name)`` and
never one of the test's rules.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass

from .settings import MAX_RULE_CHARS

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
RULE = re.compile(r"#\s*rule:\s*(.*)$")
DEFAULT = re.compile(r"#\s*default rule:\s*(.*)$")
# the kinds of a failure's rule: a labelled statement's, the cell's default, the student's call raised
STATEMENT, CELL_DEFAULT, RAISED = "rule", "default", "raised"


def raised(function: str) -> str:
    """The rule a check broke when the student's own function raised (or returned what cannot be
    read as plain data) where the test called it: the same words whatever it raised."""
    return f"`{function}` returns a plain-data answer, without raising, for every input its contract allows"


@dataclass(frozen=True)
class Rules:
    """One test cell's rules: ``spans`` (first line, last line, rule) of its labelled statements,
    its ``default`` rule ("" where it has none) and what is malformed (``problems``)."""

    spans: tuple[tuple[int, int, str], ...] = ()
    default: str = ""
    problems: tuple[str, ...] = ()
    lines: int = 0

    def at(self, line: int) -> str:
        """The rule of the innermost labelled statement spanning ``line`` ("" where none does)."""
        around = [(last - first, -first, rule) for first, last, rule in self.spans if first <= line <= last]
        return min(around)[2] if around else ""


def _hidden_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line numbers of each hidden block, markers excluded."""
    blocks, start = [], None
    for n, text in enumerate(lines, start=1):
        if text.strip() == BEGIN:
            start = n
        elif text.strip() == END and start is not None:
            blocks.append((start + 1, n - 1))
            start = None
    return blocks


def _comments(source: str) -> dict[int, str]:
    """{line: comment} for each comment alone on its line."""
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and not tok.line[: tok.start[1]].strip():
            found[tok.start[0]] = tok.string
    return found


def _first_line(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def is_assertion(node: ast.stmt) -> bool:
    """An assert, a raise of AssertionError, or a call of an ``assert_*`` function as a statement."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(exc, ast.Name) and exc.id == "AssertionError"
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name.startswith("assert")
    return False


@functools.lru_cache(maxsize=256)
def rules_of(source: str) -> Rules:
    """A test cell's rules, and what is malformed about them (a cell that does not parse has none)."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
        comments = _comments(source)
    except (SyntaxError, tokenize.TokenError, ValueError) as exc:
        return Rules(problems=(f"does not parse: {exc}",), lines=len(lines))
    statements = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    starts: dict[int, ast.stmt] = {}
    for node in statements:  # the outermost statement starting on each line
        first = _first_line(node)
        if first not in starts or node.end_lineno > starts[first].end_lineno:
            starts[first] = node
    hidden = _hidden_lines(lines)
    in_hidden = lambda n: any(a <= n <= b for a, b in hidden)  # noqa: E731
    spans, defaults, problems, labelled = [], [], [], {}
    for line, comment in sorted(comments.items()):
        rule, default = RULE.match(comment), DEFAULT.match(comment)
        if not (rule or default):
            continue
        text = (rule or default).group(1).strip()
        where = f"line {line}"
        if not in_hidden(line):
            problems.append(f"{where}: a rule outside the hidden block")
            continue
        if not text or len(text) > MAX_RULE_CHARS:
            problems.append(f"{where}: a rule is one sentence of 1 to {MAX_RULE_CHARS} characters")
            continue
        if default:
            defaults.append(text)
            continue
        below = line + 1
        while below in comments:
            below += 1
        node = starts.get(below)
        if node is None:
            problems.append(f"{where}: the rule labels no statement (it must sit directly above one)")
        elif below in labelled:
            problems.append(f"{where}: a second rule for the statement at line {below}")
        else:
            labelled[below] = text
            spans.append((below, node.end_lineno, text))
    if len(defaults) != 1:
        problems.append(f"{len(defaults)} default rules (one per hidden test: '# default rule: ...')")
    for node in statements:
        first = _first_line(node)
        if is_assertion(node) and in_hidden(first):
            if not any(a <= first and node.end_lineno <= b for a, b, _ in spans):
                problems.append(f"line {first}: an assertion without a rule: {lines[first - 1].strip()[:80]}")
    default = defaults[0] if defaults else ""
    return Rules(tuple(spans), default, tuple(problems), len(lines))


def explain(source: str, line: int, raised_by: str = "") -> tuple[str, str]:
    """(kind, rule) a failed check broke: its test cell's ``source`` (trusted: the solution's), the
    line of the innermost frame of the cell's code (0: none) and the exercise whose call raised ("":
    the test's own code), as the checker found them. ("", "") where the failure names none."""
    if raised_by:
        return (RAISED, raised(raised_by)) if raised_by.isidentifier() and len(raised_by) <= 100 else ("", "")
    table = rules_of(source)
    if type(line) is not int or not 1 <= line <= table.lines:
        return "", ""
    found = table.at(line)
    if found:
        return STATEMENT, found
    return (CELL_DEFAULT, table.default) if table.default else ("", "")


def rule_for(source: str, line: int, raised_by: str = "") -> str:
    """The rule a failed check broke ("" where none), as ``explain`` finds it."""
    return explain(source, line, raised_by)[1]


def every_rule(source: str) -> list[str]:
    """Every sentence a failure of this cell can show but ``raised``'s: its rules, then its default."""
    table = rules_of(source)
    return list(dict.fromkeys([rule for _, _, rule in table.spans] + ([table.default] if table.default else [])))


NUMBER = re.compile(r"(?<![\w.])(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w])")


def _value(token: str) -> float:
    return float(int(token, 16)) if token[:2].lower() == "0x" else float(token)


def _hidden_constants(source: str) -> tuple[set[float], set[str]]:
    """The numbers (by value) and the strings the hidden blocks of ``source`` hold: its literals,
    the literal parts of its f-strings, and the numbers written inside its strings."""
    numbers, strings = set(), set()
    blocks = _hidden_lines(source.splitlines())
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Constant) or not any(a <= node.lineno <= b for a, b in blocks):
            continue
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            numbers.add(float(node.value))
        elif isinstance(node.value, str):
            strings.add(node.value.strip())
            numbers |= {_value(t) for t in NUMBER.findall(node.value)}
    return numbers, {s for s in strings if len(s) >= 4 and re.search(r"[A-Za-z]", s)}


def leaks(source: str, release_text: str, sentences: list[str] | None = None) -> list[str]:
    """What ``sentences`` (by default every rule of the test cell ``source``) hold of its hidden
    blocks' data or messages that ``release_text`` (the student release) does not already hold: a
    number of the hidden code's literals or strings (by value), or a whole string of it."""
    numbers, strings = _hidden_constants(source)
    released = {_value(t) for t in NUMBER.findall(release_text)}
    found = []
    for sentence in every_rule(source) if sentences is None else sentences:
        for token in NUMBER.findall(sentence):
            if _value(token) in numbers and _value(token) not in released:
                found.append(f"{sentence!r}: the hidden test's number {token}")
        for text in sorted(strings):
            if text in sentence and text not in release_text:
                found.append(f"{sentence!r}: the hidden test's string {text!r}")
    return found


def notebook_problems(cells) -> list[str]:
    """What is malformed about the rules of a notebook's hidden tests: ``cells`` (grade_id, source)
    pairs, those holding a hidden block checked (``rules_of``), each problem prefixed with its
    cell's grade_id. Empty: every assertion of every hidden test has its rule (lessoncheck)."""
    found = []
    for grade_id, source in cells:
        if BEGIN in source:
            found += [f"{grade_id}: {p}" for p in rules_of(source).problems]
    return found
