# ruff: noqa: E501  (claims are one-line expressions)
"""Claims backing the explanations of solutions/04_xprof_profiling/mistakes.py (tests/test_claims.py).

One real trace, written once for the lesson: twelve steps annotated ``claim_step`` (step_num 0 to
11, each sleeping a little longer than the one before) around a warmed jitted matmul."""

HELPERS = '''
def claim_trace():
    if "trace" not in CACHE:
        folder = TMP / "steps"
        step = jax.jit(lambda a: jnp.tanh(a @ a))
        a = jnp.ones((64, 64), jnp.float32)
        jax.block_until_ready(step(a))
        with jax.profiler.trace(str(folder)):
            for i in range(12):
                with jax.profiler.StepTraceAnnotation("claim_step", step_num=i):
                    jax.block_until_ready(step(a))
                    time.sleep(0.001 * (i + 1))
        CACHE["trace"] = next(folder.rglob("*.xplane.pb"))
    return CACHE["trace"]


class FakeClock:
    """time, whose perf_counter advances one second a call."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 1.0
        return self.now

    def __getattr__(self, name):
        return getattr(__import__("time"), name)


def on_fake_clock(fn, *args, **kwargs):
    global time
    real, time = time, FakeClock()
    try:
        return fn(*args, **kwargs)
    finally:
        time = real


def in_reused_folder():
    """capture_warmed_trace into a folder that already holds an earlier run's xplane."""
    folder = TMP / f"reused-{len(list(TMP.iterdir()))}"
    shutil.copytree(claim_trace().parents[1], folder / "plugins" / "profile")
    (folder / "plugins" / "profile" / claim_trace().parent.name).rename(folder / "plugins" / "profile" / "earlier-run")
    return capture_warmed_trace(steps=1, trace_dir=str(folder)), len(list(folder.rglob("*.xplane.pb")))


import shutil  # noqa: E402
'''

CLAIMS = {
    "count_events:case-insensitive": [
        "count_events(claim_trace(), 'CLAIM_STEP') == 12",
        "reference['count_events'](claim_trace(), 'CLAIM_STEP') == 0",
        "reference['count_events'](claim_trace(), 'claim_step') == 12",
    ],
    "step_times_ms:microseconds": [
        "[round(m / r, 9) for m, r in zip(step_times_ms(claim_trace(), 'claim_step'), reference['step_times_ms'](claim_trace(), 'claim_step'))] == [1000.0] * 12",
    ],
    "step_times_ms:step-num-sorted-as-text": [
        "step_times_ms(claim_trace(), 'claim_step') == [reference['step_times_ms'](claim_trace(), 'claim_step')[i] for i in sorted(range(12), key=str)]",
        "step_times_ms(claim_trace(), 'claim_step') != reference['step_times_ms'](claim_trace(), 'claim_step')",
    ],
    "top_ops:milliseconds": [
        "[n for n, _ in top_ops(claim_trace())] == [n for n, _ in reference['top_ops'](claim_trace())]",
        "[round(r / m, 6) for (_, m), (_, r) in zip(top_ops(claim_trace()), reference['top_ops'](claim_trace()))] == [1000.0] * len(top_ops(claim_trace()))",
    ],
    "top_ops:k-zero-returns-all": [
        "len(top_ops(claim_trace(), k=0)) == len(top_ops(claim_trace(), k=10_000)) > 0",
        "reference['top_ops'](claim_trace(), k=0) == []",
    ],
    "capture_warmed_trace:seconds-not-milliseconds": [
        "(lambda r: (r['warmup_ms'], r['steady_ms']))(on_fake_clock(capture_warmed_trace, steps=2, trace_dir=str(TMP / 'clock'))) == (1.0, 0.5)",
    ],
    "capture_warmed_trace:counts-newest-run-only": [
        "(lambda got: got[0]['xplane_count'] == 1 and got[1] == 2)(in_reused_folder())",
    ],
}

# (entry, another entry of the same function): the first's claims are not all True for the second's
# source, so the claims say something about their own entry's code (tests/test_claims.py)
DISTINCT = [
    ("step_times_ms:microseconds", "step_times_ms:step-num-sorted-as-text"),
]
