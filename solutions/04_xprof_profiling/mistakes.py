"""Known wrong answers to 04_xprof_profiling's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

MISTAKES = [
    # -------------------------------------------------- capture_warmed_trace
    {
        "id": "warm-up-call-made-inside-the-trace-compi",
        "function": "capture_warmed_trace",
        "name": "warm-up call made inside the trace: compilation is traced",
        "explanation": "",
        "section": "",
        "why": "warm-up call made inside the trace: compilation is traced",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t0 = time.perf_counter()
        jax.block_until_ready(step_fn(x))
        warmup_ms = (time.perf_counter() - t0) * 1000.0
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob("*.xplane.pb"))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "the-seed-s-default-tpu-xprof-trace-insid",
        "function": "capture_warmed_trace",
        "name": "the seed's default ./tpu-xprof-trace inside the working tree",
        "explanation": "",
        "section": "",
        "why": "the seed's default ./tpu-xprof-trace inside the working tree",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    trace_dir = Path(trace_dir or os.environ.get("TPU_TRACE_DIR", "./tpu-xprof-trace")).expanduser().resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob("*.xplane.pb"))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "default-directory-is-a-temporarydirector",
        "function": "capture_warmed_trace",
        "name": "default directory is a TemporaryDirectory: deleted when the function returns",
        "explanation": "",
        "section": "",
        "why": "default directory is a TemporaryDirectory: deleted when the function returns",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    with tempfile.TemporaryDirectory() as tmp:
        trace_dir = Path(trace_dir or os.environ.get("TPU_TRACE_DIR") or tmp).expanduser().resolve()
        trace_dir.mkdir(parents=True, exist_ok=True)
        with jax.profiler.trace(str(trace_dir)):
            t1 = time.perf_counter()
            for _ in range(steps):
                x = step_fn(x)
            jax.block_until_ready(x)
            steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
        count = len(list(trace_dir.rglob("*.xplane.pb")))
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": count, "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "steady-ms-is-the-whole-traced-loop-not-p",
        "function": "capture_warmed_trace",
        "name": "steady_ms is the whole traced loop, not per step",
        "explanation": "",
        "section": "",
        "why": "steady_ms is the whole traced loop, not per step",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob("*.xplane.pb"))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "xplane-count-counts-every-file-the-trace",
        "function": "capture_warmed_trace",
        "name": "xplane_count counts every file the trace wrote",
        "explanation": "",
        "section": "",
        "why": "xplane_count counts every file the trace wrote",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    count = len([p for p in trace_dir.rglob("*") if p.is_file()])
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms, "xplane_count": count,
            "trace_dir": str(trace_dir)}
""",
    },
    # ----------------------------------------------------------- xplane_path
    {
        "id": "returns-the-oldest-file",
        "function": "xplane_path",
        "name": "returns the oldest file",
        "explanation": "",
        "section": "",
        "why": "returns the oldest file",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(trace_dir)
    return min(files, key=lambda p: p.stat().st_mtime)
""",
    },
    {
        "id": "newest-by-path-name-the-run-folder-s-tim",
        "function": "xplane_path",
        "name": "newest by path name (the run folder's timestamp), not by mtime",
        "explanation": "",
        "section": "",
        "why": "newest by path name (the run folder's timestamp), not by mtime",
        "source": """
def xplane_path(trace_dir):
    files = sorted(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(trace_dir)
    return files[-1]
""",
    },
    {
        "id": "not-recursive-looks-only-in-trace-dir-it",
        "function": "xplane_path",
        "name": "not recursive: looks only in trace_dir itself",
        "explanation": "",
        "section": "",
        "why": "not recursive: looks only in trace_dir itself",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).glob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(trace_dir)
    return max(files, key=lambda p: p.stat().st_mtime)
""",
    },
    {
        "id": "returns-none-instead-of-raising-when-the",
        "function": "xplane_path",
        "name": "returns None instead of raising when there is no xplane",
        "explanation": "",
        "section": "",
        "why": "returns None instead of raising when there is no xplane",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    return max(files, key=lambda p: p.stat().st_mtime) if files else None
""",
    },
    {
        "id": "picks-the-newest-file-of-any-kind",
        "function": "xplane_path",
        "name": "picks the newest file of any kind",
        "explanation": "",
        "section": "",
        "why": "picks the newest file of any kind",
        "source": """
def xplane_path(trace_dir):
    files = [p for p in Path(trace_dir).rglob("*") if p.is_file()]
    if not files:
        raise FileNotFoundError(trace_dir)
    return max(files, key=lambda p: p.stat().st_mtime)
""",
    },
    # ---------------------------------------------------------- count_events
    {
        "id": "exact-name-match-instead-of-substring",
        "function": "count_events",
        "name": "exact name match instead of substring",
        "explanation": "",
        "section": "",
        "why": "exact name match instead of substring",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return sum(ev.name == name_substring for plane in data.planes for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "only-looks-at-the-host-cpu-plane",
        "function": "count_events",
        "name": "only looks at the /host:CPU plane",
        "explanation": "",
        "section": "",
        "why": "only looks at the /host:CPU plane",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    plane = data.find_plane_with_name("/host:CPU")
    return sum(name_substring in ev.name for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "case-insensitive-match",
        "function": "count_events",
        "name": "case-insensitive match",
        "explanation": "",
        "section": "",
        "why": "case-insensitive match",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    s = name_substring.lower()
    return sum(s in ev.name.lower() for plane in data.planes for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "counts-distinct-names-not-events",
        "function": "count_events",
        "name": "counts distinct names, not events",
        "explanation": "",
        "section": "",
        "why": "counts distinct names, not events",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return len({ev.name for plane in data.planes for line in plane.lines for ev in line.events
                if name_substring in ev.name})
""",
    },
    # --------------------------------------------------------- step_times_ms
    {
        "id": "ordered-by-start-time-not-by-step-num",
        "function": "step_times_ms",
        "name": "ordered by start time, not by step_num",
        "explanation": "",
        "section": "",
        "why": "ordered by start time, not by step_num",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                if ev.name == step_name and "step_num" in dict(ev.stats):
                    found.append((ev.start_ns, ev.duration_ns / 1e6))
    return [ms for _, ms in sorted(found)]
""",
    },
    {
        "id": "microseconds-instead-of-milliseconds",
        "function": "step_times_ms",
        "name": "microseconds instead of milliseconds",
        "explanation": "",
        "section": "",
        "why": "microseconds instead of milliseconds",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if ev.name == step_name and "step_num" in st:
                    found.append((int(st["step_num"]), ev.duration_ns / 1e3))
    return [t for _, t in sorted(found)]
""",
    },
    {
        "id": "plain-traceannotations-of-the-same-name",
        "function": "step_times_ms",
        "name": "plain TraceAnnotations of the same name counted as steps",
        "explanation": "",
        "section": "",
        "why": "plain TraceAnnotations of the same name counted as steps",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                if ev.name == step_name:
                    st = dict(ev.stats)
                    found.append((int(st.get("step_num", 10**9)), ev.duration_ns / 1e6))
    return [ms for _, ms in sorted(found)]
""",
    },
    {
        "id": "substring-match-on-the-step-name",
        "function": "step_times_ms",
        "name": "substring match on the step name",
        "explanation": "",
        "section": "",
        "why": "substring match on the step name",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if step_name in ev.name and "step_num" in st:
                    found.append((int(st["step_num"]), ev.duration_ns / 1e6))
    return [ms for _, ms in sorted(found)]
""",
    },
    # --------------------------------------------------------------- top_ops
    {
        "id": "smallest-first",
        "function": "top_ops",
        "name": "smallest first",
        "explanation": "",
        "section": "",
        "why": "smallest first",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        totals = device if plane.name.startswith("/device:") else host
        lines = list(plane.lines)
        if any(l.name == "XLA Ops" for l in lines):
            for l in lines:
                if l.name == "XLA Ops":
                    for ev in l.events:
                        totals[ev.name] += ev.duration_ns
        else:
            for l in lines:
                for ev in l.events:
                    op = dict(ev.stats).get("hlo_op")
                    if op:
                        totals[op] += ev.duration_ns
    totals = device or host
    return [(n, ns / 1e3) for n, ns in sorted(totals.items(), key=lambda t: t[1])[:k]]
""",
    },
    {
        "id": "hard-codes-the-cpu-layout-hlo-op-events",
        "function": "top_ops",
        "name": "hard-codes the CPU layout: hlo_op events on /host:CPU only",
        "explanation": "",
        "section": "",
        "why": "hard-codes the CPU layout: hlo_op events on /host:CPU only",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    totals = defaultdict(float)
    for line in data.find_plane_with_name("/host:CPU").lines:
        for ev in line.events:
            op = dict(ev.stats).get("hlo_op")
            if op:
                totals[op] += ev.duration_ns
    return [(n, ns / 1e3) for n, ns in sorted(totals.items(), key=lambda t: -t[1])[:k]]
""",
    },
    {
        "id": "groups-by-event-name-gpu-kernel-names-in",
        "function": "top_ops",
        "name": "groups by event name (GPU kernel names) instead of the hlo_op stat",
        "explanation": "",
        "section": "",
        "why": "groups by event name (GPU kernel names) instead of the hlo_op stat",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        totals = device if plane.name.startswith("/device:") else host
        for l in plane.lines:
            for ev in l.events:
                if l.name == "XLA Ops" or "hlo_op" in dict(ev.stats):
                    totals[ev.name] += ev.duration_ns
    totals = device or host
    return [(n, ns / 1e3) for n, ns in sorted(totals.items(), key=lambda t: -t[1])[:k]]
""",
    },
    {
        "id": "adds-host-launch-events-to-device-execut",
        "function": "top_ops",
        "name": "adds host launch events to device executions",
        "explanation": "",
        "section": "",
        "why": "adds host launch events to device executions",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    totals = defaultdict(float)
    for plane in data.planes:
        lines = list(plane.lines)
        if any(l.name == "XLA Ops" for l in lines):
            for l in lines:
                if l.name == "XLA Ops":
                    for ev in l.events:
                        totals[ev.name] += ev.duration_ns
        else:
            for l in lines:
                for ev in l.events:
                    op = dict(ev.stats).get("hlo_op")
                    if op:
                        totals[op] += ev.duration_ns
    return [(n, ns / 1e3) for n, ns in sorted(totals.items(), key=lambda t: -t[1])[:k]]
""",
    },
    {
        "id": "milliseconds-instead-of-microseconds",
        "function": "top_ops",
        "name": "milliseconds instead of microseconds",
        "explanation": "",
        "section": "",
        "why": "milliseconds instead of microseconds",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        totals = device if plane.name.startswith("/device:") else host
        lines = list(plane.lines)
        if any(l.name == "XLA Ops" for l in lines):
            for l in lines:
                if l.name == "XLA Ops":
                    for ev in l.events:
                        totals[ev.name] += ev.duration_ns
        else:
            for l in lines:
                for ev in l.events:
                    op = dict(ev.stats).get("hlo_op")
                    if op:
                        totals[op] += ev.duration_ns
    totals = device or host
    return [(n, ns / 1e6) for n, ns in sorted(totals.items(), key=lambda t: -t[1])[:k]]
""",
    },
    {
        "id": "every-event-on-device-planes-counts-xla",
        "function": "top_ops",
        "name": "every event on device planes counts (XLA Modules, Steps, memcpy)",
        "explanation": "",
        "section": "",
        "why": "every event on device planes counts (XLA Modules, Steps, memcpy)",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        is_dev = plane.name.startswith("/device:")
        for l in plane.lines:
            for ev in l.events:
                op = dict(ev.stats).get("hlo_op")
                if is_dev:
                    device[op or ev.name] += ev.duration_ns
                elif op:
                    host[op] += ev.duration_ns
    totals = device or host
    return [(n, ns / 1e3) for n, ns in sorted(totals.items(), key=lambda t: -t[1])[:k]]
""",
    },
    # -------------------------------------------------- capture_warmed_trace
    {
        "id": "times-in-seconds-instead-of-milliseconds",
        "function": "capture_warmed_trace",
        "name": "times in seconds instead of milliseconds",
        "explanation": "",
        "section": "",
        "why": "times in seconds instead of milliseconds",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    x = jax.block_until_ready(step_fn(x))
    warmup_ms = time.perf_counter() - t0
    with jax.profiler.trace(str(trace_dir)):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob("*.xplane.pb"))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "returns-trace-dir-as-given-relative-path",
        "function": "capture_warmed_trace",
        "name": "returns trace_dir as given (relative path not made absolute)",
        "explanation": "",
        "section": "",
        "why": "returns trace_dir as given (relative path not made absolute)",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    os.makedirs(trace_dir, exist_ok=True)
    x = jnp.full((256, 256), 1 / 256, jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    x = jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1e3
    with jax.profiler.trace(str(trace_dir)):
        t0 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t0) * 1e3 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(Path(trace_dir).rglob("*.xplane.pb"))), "trace_dir": str(trace_dir)}
