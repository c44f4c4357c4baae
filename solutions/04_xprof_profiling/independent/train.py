"""Independent student answers for lesson 04_xprof_profiling (train set).

Written from the student notebook and COURSE.md only. Some mistakes follow public reports about
jax.profiler: cold traces full of compile events because the jitted function is rebuilt inside the
trace, traces written to a fixed ./folder in the repository, timing asynchronous dispatch without
block_until_ready, and double-counted GPU ops from host-side kernel launch events.
"""

_STEP = '''
def _make_step():
    return jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
'''

ANSWERS = [
    # ------------------------------------------------------------ capture_warmed_trace
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "steady_ms is the whole traced loop's wall time, not divided by steps",
     "source": _STEP + '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = str(Path(trace_dir).resolve())
    os.makedirs(trace_dir, exist_ok=True)
    step_fn = _make_step()
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1000
    n = len(list(Path(trace_dir).rglob("*.xplane.pb")))
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": n, "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "keeps the seed's fixed default folder ./tpu-xprof-trace in the working directory when no trace_dir is given",
     "source": _STEP + '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR", "./tpu-xprof-trace")
    trace_dir = os.path.abspath(trace_dir)
    os.makedirs(trace_dir, exist_ok=True)
    step_fn = _make_step()
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1e3
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1e3 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(glob.glob(os.path.join(trace_dir, "**", "*.xplane.pb"), recursive=True)),
            "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "uses a tempfile.TemporaryDirectory context, so the default trace directory is deleted when the function returns",
     "source": _STEP + '''
def _run(steps, trace_dir):
    step_fn = _make_step()
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1e3
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1e3 / steps
    count = len(list(Path(trace_dir).rglob("*.xplane.pb")))
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": count,
            "trace_dir": str(Path(trace_dir).resolve())}

def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR")
    if trace_dir is not None:
        os.makedirs(trace_dir, exist_ok=True)
        return _run(steps, trace_dir)
    with tempfile.TemporaryDirectory() as tmp:
        return _run(steps, tmp)
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "warms up one jitted step but builds a fresh jax.jit(lambda ...) for the traced loop, so it compiles inside the trace",
     "source": _STEP + '''
def capture_warmed_trace(steps=4, trace_dir=None):
    trace_dir = trace_dir or os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = os.path.abspath(trace_dir)
    os.makedirs(trace_dir, exist_ok=True)
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    jax.block_until_ready(_make_step()(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    with jax.profiler.trace(trace_dir):
        step_fn = _make_step()
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(Path(trace_dir).rglob("*.xplane.pb"))), "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "xplane_count counts every file the trace wrote (xplane.pb and trace.json.gz), not only *.xplane.pb",
     "source": _STEP + '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = str(Path(trace_dir).absolute())
    Path(trace_dir).mkdir(parents=True, exist_ok=True)
    step_fn = _make_step()
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    step_fn(x).block_until_ready()
    warmup_ms = (time.perf_counter() - t0) * 1e3
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        x.block_until_ready()
        steady_ms = (time.perf_counter() - t0) * 1e3 / steps
    files = [p for p in Path(trace_dir).rglob("*") if p.is_file()]
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": len(files), "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "never synchronises the traced loop: steady_ms measures only asynchronous dispatch",
     "source": _STEP + '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = os.path.abspath(trace_dir)
    os.makedirs(trace_dir, exist_ok=True)
    step_fn = _make_step()
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1e3
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        steady_ms = (time.perf_counter() - t0) * 1e3 / steps
    jax.block_until_ready(x)
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(Path(trace_dir).rglob("*.xplane.pb"))), "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "correct",
     "why": "env/tempdir fallback, warm-up on the same x, one sync at the end of the traced chain",
     "source": '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        env = os.environ.get("TPU_TRACE_DIR")
        trace_dir = env if env else tempfile.mkdtemp(prefix="cwt-")
    d = Path(trace_dir).expanduser().resolve()
    d.mkdir(parents=True, exist_ok=True)

    @jax.jit
    def step_fn(a):
        return jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16)

    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    start = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = 1e3 * (time.perf_counter() - start)
    with jax.profiler.trace(str(d)):
        start = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        elapsed = time.perf_counter() - start
    return {"warmup_ms": float(warmup_ms), "steady_ms": float(1e3 * elapsed / steps),
            "xplane_count": sum(1 for _ in d.rglob("*.xplane.pb")), "trace_dir": str(d)}
