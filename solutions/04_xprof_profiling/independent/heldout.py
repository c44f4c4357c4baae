"""Independent held-out answers for lesson 04 (XProf profiling).

Written from the student notebook and COURSE.md only (plus public reports: compile time showing
up in cold traces, async dispatch making timings too short). Wrong answers each make one mistake a
student could plausibly make; correct answers are alternative implementations of the contract.
"""

_CWT_OK = '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp(prefix="cwt-")
    trace_dir = os.path.abspath(str(trace_dir))
    os.makedirs(trace_dir, exist_ok=True)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
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
    n = len(list(Path(trace_dir).rglob("*.xplane.pb")))
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": n, "trace_dir": trace_dir}
'''


def _cwt(old, new):
    assert old in _CWT_OK, old
    return _CWT_OK.replace(old, new)


_TOP_OK = '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))

    def ops_of(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        found = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    found.append((str(st["hlo_op"]), ev.duration_ns))
        return found

    planes = list(data.planes)
    events = [e for p in planes if p.name.startswith("/device:") for e in ops_of(p)]
    if not events:
        events = [e for p in planes if p.name.startswith("/host:") for e in ops_of(p)]
    totals = defaultdict(float)
    for name, dur in events:
        totals[name] += dur / 1e3
    return sorted(totals.items(), key=lambda t: -t[1])[:k]
'''


def _top(old, new):
    assert old in _TOP_OK, old
    return _TOP_OK.replace(old, new)