""",
    },
    # ----------------------------------------------------------- xplane_path
    {
        "id": "matches-pb-so-any-newer-non-xplane-pb-fi",
        "function": "xplane_path",
        "name": "matches *.pb, so any newer non-xplane .pb file is returned",
        "explanation": "",
        "section": "",
        "why": "matches *.pb, so any newer non-xplane .pb file is returned",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return max(files, key=lambda p: p.stat().st_mtime)
""",
    },
    {
        "id": "filenotfounderror-message-does-not-name",
        "function": "xplane_path",
        "name": "FileNotFoundError message does not name the directory",
        "explanation": "",
        "section": "",
        "why": "FileNotFoundError message does not name the directory",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError("no xplane file found: did the trace run?")
    return max(files, key=lambda p: p.stat().st_mtime)
""",
    },
    # --------------------------------------------------------- step_times_ms
    {
        "id": "xprof-reader-sorts-by-step-num-as-a-stri",
        "function": "step_times_ms",
        "name": "xprof reader, sorts by step_num as a string ('10' before '2')",
        "explanation": "",
        "section": "",
        "why": "xprof reader, sorts by step_num as a string ('10' before '2')",
        "source": """
def step_times_ms(xplane_file, step_name):
    from xprof.profile_data import ProfileData as XProfData
    steps = []
    for plane in XProfData.from_file(str(xplane_file)).planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if ev.name == step_name and "step_num" in st:
                        steps.append((st["step_num"], ev.duration_ns / 1e6))
    return [d for _, d in sorted(steps, key=lambda s: s[0])]
""",
    },
    # --------------------------------------------------------------- top_ops
    {
        "id": "falls-back-to-host-planes-only-when-no-d",
        "function": "top_ops",
        "name": "falls back to host planes only when no /device: plane exists at all (op-less device plane gives [])",
        "explanation": "",
        "section": "",
        "why": "falls back to host planes only when no /device: plane exists at all (op-less device plane gives [])",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    planes = list(data.planes)
    dev_planes = [p for p in planes if p.name.startswith("/device:")]
    use = dev_planes if dev_planes else [p for p in planes if p.name.startswith("/host:")]
    totals = defaultdict(float)
    for p in use:
        lines = list(p.lines)
        if any(l.name == "XLA Ops" for l in lines):
            for l in lines:
                if l.name == "XLA Ops":
                    for e in l.events:
                        totals[e.name] += e.duration_ns / 1e3
        else:
            for l in lines:
                for e in l.events:
                    st = dict(e.stats)
                    if "hlo_op" in st:
                        totals[str(st["hlo_op"])] += e.duration_ns / 1e3
    return sorted(totals.items(), key=lambda t: -t[1])[:k]
""",
    },
    # -------------------------------------------------- capture_warmed_trace
    {
        "id": "aot-compile-outside-the-timer-warmup-ms",
        "function": "capture_warmed_trace",
        "name": "AOT compile outside the timer: warmup_ms excludes compilation",
        "explanation": "",
        "section": "",
        "why": "AOT compile outside the timer: warmup_ms excludes compilation",
        "source": """

def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16)).lower(x).compile()
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob('*.xplane.pb'))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "tpu-trace-dir-overrides-an-explicit-trac",
        "function": "capture_warmed_trace",
        "name": "$TPU_TRACE_DIR overrides an explicit trace_dir",
        "explanation": "",
        "section": "",
        "why": "$TPU_TRACE_DIR overrides an explicit trace_dir",
        "source": """

def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    trace_dir = Path(os.environ.get("TPU_TRACE_DIR") or trace_dir or tempfile.mkdtemp()).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob('*.xplane.pb'))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "xplane-count-counts-only-this-run-s-fold",
        "function": "capture_warmed_trace",
        "name": "xplane_count counts only this run's folder (reused dir gives 1, not all)",
        "explanation": "",
        "section": "",
        "why": "xplane_count counts only this run's folder (reused dir gives 1, not all)",
        "source": """

def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(max((trace_dir / 'plugins' / 'profile').iterdir(), key=lambda p: p.stat().st_mtime).glob('*.xplane.pb'))), "trace_dir": str(trace_dir)}
""",
    },
    {
        "id": "trace-dir-returned-as-a-path-not-a-strin",
        "function": "capture_warmed_trace",
        "name": "trace_dir returned as a Path, not a string",
        "explanation": "",
        "section": "",
        "why": "trace_dir returned as a Path, not a string",
        "source": """

def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        jax.block_until_ready(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob('*.xplane.pb'))), "trace_dir": trace_dir}
""",
    },
    {
        "id": "no-final-block-until-ready-steady-ms-tim",
        "function": "capture_warmed_trace",
        "name": "no final block_until_ready: steady_ms times dispatch only",
        "explanation": "",
        "section": "",
        "why": "no final block_until_ready: steady_ms times dispatch only",
        "source": """

def capture_warmed_trace(steps=4, trace_dir=None):
    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)
    step_fn = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))
    t0 = time.perf_counter()
    jax.block_until_ready(step_fn(x))
    warmup_ms = (time.perf_counter() - t0) * 1000.0
    if trace_dir is None:
        trace_dir = os.environ.get("TPU_TRACE_DIR") or tempfile.mkdtemp()
    trace_dir = Path(trace_dir).resolve()
    trace_dir.mkdir(parents=True, exist_ok=True)
    with jax.profiler.trace(str(trace_dir)):
        t1 = time.perf_counter()
        for _ in range(steps):
            x = step_fn(x)
        steady_ms = (time.perf_counter() - t1) * 1000.0 / steps
        jax.block_until_ready(x)
    return {"warmup_ms": warmup_ms, "steady_ms": steady_ms,
            "xplane_count": len(list(trace_dir.rglob('*.xplane.pb'))), "trace_dir": str(trace_dir)}
""",
    },
    # ----------------------------------------------------------- xplane_path
    {
        "id": "pattern-xplane-pb-no-dot-also-matches-e",
        "function": "xplane_path",
        "name": "pattern *xplane.pb (no dot): also matches e.g. foo_xplane.pb",
        "explanation": "",
        "section": "",
        "why": "pattern *xplane.pb (no dot): also matches e.g. foo_xplane.pb",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return max(files, key=lambda p: p.stat().st_mtime)
""",
    },
    # ---------------------------------------------------------- count_events
    {
        "id": "only-host-and-device-planes-skips-other",
        "function": "count_events",
        "name": "only /host: and /device: planes (skips other planes)",
        "explanation": "",
        "section": "",
        "why": "only /host: and /device: planes (skips other planes)",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return sum(name_substring in ev.name for p in data.planes
               if p.name.startswith(("/host:", "/device:")) for l in p.lines for ev in l.events)
""",
    },
    {
        "id": "deduplicates-events-by-name-start-durati",
        "function": "count_events",
        "name": "deduplicates events by (name, start, duration) across lines",
        "explanation": "",
        "section": "",
        "why": "deduplicates events by (name, start, duration) across lines",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return len({(ev.name, ev.start_ns, ev.duration_ns) for p in data.planes for l in p.lines
                for ev in l.events if name_substring in ev.name})
""",
    },
    {
        "id": "also-counts-events-whose-hlo-op-stat-val",
        "function": "count_events",
        "name": "also counts events whose hlo_op/stat values contain the substring",
        "explanation": "",
        "section": "",
        "why": "also counts events whose hlo_op/stat values contain the substring",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    n = 0
    for p in data.planes:
        for l in p.lines:
            for ev in l.events:
                if name_substring in ev.name or any(name_substring in str(v) for _, v in ev.stats):
                    n += 1
    return n
""",
    },
    # --------------------------------------------------------- step_times_ms
    {
        "id": "dict-keyed-by-step-num-repeated-step-num",
        "function": "step_times_ms",
        "name": "dict keyed by step_num: repeated step numbers collapse to one",
        "explanation": "",
        "section": "",
        "why": "dict keyed by step_num: repeated step numbers collapse to one",
        "source": """
def step_times_ms(xplane_file, step_name):
    found = {}
    for plane in ProfileData.from_file(str(xplane_file)).planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if ev.name == step_name and "step_num" in st:
                    found[int(st["step_num"])] = ev.duration_ns / 1e6
    return [found[k] for k in sorted(found)]
""",
    },
    {
        "id": "searches-every-plane-device-planes-inclu",
        "function": "step_times_ms",
        "name": "searches every plane, device planes included (not only /host:)",
        "explanation": "",
        "section": "",
        "why": "searches every plane, device planes included (not only /host:)",
        "source": """
def step_times_ms(xplane_file, step_name):
    found = []
    for plane in ProfileData.from_file(str(xplane_file)).planes:
        for line in plane.lines:
            for ev in line.events:
                st = dict(ev.stats)
                if ev.name == step_name and "step_num" in st:
                    found.append((int(st["step_num"]), ev.duration_ns / 1e6))
    return [ms for _, ms in sorted(found, key=lambda t: t[0])]
""",
    },
    # --------------------------------------------------------------- top_ops
    {
        "id": "only-the-first-device-plane-multi-chip-t",
        "function": "top_ops",
        "name": "only the first /device: plane (multi-chip traces lose the others)",
        "explanation": "",
        "section": "",
        "why": "only the first /device: plane (multi-chip traces lose the others)",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    def plane_ops(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        ops = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    ops.append((str(st["hlo_op"]), ev.duration_ns))
        return ops
    device, host = [], []
    for plane in data.planes:
        if plane.name.startswith("/device:"):
            if not device:
                device += plane_ops(plane)
        elif plane.name.startswith("/host:"):
            host += plane_ops(plane)
    events = device if device else host
    totals = defaultdict(float)
    for name, ns in events:
        totals[name] += ns / 1e3
    return sorted(totals.items(), key=lambda t: t[1], reverse=True)[:k]
""",
    },
    {
        "id": "xla-ops-plane-also-counts-hlo-op-events",
        "function": "top_ops",
        "name": "XLA Ops plane: also counts hlo_op events on its other lines",
        "explanation": "",
        "section": "",
        "why": "XLA Ops plane: also counts hlo_op events on its other lines",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    def plane_ops(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            extra = [(str(dict(ev.stats)["hlo_op"]), ev.duration_ns) for line in lines if line.name != "XLA Ops"
                     for ev in line.events if "hlo_op" in dict(ev.stats)]
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events] + extra
        ops = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    ops.append((str(st["hlo_op"]), ev.duration_ns))
        return ops
    device, host = [], []
    for plane in data.planes:
        if plane.name.startswith("/device:"):
            device += plane_ops(plane)
        elif plane.name.startswith("/host:"):
            host += plane_ops(plane)
    events = device if device else host
    totals = defaultdict(float)
    for name, ns in events:
        totals[name] += ns / 1e3
    return sorted(totals.items(), key=lambda t: t[1], reverse=True)[:k]
""",
    },
    {
        "id": "drops-control-flow-ops-while-call-condit",
        "function": "top_ops",
        "name": "drops control-flow ops (while/call/conditional) to avoid double counting",
        "explanation": "",
        "section": "",
        "why": "drops control-flow ops (while/call/conditional) to avoid double counting",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    def plane_ops(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        ops = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    ops.append((str(st["hlo_op"]), ev.duration_ns))
        return ops
    device, host = [], []
    for plane in data.planes:
        if plane.name.startswith("/device:"):
            device += plane_ops(plane)
        elif plane.name.startswith("/host:"):
            host += plane_ops(plane)
    events = device if device else host
    totals = defaultdict(float)
    for name, ns in events:
        totals[name] += ns / 1e3
    return sorted(((n, us) for n, us in totals.items()
                   if not n.split(".")[0] in ("while", "call", "conditional")),
                  key=lambda t: t[1], reverse=True)[:k]
""",
    },
    {
        "id": "rows-are-lists-not-name-us-tuples",
        "function": "top_ops",
        "name": "rows are lists, not (name, us) tuples",
        "explanation": "",
        "section": "",
        "why": "rows are lists, not (name, us) tuples",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    def plane_ops(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        ops = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    ops.append((str(st["hlo_op"]), ev.duration_ns))
        return ops
    device, host = [], []
    for plane in data.planes:
        if plane.name.startswith("/device:"):
            device += plane_ops(plane)
        elif plane.name.startswith("/host:"):
            host += plane_ops(plane)
    events = device if device else host
    totals = defaultdict(float)
    for name, ns in events:
        totals[name] += ns / 1e3
    return [[n, us] for n, us in sorted(totals.items(), key=lambda t: t[1], reverse=True)[:k]]
""",
    },
    {
        "id": "k-0-treated-as-all-falsy-k",
        "function": "top_ops",
        "name": "k=0 treated as 'all' (falsy k)",
        "explanation": "",
        "section": "",
        "why": "k=0 treated as 'all' (falsy k)",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    def plane_ops(plane):
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            return [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        ops = []
        for line in lines:
            for ev in line.events:
                st = dict(ev.stats)
                if "hlo_op" in st:
                    ops.append((str(st["hlo_op"]), ev.duration_ns))
        return ops
    device, host = [], []
    for plane in data.planes:
        if plane.name.startswith("/device:"):
            device += plane_ops(plane)
        elif plane.name.startswith("/host:"):
            host += plane_ops(plane)
    events = device if device else host
    totals = defaultdict(float)
    for name, ns in events:
        totals[name] += ns / 1e3
    return sorted(totals.items(), key=lambda t: t[1], reverse=True)[:k or None]
""",
    },
]
