"""What the TPU emulation does not model, as the differential fuzzer found it (fuzz.py): each limit a
sentence (docs/HARDWARE.md quotes them) and a test of a program's text and tags. A program whose
outputs are not the chip's must fall under one of these, or the emulation has a gap nobody wrote
down (tests/test_fuzz.py fails then, naming the program).

The limits are mechanisms of the chip's compiler that the recorded programs show but do not pin
down to a rule (they depend on shapes, types and fusion decisions the emulation cannot see), or
arithmetic the chip does its own way. Each is narrow on purpose: a limit that explained every
mismatch would hide the next gap.
"""

from __future__ import annotations

import re

VECTOR_DOTS = {"dot-class:matrix-vector", "dot-class:matrix-vector (M or N = 1)", "dot-class:one-term"}
VECTOR_DOTS |= {"dot-class:vector-vector"}
LOOPS = {"structure:scan", "structure:fori_loop", "structure:while_loop"}
TINY = ("float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")
NARROW_RESULT = re.compile(r"preferred_element_type=jnp\.(bfloat16|float16)")


def _narrow_result_vector_dot(tags: set, source: str) -> bool:
    return bool(tags & VECTOR_DOTS) and bool(NARROW_RESULT.search(source))


def _dot_class(program: dict) -> set:
    """The program's dot-class tags; for the second round's bf16-operand dots (tagged without one),
    the class their x @ w has at the program's shapes."""
    tags = set(program["tags"])
    if "bf16-operands" in tags and not any(t.startswith("dot-class:") for t in tags):
        m, k, n = program["shapes"]
        tags.add(
            "dot-class:one-term" if k == 1 else "dot-class:matrix-vector" if 1 in (m, n) else "dot-class:matrix-matrix"
        )
    return tags


def _narrow_result_matrix_dot(tags: set, source: str) -> bool:
    """A matrix-matrix (or batched) dot with a narrow result type that a later operation narrows or
    sums again, or with an operand of another narrow type at HIGH or HIGHEST precision."""
    if not ("dot-class:matrix-matrix" in tags or "dot-class:batched" in tags) or not NARROW_RESULT.search(source):
        return False
    after = source[NARROW_RESULT.search(source).end() :]
    again = re.search(r"reduce_precision|astype\(jnp\.float(8|4)|jnp\.(sum|cumsum|mean)", after)
    mixed = re.search(r"astype\(jnp\.(float16|float8\w*)\)", source) and re.search(r"Precision\.HIGH", source)
    return bool(again or mixed)


def _loop_casts(tags: set, source: str) -> bool:
    return bool(tags & LOOPS) and bool(re.search(r"astype\(jnp\.(bfloat16|float16|float8|float4)", source))


def _division(tags: set, source: str) -> bool:
    by_constant = len(re.findall(r" / [0-9.e-]+", source))
    beside = by_constant and re.search(r" \* [0-9.e-]+", source)
    return "array-division" in tags or by_constant >= 2 or bool(beside)


def _grad_casts(tags: set, source: str) -> bool:
    return "structure:grad" in tags


DOT = r"(jnp\.dot|jnp\.matmul|jnp\.einsum|jax\.lax\.dot_general|\w+ @ \w+)"
LAID_OUT = r"jnp\.concatenate|jnp\.broadcast_to|\[::2\]"
SECOND_CAST = r"astype\(jnp\.(bfloat16|float16|float8\w*|float4\w*)\)\n\s+t\d+ = t\d+\.astype\(jnp\.(?!float32)"


def _narrow_compositions(tags: set, source: str) -> bool:
    """Narrow values composed beyond the recorded patterns (see LIMITS)."""
    tiny = any(t in source for t in TINY)
    dot_then_tiny = re.search(DOT + r"[^\n]*\n(\s+t\d+ = [^\n]*\n)*?\s+t\d+ = t\d+\.astype\(jnp\.float(8|4)", source)
    reduced_into_dot = re.search(r"jnp\.(sum|max|mean)\(t\d+[^\n]*\n\s+t\d+ = " + DOT, source)
    return bool(
        re.search(r"reduce_precision\(t\d+", source)
        and tiny
        or re.search(SECOND_CAST, source)
        or (tiny and ("structure:cond" in tags or "structure:checkpoint" in tags))
        or (
            re.search(r"jnp\.concatenate|jnp\.broadcast_to|\[::2\]", source)
            and re.search(r"astype\(jnp\.(?!float32)", source)
        )
        or dot_then_tiny
        or reduced_into_dot
    )


