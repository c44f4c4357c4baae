"""The report's figures, drawn with matplotlib's object API (``matplotlib.figure.Figure``: no
pyplot state, safe in any thread) and returned as PNG data URIs for a self-contained page.
Greyscale throughout: grey levels and hatches, never colour alone."""

from __future__ import annotations

import base64
import io

from .data import STATUSES
from .stats import CheckStats


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(w: float, h: float, ncols: int = 1):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", color="0.85", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, axes


def lesson_figure(lesson: str, st: dict) -> str:
    """Score histogram (mean and median marked) beside the count of each status."""
    fig, (ax, ax2) = _figure(9.5, 3.2, 2)
    top = st["max_score"]
    scores = st["scores"]
    if scores and all(float(s).is_integer() for s in scores) and top <= 60:
        bins = [b - 0.5 for b in range(int(top) + 2)]
    else:
        bins = 20
    ax.hist(
        scores,
        bins=bins,
        range=None if isinstance(bins, list) else (0, max(top, 1)),
        color="0.55",
        edgecolor="black",
        linewidth=0.6,
    )
    if scores:
        ax.axvline(st["mean"], color="black", linestyle="--", linewidth=1.6, label=f"mean {st['mean']:.1f}")
        ax.axvline(st["median"], color="black", linestyle=":", linewidth=2.2, label=f"median {st['median']:g}")
        ax.legend(loc="upper left", frameon=True, fontsize=8)
    ax.set_xlim(-0.6, top + 0.6)
    ax.set_xlabel(f"score (points, of {top:g})")
    ax.set_ylabel("students (count)")
    ax.set_title(f"{lesson}: {st['submitted']} submitted", fontsize=10)
    ax.yaxis.get_major_locator().set_params(integer=True)

    counts = [st[s] for s in STATUSES]
    shades = ["0.85", "0.65", "0.45", "0.25", "1.0"]
    hatches = ["", "..", "xx", "//", "\\\\"]
    bars = ax2.barh(list(STATUSES), counts, color=shades, edgecolor="black", linewidth=0.6, hatch=hatches)
    ax2.bar_label(bars, labels=[str(c) for c in counts], padding=3, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlabel("notebooks (count)")
    ax2.set_xlim(0, max(counts + [1]) * 1.15)
    ax2.set_title("status", fontsize=10)
    ax2.xaxis.get_major_locator().set_params(integer=True)
    ax2.grid(axis="x", color="0.85", linewidth=0.6)
    return _png(fig)


def checks_figure(lesson: str, stats: list[CheckStats]) -> str:
    """Per exercise, the share of students passing its visible and its hidden check."""
    exercises = list(dict.fromkeys(s.exercise for s in stats))
    kinds = {True: ("hidden", "0.3", "//"), False: ("visible", "0.75", ""), None: ("check", "0.55", "..")}
    present = [k for k in (False, True, None) if any(s.hidden is k for s in stats)]
    width = 0.8 / max(len(present), 1)
    fig, (ax,) = _figure(max(6.0, 1.3 * len(exercises) + 2), 3.4)
    for i, kind in enumerate(present):
        label, shade, hatch = kinds[kind]
        xs, ys, ns = [], [], []
        for j, ex in enumerate(exercises):
            for s in stats:
                if s.exercise == ex and s.hidden is kind and s.n:
                    xs.append(j + (i - (len(present) - 1) / 2) * width)
                    ys.append(100 * s.share)
                    ns.append(f"{s.passed}/{s.n}")
        bars = ax.bar(
            xs,
            ys,
            width=width * 0.95,
            color=shade,
            edgecolor="black",
            linewidth=0.6,
            hatch=hatch,
            label=f"{label} check",
        )
        ax.bar_label(bars, labels=ns, padding=2, fontsize=7)
    ax.set_xticks(range(len(exercises)), exercises, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 25))
    ax.set_ylabel("students passing (%)")
    ax.set_xlabel("exercise (function graded)")
    ax.set_title(f"{lesson}: who passed each check (labels: passed / submitted)", fontsize=10)
    ax.legend(loc="upper right", fontsize=8, ncols=len(present))
    return _png(fig)


def overview_figure(top: list[CheckStats]) -> str:
    """The checks that cost the class most points to wrong answers."""
    fig, (ax,) = _figure(9.5, 0.45 * len(top) + 1.2)
    labels = [f"{s.lesson[:2]} {s.grade_id}" for s in top]
    shades = ["0.3" if s.hidden else "0.75" for s in top]
    hatches = ["//" if s.hidden else "" for s in top]
    bars = ax.barh(labels, [s.lost_wrong for s in top], color=shades, hatch=hatches, edgecolor="black", linewidth=0.6)
    labels = [f"{s.lost_wrong:g} pts, {len(s.wrong)} student{'s' * (len(s.wrong) != 1)}" for s in top]
    ax.bar_label(bars, labels=labels, padding=3, fontsize=8)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("points lost to wrong answers (points, summed over students)")
    ax.set_xlim(0, max(s.lost_wrong for s in top) * 1.35)
    ax.grid(axis="x", color="0.85", linewidth=0.6)
    ax.set_title("Checks that cost the class most points (hatched: hidden check)", fontsize=10)
    return _png(fig)