ANSWERS = [
    # ---------------------------------------------------------------- capture_warmed_trace
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "does the warm-up call inside the trace, so the compilation lands in the profile",
     "source": '''
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = str(Path(trace_dir).resolve())
    Path(trace_dir).mkdir(parents=True, exist_ok=True)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    with jax.profiler.trace(trace_dir):
        t0 = time.perf_counter()
        jax.block_until_ready(step_fn(x))
        warmup_ms = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1000 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(Path(trace_dir).rglob("*.xplane.pb"))), "trace_dir": trace_dir}
'''},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "falls back to the seed's fixed ./tpu-xprof-trace folder in the working directory when no trace_dir is given",
     "source": _cwt('trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp(prefix="cwt-")',
                    'trace_dir = os.environ.get("TPU_TRACE_DIR") or "./tpu-xprof-trace"')},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "ignores $TPU_TRACE_DIR: without trace_dir it always makes a temporary directory",
     "source": _cwt('trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp(prefix="cwt-")',
                    'trace_dir = tempfile.mkdtemp(prefix="cwt-")')},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "reports the whole traced loop time as steady_ms, forgetting to divide by steps",
     "source": _cwt("steady_ms = (time.perf_counter() - t0) * 1e3 / steps",
                    "steady_ms = (time.perf_counter() - t0) * 1e3")},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "warms up on a float32 array, so the bf16 step recompiles inside the trace",
     "source": _cwt("jax.block_until_ready(step_fn(x))",
                    "jax.block_until_ready(step_fn(jnp.full((256, 256), 1 / 256, jnp.float32)))")},
    {"function": "capture_warmed_trace", "intent": "wrong",
     "why": "counts every file the trace wrote (xplane.pb and trace.json.gz) as xplane_count",
     "source": _cwt('n = len(list(Path(trace_dir).rglob("*.xplane.pb")))',
                    'n = len([p for p in Path(trace_dir).rglob("*") if p.is_file()])')},
    {"function": "capture_warmed_trace", "intent": "correct",
     "why": "reference-style: warm-up with block_until_ready, traced chain synchronised once",
     "source": _CWT_OK},
    # ---------------------------------------------------------------- xplane_path
    {"function": "xplane_path", "intent": "wrong",
     "why": "takes the last file in name order (timestamp folder names) instead of the newest by mtime",
     "source": '''
def xplane_path(trace_dir):
    files = sorted(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return files[-1]
'''},
    {"function": "xplane_path", "intent": "wrong",
     "why": "only looks in the plugins/profile/<run>/ layout, not recursively anywhere below trace_dir",
     "source": '''
def xplane_path(trace_dir):
    files = glob.glob(os.path.join(str(trace_dir), "plugins", "profile", "*", "*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return Path(max(files, key=os.path.getmtime))
'''},
    {"function": "xplane_path", "intent": "wrong",
     "why": "picks the smallest mtime (oldest) file", "source": '''
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}")
    return min(files, key=lambda p: p.stat().st_mtime)
'''},
    {"function": "xplane_path", "intent": "wrong",
     "why": "returns None for an empty directory instead of raising FileNotFoundError", "source": '''
def xplane_path(trace_dir):
    best, best_t = None, -1.0
    for root, _, names in os.walk(str(trace_dir)):
        for n in names:
            if n.endswith(".xplane.pb"):
                p = os.path.join(root, n)
                t = os.stat(p).st_mtime
                if t > best_t:
                    best, best_t = p, t
    return Path(best) if best else None
'''},
    # ---------------------------------------------------------------- count_events
    {"function": "count_events", "intent": "wrong",
     "why": "counts only the host planes, missing events on device planes", "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    n = 0
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            n += sum(1 for ev in line.events if name_substring in ev.name)
    return n
'''},
    {"function": "count_events", "intent": "wrong",
     "why": "counts distinct matching names rather than events", "source": '''
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
     "why": "case-insensitive match (lower() on both sides) where a case-sensitive substring test is asked",
     "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    sub = name_substring.lower()
    return sum(1 for plane in data.planes for line in plane.lines for ev in line.events
               if sub in ev.name.lower())
'''},
    {"function": "count_events", "intent": "correct",
     "why": "explicit loops over planes, lines and events", "source": '''
def count_events(xplane_file, name_substring):
    space = ProfileData.from_file(os.fspath(xplane_file))
    total = 0
    for plane in space.planes:
        for line in plane.lines:
            for ev in line.events:
                if name_substring in ev.name:
                    total += 1
    return total
'''},
    # ---------------------------------------------------------------- step_times_ms
    {"function": "step_times_ms", "intent": "wrong",
     "why": "orders the steps by start time instead of by step_num", "source": '''
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
     "why": "converts nanoseconds to microseconds (/1e3) instead of milliseconds", "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    steps = {}
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if ev.name == step_name and "step_num" in st:
                        steps[int(st["step_num"])] = ev.duration_ns / 1e3
    return [steps[i] for i in sorted(steps)]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "does not require the step_num stat, so plain TraceAnnotations with the same name count as steps",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    rows = []
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    if ev.name == step_name:
                        num = dict(ev.stats).get("step_num", -1)
                        rows.append((int(num), ev.duration_ns / 1e6))
    rows.sort(key=lambda r: r[0])
    return [ms for _, ms in rows]
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": "matches step names by substring, so a step named 'train_eval' is taken for 'train'",
     "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    rows = []
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if step_name in ev.name and "step_num" in st:
                        rows.append((int(st["step_num"]), ev.duration_ns / 1e6))
    return [ms for _, ms in sorted(rows)]
'''},
    {"function": "step_times_ms", "intent": "correct",
     "why": "end_ns - start_ns per step, keyed by step_num", "source": '''
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    by_num = []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name != step_name:
                    continue
                stats = dict(ev.stats)
                if "step_num" not in stats:
                    continue
                by_num.append((int(stats["step_num"]), (ev.end_ns - ev.start_ns) / 1e6))
    by_num.sort(key=lambda t: t[0])
    return [t for _, t in by_num]
'''},
    # ---------------------------------------------------------------- top_ops
    {"function": "top_ops", "intent": "wrong",
     "why": "names hlo_op-tagged events by the event name (the GPU kernel name) instead of the hlo_op stat",
     "source": _top('found.append((str(st["hlo_op"]), ev.duration_ns))', 'found.append((ev.name, ev.duration_ns))')},
    {"function": "top_ops", "intent": "wrong",
     "why": "adds host and device planes together, so on GPU the kernel launches are counted as op time",
     "source": _top('''    events = [e for p in planes if p.name.startswith("/device:") for e in ops_of(p)]
    if not events:
        events = [e for p in planes if p.name.startswith("/host:") for e in ops_of(p)]''',
                   '''    events = [e for p in planes if p.name.startswith(("/device:", "/host:")) for e in ops_of(p)]''')},
    {"function": "top_ops", "intent": "wrong",
     "why": "converts durations to milliseconds (/1e6) instead of microseconds",
     "source": _top("totals[name] += dur / 1e3", "totals[name] += dur / 1e6")},
    {"function": "top_ops", "intent": "wrong",
     "why": "on a plane with an XLA Ops line, also counts hlo_op-tagged events of its other lines",
     "source": _top('''        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        found = []''', '''        found = [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]''')},
    {"function": "top_ops", "intent": "correct",
     "why": "device-first op ranking via XLA Ops lines or hlo_op stats, summed per name",
     "source": _TOP_OK},
    # ---------------------------------------------------------------- a blind writer (2026-12-07):
    # the student notebook only, never the library, the solutions or the hidden tests
    {"function": "xplane_path", "intent": "wrong",
     "why": "Takes st_ctime for the file's creation time and picks the newest by it, instead of the modification time st_mtime.",
     "source": '''
def xplane_path(trace_dir):
    root = Path(trace_dir)
    candidates = [p for p in root.rglob("*.xplane.pb") if p.is_file()]
    if not candidates:
        raise FileNotFoundError(f"no *.xplane.pb below {root}: did the trace run?")
    # the newest trace is the file that was created last
    return max(candidates, key=lambda p: p.stat().st_ctime)
'''},
    {"function": "count_events", "intent": "wrong",
     "why": "Matches the substring case-insensitively (lower() on both sides) instead of Python's case-sensitive `in`.",
     "source": '''
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    needle = name_substring.lower()
    count = 0
    for plane in data.planes:
        for line in plane.lines:
            for event in line.events:
                if needle in event.name.lower():
                    count += 1
    return count
'''},
    {"function": "step_times_ms", "intent": "wrong",
     "why": 'Orders the steps by their start time on the timeline instead of by their step_num stat.',
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
    found.sort()   # steps run one after another, so time order is step order
    return [ms for start, ms in found]
'''},
    {"function": "top_ops", "intent": "wrong",
     "why": "On planes without an XLA Ops line, names each op event by the event's own name (a GPU kernel's name) instead of its hlo_op stat value.",
     "source": '''
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))

    def op_events(plane):
        lines = list(plane.lines)
        xla_lines = [ln for ln in lines if ln.name == "XLA Ops"]
        if xla_lines:
            return [(ev.name, ev.duration_ns) for ln in xla_lines for ev in ln.events]
        return [(ev.name, ev.duration_ns) for ln in lines for ev in ln.events if "hlo_op" in dict(ev.stats)]

    events = [e for p in data.planes if p.name.startswith("/device:") for e in op_events(p)]
    if not events:
        events = [e for p in data.planes if p.name.startswith("/host:") for e in op_events(p)]
    totals = defaultdict(float)
    for name, dur_ns in events:
        totals[name] += dur_ns / 1e3
    ranked = sorted(totals.items(), key=lambda item: item[1], reverse=True)
    return [(str(n), float(us)) for n, us in ranked[:max(k, 0)]]
'''},
]