def _narrow_reductions(tags: set, source: str) -> bool:
    """A reduction of narrow values whose result is cast again, or one of fp8 or fp4 values under vmap."""
    narrow = re.search(r"astype\(jnp\.(bfloat16|float16|float8\w*|float4\w*)\)", source)
    recast = re.search(r"jnp\.(max|min|sum|mean)\(t\d+[^\n]*\n\s+t\d+ = t\d+\.astype", source)
    under_vmap = "structure:vmap" in tags and any(t.startswith("reduce:") for t in tags)
    return bool(narrow and (recast or (under_vmap and any(t in source for t in TINY))))


LIMITS = {
    "narrow-result-vector-dot": (
        "A matrix-vector, vector-vector or one-term dot whose result type is bfloat16 or float16: the "
        "chip's compiler rewrites it as a multiply and a sum in that type (the products rounded to it), "
        "summed in an order the emulation does not model (it sums in float32 and rounds once): the "
        "chip's result can be a few of that type's steps away.",
        _narrow_result_vector_dot,
    ),
    "narrow-result-matrix-dot": (
        "A matrix-matrix dot with a bfloat16 or float16 result type whose result is narrowed or summed "
        "again: where the chip rounds the dot's result before the next step is not modelled.",
        _narrow_result_matrix_dot,
    ),
    "loop-casts": (
        "Narrow casts in a loop's body (lax.scan, fori_loop, while_loop): the chip may move a cast of "
        "the loop's input, or of a part of it taken by the loop's index, out of the loop (and round "
        "it), and whether it does depends on shapes and types the recorded programs do not pin down; "
        "the emulation rounds a scan's cast of its inputs and values computed from them alone, and "
        "keeps the others in float32; the grader grades a failed check of such a program under the "
        "other reading too (docs/GRADING.md).",
        _loop_casts,
    ),
    "division": (
        "Division by an array, by constants in a chain, or by a constant beside a multiplication by "
        "one: the chip's compiler turns these into multiplications by reciprocals it computes its "
        "own way, which the emulation does not model (it divides, correctly rounded).",
        _division,
    ),
    "grad-casts": (
        "Gradients through narrow casts: the chip's rounding of the transposed casts (the cotangents) is not modelled.",
        _grad_casts,
    ),
    "narrow-compositions": (
        "Narrow values composed beyond the recorded patterns: reduce_precision of an fp8 or fp4 value, a "
        "cast from one narrow type to another, fp8 or fp4 in a cond branch or a checkpoint, a narrow "
        "cast of a concatenation, broadcast or strided slice (also under vmap), a dot's result cast to "
        "fp8 or fp4, a sum or maximum fed to a dot: where the chip keeps such a value in float32 and "
        "where it rounds it is not modelled. The lessons use these types only as recorded.",
        _narrow_compositions,
    ),
    "narrow-reductions": (
        "A reduction (max, min, sum, mean) of narrow values whose narrow result is cast again, or a "
        "reduction of fp8 or fp4 values under vmap: the emulation rounds a reduction's narrow result "
        "(as recorded for sums); the chip sometimes keeps it in float32 (a maximum of float16 values "
        "cast back to float32 returned the unrounded maximum), and when is not modelled.",
        _narrow_reductions,
    ),
}


def explain(program: dict) -> str:
    """The limit a program's mismatch falls under ("" for none: a gap nobody wrote down)."""
    tags, source = _dot_class(program), program["source"]
    return next((name for name, (_, test) in LIMITS.items() if test(tags, source)), "")