'''},
    # ------------------------------------------------------------ xplane_path
    {"function": "xplane_path", "intent": "wrong",
     "why": "takes the last file in sorted name order (timestamped folders) instead of the newest by mtime",
     "source": '''
def xplane_path(trace_dir):
    files = sorted(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return files[-1]
'''},
    {"function": "xplane_path", "intent": "wrong",
     "why": "only looks at the documented depth plugins/profile/<run>/ instead of searching recursively",
     "source": '''
def xplane_path(trace_dir):
    files = glob.glob(os.path.join(str(trace_dir), "plugins", "profile", "*", "*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return Path(max(files, key=os.path.getmtime))
'''},
    {"function": "xplane_path", "intent": "wrong",
     "why": "no check for an empty result: max() of nothing raises ValueError, not FileNotFoundError",
     "source": '''
def xplane_path(trace_dir):
    return max(Path(trace_dir).rglob("*.xplane.pb"), key=lambda p: p.stat().st_mtime)
'''},
    {"function": "xplane_path", "intent": "correct",
     "why": "os.walk over the tree, newest by st_mtime, clear FileNotFoundError",
     "source": '''
def xplane_path(trace_dir):
    best, best_t = None, None
    for root, _dirs, names in os.walk(str(trace_dir)):
        for n in names:
            if n.endswith(".xplane.pb"):
                p = Path(root) / n
                t = p.stat().st_mtime
                if best is None or t > best_t:
                    best, best_t = p, t
    if best is None:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return best
'''},
    # ------------------------------------------------------------ count_events
    {"function": "count_events", "intent": "wrong",
     "why": "counts names equal to the string instead of names containing it",
     "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return sum(1 for plane in data.planes for line in plane.lines for ev in line.events
               if ev.name == name_substring)
'''},
    {"function": "count_events", "intent": "wrong",
     "why": "counts distinct matching names (a set) instead of events",
     "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    names = set()
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                if name_substring in ev.name:
                    names.add(ev.name)
    return len(names)
'''},
    {"function": "count_events", "intent": "wrong",
     "why": "only counts the host planes (/host:...), skipping device and other planes",
     "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    n = 0
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            n += sum(name_substring in ev.name for ev in line.events)
    return int(n)
'''},
    # ------------------------------------------------------------ step_times_ms
    {"function": "step_times_ms", "intent": "wrong",
     "why": "orders the steps by start time instead of by step_num",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name == step_name and "step_num" in dict(ev.stats):
                    found.append((ev.start_ns, ev.duration_ns / 1e6))
    return [d for _, d in sorted(found)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "unit slip: divides duration_ns by 1e3 (microseconds) instead of 1e6",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if ev.name == step_name and "step_num" in st:
                    found.append((int(st["step_num"]), ev.duration_ns / 1e3))
    return [d for _, d in sorted(found)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "substring match on the name, so a step called 'train_eval' is taken as 'train'",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if step_name in ev.name and "step_num" in st:
                    found.append((int(st["step_num"]), ev.duration_ns / 1e6))
    return [d for _, d in sorted(found)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "does not check for the step_num stat, so plain TraceAnnotations with the same name are counted as steps",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    steps = []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name == step_name:
                    st = dict(ev.stats)
                    steps.append((int(st.get("step_num", 10**9)), ev.start_ns, ev.duration_ns / 1e6))
    return [d for _, _, d in sorted(steps)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "collects steps in a dict keyed by step_num, so steps that share a number (another thread or run) overwrite each other",
     "source": '''
def step_times_ms(xplane_file, step_name):
    prof = ProfileData.from_file(str(xplane_file))
    by_num = {}
    for plane in prof.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name != step_name:
                    continue
                stats = {k: v for k, v in ev.stats if k is not None}
                if "step_num" in stats:
                    by_num[int(stats["step_num"])] = (ev.end_ns - ev.start_ns) / 1e6
    return [by_num[n] for n in sorted(by_num)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "searches every plane, not only the host planes where StepTraceAnnotation records steps",
     "source": '''
def step_times_ms(xplane_file, step_name):
    prof = ProfileData.from_file(str(xplane_file))
    rows = []
    for plane in prof.planes:
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if ev.name == step_name and "step_num" in st:
                    rows.append((int(st["step_num"]), ev.start_ns, ev.duration_ns / 1e6))
    rows.sort()
    return [r[2] for r in rows]
'''},
    {"function": "step_times_ms", "intent": "correct",
     "why": "list of (step_num, start, ms) from host planes, sorted by step_num, nothing dropped",
     "source": '''
def step_times_ms(xplane_file, step_name):
    prof = ProfileData.from_file(str(xplane_file))
    rows = []
    for plane in prof.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name != step_name:
                    continue
                stats = {k: v for k, v in ev.stats if k is not None}
                if "step_num" in stats:
                    rows.append((int(stats["step_num"]), ev.start_ns, (ev.end_ns - ev.start_ns) / 1e6))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [ms for _, _, ms in rows]
'''},
    # ------------------------------------------------------------ top_ops
    {"function": "top_ops", "intent": "wrong",
     "why": "names ops by the event name even where the hlo_op stat names the op (GPU kernels split one op into rows)",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    planes = list(data.planes)
    def ops(plane):
        out = []
        lines = list(plane.lines)
        if any(l.name == "XLA Ops" for l in lines):
            return [(ev.name, ev.duration_ns) for l in lines if l.name == "XLA Ops" for ev in l.events]
        for l in lines:
            for ev in l.events:
                if "hlo_op" in dict(ev.stats):
                    out.append((ev.name, ev.duration_ns))
        return out
    events = [e for p in planes if p.name.startswith("/device:") for e in ops(p)]
    if not events:
        events = [e for p in planes if p.name.startswith("/host:") for e in ops(p)]
    totals = defaultdict(float)
    for name, dur in events:
        totals[name] += dur / 1e3
    return sorted(totals.items(), key=lambda t: t[1], reverse=True)[:k]
'''},
    {"function": "top_ops", "intent": "wrong",
     "why": "sums hlo_op events from host and device planes together (GPU launches on the host double the time)",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    totals = defaultdict(float)
    for plane in data.planes:
        lines = list(plane.lines)
        has_ops_line = any(l.name == "XLA Ops" for l in lines)
        for line in lines:
            for ev in line.events:
                if has_ops_line:
                    if line.name == "XLA Ops":
                        totals[ev.name] += ev.duration_ns / 1e3
                    continue
                st = dict(ev.stats)
                if "hlo_op" in st:
                    totals[str(st["hlo_op"])] += ev.duration_ns / 1e3
    return sorted(totals.items(), key=lambda t: -t[1])[:k]
'''},
    {"function": "top_ops", "intent": "wrong",
     "why": "only looks for hlo_op stats: misses TPU traces, whose XLA Ops line events carry the op in their name",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    planes = list(data.planes)
    def collect(pl):
        res = []
        for line in pl.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    res.append((str(st["hlo_op"]), ev.duration_ns / 1e3))
        return res
    events = [e for p in planes if p.name.startswith("/device:") for e in collect(p)]
    if not events:
        events = [e for p in planes if p.name.startswith("/host:") for e in collect(p)]
    totals = {}
    for n, us in events:
        totals[n] = totals.get(n, 0.0) + us
    return sorted(totals.items(), key=lambda t: -t[1])[:k]
'''},
    {"function": "top_ops", "intent": "wrong",
     "why": "keeps the longest single event per op (max) instead of the total over all its events",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    planes = list(data.planes)
    def collect(pl):
        lines = list(pl.lines)
        if any(l.name == "XLA Ops" for l in lines):
            return [(ev.name, ev.duration_ns / 1e3) for l in lines if l.name == "XLA Ops" for ev in l.events]
        return [(str(dict(ev.stats)["hlo_op"]), ev.duration_ns / 1e3)
                for l in lines for ev in l.events if "hlo_op" in dict(ev.stats)]
    events = [e for p in planes if p.name.startswith("/device:") for e in collect(p)]
    if not events:
        events = [e for p in planes if p.name.startswith("/host:") for e in collect(p)]
    best = {}
    for n, us in events:
        best[n] = max(best.get(n, 0.0), us)
    return sorted(best.items(), key=lambda t: -t[1])[:k]
'''},
    {"function": "top_ops", "intent": "correct",
     "why": "device planes first, XLA Ops line else hlo_op stats, totals per op name in microseconds",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))

    def op_events(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        out = []
        for line in lines:
            for ev in line.events:
                stats = {key: val for key, val in ev.stats if key is not None}
                if "hlo_op" in stats:
                    out.append((str(stats["hlo_op"]), ev.duration_ns))
        return out

    planes = list(data.planes)
    device = [e for p in planes if p.name.startswith("/device:") for e in op_events(p)]
    events = device or [e for p in planes if p.name.startswith("/host:") for e in op_events(p)]
    totals = defaultdict(float)
    for name, dur_ns in events:
        totals[name] += dur_ns / 1e3
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
    return [(name, float(us)) for name, us in ranked[:k]]
'''},
]
