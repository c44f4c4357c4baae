"""Held-out wrong answers for 05_precision_policy (see README.md)."""

HELDOUT = [
    {
        "key": "05_precision_policy:train_linear_regression:ignores-lr",
        "function": "train_linear_regression",
        "why": "held-out: a Python loop with the step size written in",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    w = jnp.zeros(X.shape[1], jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    Xb = X.astype(jnp.bfloat16)
    out = []
    for _ in range(steps):
        if policy == "fp32":
            r = jnp.dot(X, w, precision=HIGHEST) - y
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            r = jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) - y
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        out.append(float(jnp.mean(r * r)))
        if policy == "bf16_params":
            w = (w.astype(jnp.float32) - 0.1 * g).astype(jnp.bfloat16)
        else:
            w = w - 0.1 * g
    return out
""",
    },
    {
        "key": "05_precision_policy:train_linear_regression:one-loss-too-many",
        "function": "train_linear_regression",
        "why": "held-out: the loss after the last update appended",
        "source": """
def train_linear_regression(policy, steps=200, lr=0.1, seed=0):
    if policy not in ("fp32", "bf16_params", "bf16_master_fp32"):
        raise ValueError(policy)
    X, y, _ = regression_problem(seed)
    n = X.shape[0]
    Xb = X.astype(jnp.bfloat16)

    def residual(w):
        if policy == "fp32":
            return jnp.dot(X, w, precision=HIGHEST) - y
        return jnp.dot(Xb, w.astype(jnp.bfloat16), preferred_element_type=jnp.float32) - y

    w = jnp.zeros(X.shape[1], jnp.bfloat16 if policy == "bf16_params" else jnp.float32)
    losses = []
    for _ in range(steps):
        r = residual(w)
        losses.append(float(jnp.mean(r * r)))
        if policy == "fp32":
            g = (2.0 / n) * jnp.dot(X.T, r, precision=HIGHEST)
        else:
            g = (2.0 / n) * jnp.dot(Xb.T, r.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
        w = (w.astype(jnp.float32) - lr * g).astype(jnp.bfloat16) if policy == "bf16_params" else w - lr * g
    r = residual(w)
    losses.append(float(jnp.mean(r * r)))
    return losses
""",
    },
]
