"""Answers to lesson 02 that meet a choice the chip's compiler makes either way (grader/core/readings.py).

A bf16 accumulator written as a JAX loop that rounds its inputs to bf16 by a cast inside the loop's
body: inside a compiled program the chip drops a cast round trip, unless its compiler moves the cast
of the loop's input (or of x[:, k], a part of it) out of the loop, where it is stored and rounded.
Whether it does depends on shapes the recorded programs do not pin down (docs/HARDWARE.md,
``loop-casts``), so these answers' verdicts are the chip's (chip/answers.json): the grader on a CPU
grades a failed check of them under both readings and must give what the chip gave. ``intent`` is
what their writer expected; the chip decides.
"""

ANSWERS = [
    {
        "function": "emulated_bf16_accumulation",
        "intent": "either",
        "why": "fori_loop over k, x[:, k] and w[k] rounded by a cast round trip inside the body",
        "source": """
def emulated_bf16_accumulation(x, w):
    x, w = jnp.asarray(x, jnp.float32), jnp.asarray(w, jnp.float32)
    if x.shape[1] == 0:  # no term: the sum is 0 (a loop's body is traced even for no step)
        return np.zeros((x.shape[0], w.shape[1]), np.float32)

    def step(k, acc):
        xk = x[:, k].astype(jnp.bfloat16).astype(jnp.float32)
        wk = w[k, :].astype(jnp.bfloat16).astype(jnp.float32)
        return (acc.astype(jnp.float32) + xk[:, None] * wk[None, :]).astype(jnp.bfloat16)

    acc = jax.lax.fori_loop(0, x.shape[1], step, jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16))
    return np.asarray(acc.astype(jnp.float32))
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "intent": "either",
        "why": "lax.scan over the columns of x and rows of w, each rounded by a cast round trip inside the body",
        "source": """
def emulated_bf16_accumulation(x, w):
    x, w = jnp.asarray(x, jnp.float32), jnp.asarray(w, jnp.float32)
    if x.shape[1] == 0:  # no term: the sum is 0 (a loop's body is traced even for no step)
        return np.zeros((x.shape[0], w.shape[1]), np.float32)

    def step(acc, kw):
        xk = kw[0].astype(jnp.bfloat16).astype(jnp.float32)
        wk = kw[1].astype(jnp.bfloat16).astype(jnp.float32)
        return (acc.astype(jnp.float32) + xk[:, None] * wk[None, :]).astype(jnp.bfloat16), None

    acc, _ = jax.lax.scan(step, jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16), (x.T, w))
    return np.asarray(acc.astype(jnp.float32))
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "intent": "either",
        "why": "while_loop over k, x[:, k] and w[k] rounded by a cast round trip inside the body",
        "source": """
def emulated_bf16_accumulation(x, w):
    x, w = jnp.asarray(x, jnp.float32), jnp.asarray(w, jnp.float32)
    if x.shape[1] == 0:  # no term: the sum is 0 (a loop's body is traced even for no step)
        return np.zeros((x.shape[0], w.shape[1]), np.float32)

    def body(state):
        k, acc = state
        xk = x[:, k].astype(jnp.bfloat16).astype(jnp.float32)
        wk = w[k, :].astype(jnp.bfloat16).astype(jnp.float32)
        return k + 1, (acc.astype(jnp.float32) + xk[:, None] * wk[None, :]).astype(jnp.bfloat16)

    init = (0, jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16))
    _, acc = jax.lax.while_loop(lambda s: s[0] < x.shape[1], body, init)
    return np.asarray(acc.astype(jnp.float32))
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "intent": "correct",
        "why": "fori_loop over k, the inputs rounded before the loop (bf16 arrays: stored, so rounded)",
        "source": """
def emulated_bf16_accumulation(x, w):
    xb = jnp.asarray(x, jnp.float32).astype(jnp.bfloat16)
    wb = jnp.asarray(w, jnp.float32).astype(jnp.bfloat16)
    if xb.shape[1] == 0:  # no term: the sum is 0 (a loop's body is traced even for no step)
        return np.zeros((xb.shape[0], wb.shape[1]), np.float32)

    def step(k, acc):
        p = xb[:, k].astype(jnp.float32)[:, None] * wb[k, :].astype(jnp.float32)[None, :]
        return (acc.astype(jnp.float32) + p).astype(jnp.bfloat16)

    acc = jax.lax.fori_loop(0, xb.shape[1], step, jnp.zeros((xb.shape[0], wb.shape[1]), jnp.bfloat16))
    return np.asarray(acc.astype(jnp.float32))
""",
    },
    {
        "function": "emulated_bf16_accumulation",
        "intent": "wrong",
        "why": "fori_loop over k, the float32 inputs never rounded to bf16",
        "source": """
def emulated_bf16_accumulation(x, w):
    x, w = jnp.asarray(x, jnp.float32), jnp.asarray(w, jnp.float32)
    if x.shape[1] == 0:  # no term: the sum is 0 (a loop's body is traced even for no step)
        return np.zeros((x.shape[0], w.shape[1]), np.float32)

    def step(k, acc):
        return (acc.astype(jnp.float32) + x[:, k][:, None] * w[k, :][None, :]).astype(jnp.bfloat16)

    acc = jax.lax.fori_loop(0, x.shape[1], step, jnp.zeros((x.shape[0], w.shape[1]), jnp.bfloat16))
    return np.asarray(acc.astype(jnp.float32))
""",
    },
]
