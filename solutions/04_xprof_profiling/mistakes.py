"""Known wrong answers to 04_xprof_profiling's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Never diagnosed (autograder/common/mistakes.py): a replay of this function is not the same call.
NOT_DIAGNOSED = {
    "capture_warmed_trace": "profiles this machine: timings, and a trace folder it writes",
}

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "count_events": "a count",
    "step_times_ms": "durations",
    "top_ops": "(name, total) rows: the totals' values are the data",
}

MISTAKES = [
    # -------------------------------------------------- capture_warmed_trace
    {
        "id": "warmup-inside-trace",
        "function": "capture_warmed_trace",
        "name": "warm-up call made inside the trace, so compilation is traced",
        "explanation": "Your function makes its warm-up call after the trace has started, so the compilation of the fresh jitted step is recorded in the profile. The first call of a jitted function compiles; a warmed trace does that call before tracing, so the profile shows only the steady-state steps you want to study.",
        "section": "3. Cold versus warm traces",
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
        "id": "default-dir-in-working-tree",
        "function": "capture_warmed_trace",
        "name": "default trace folder created inside the working directory",
        "explanation": "When neither trace_dir nor $TPU_TRACE_DIR is given, your function writes the trace to a fixed folder relative to the current working directory. Traces are bulky, machine-specific files: a folder in the working tree litters it and ends up committed, so the fallback is a fresh temporary directory instead.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "ignores-tpu-trace-dir",
        "function": "capture_warmed_trace",
        "name": "$TPU_TRACE_DIR ignored when no trace_dir is given",
        "explanation": "Without a trace_dir your function always makes a fresh temporary folder, even when $TPU_TRACE_DIR is set. The variable is how a runtime says where its traces belong, so it comes second: trace_dir if given, else $TPU_TRACE_DIR, and only then a fresh temporary folder.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
        "why": "an independent writer's answer (issue 64): the visible check never set $TPU_TRACE_DIR without a trace_dir",
        "source": """
def capture_warmed_trace(steps=4, trace_dir=None):
    if trace_dir is None:
        trace_dir = tempfile.mkdtemp(prefix="cwt-")
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
""",
    },
    {
        "id": "default-dir-deleted-on-return",
        "function": "capture_warmed_trace",
        "name": "default trace folder is deleted before the function returns",
        "explanation": "With no trace_dir and no $TPU_TRACE_DIR, your function traces into a temporary directory that is removed automatically when its context ends, still inside your function. The trace_dir you return then points at nothing and the captured trace is lost: the default folder must outlive the call so the trace can be read afterwards.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "steady-not-per-step",
        "function": "capture_warmed_trace",
        "name": "steady_ms is the whole loop's time, not the time of one step",
        "explanation": "Your steady_ms is the wall time of all the traced steps together, so it grows with the number of steps. The contract asks for the time of one steady step, which is what you compare with the warm-up call and across runs of different lengths.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
        "why": "steady_ms is the whole traced loop, not per step",
        "visible_fails": True,
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
        "id": "counts-every-trace-file",
        "function": "capture_warmed_trace",
        "name": "xplane_count counts every file the trace wrote, not only xplanes",
        "explanation": "Your xplane_count counts all files below trace_dir, including the .trace.json.gz that JAX writes next to each xplane. Only the .xplane.pb files are the profiles that XProf and ProfileData read, and only they should be counted.",
        "section": "1. What `jax.profiler.trace` writes",
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
        "id": "oldest-not-newest",
        "function": "xplane_path",
        "name": "returns the oldest xplane instead of the newest",
        "explanation": "Your function picks the xplane with the smallest modification time, the first trace ever written below the directory. Every run adds a new timestamped folder, and the trace you want is the most recently written one.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "newest-by-name",
        "function": "xplane_path",
        "name": "newest chosen by path name, not by modification time",
        "explanation": "Your function sorts the paths alphabetically and takes the last one. Folder and file names need not sort in the order the traces were written (another sub-folder, another host name), so only the modification time tells which file is the newest.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "not-recursive",
        "function": "xplane_path",
        "name": "looks only directly inside trace_dir, not in its sub-folders",
        "explanation": "Your function searches only the top level of trace_dir, but the profiler writes each xplane several folders down, under plugins/profile and a timestamped run folder. The search has to descend into every sub-folder.",
        "section": "1. What `jax.profiler.trace` writes",
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
        "id": "none-instead-of-error",
        "function": "xplane_path",
        "name": "returns None instead of raising FileNotFoundError",
        "explanation": "When no xplane exists, your function returns None, so the failure surfaces later as a confusing error far from its cause. The contract asks for a FileNotFoundError that names the directory, so the user learns at once that the trace did not run or went elsewhere.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "returns None instead of raising when there is no xplane",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    return max(files, key=lambda p: p.stat().st_mtime) if files else None
""",
    },
    {
        "id": "newest-file-of-any-kind",
        "function": "xplane_path",
        "name": "returns the newest file of any kind, not the newest xplane",
        "explanation": "Your function considers every file below trace_dir, so a newer .trace.json.gz or any other file can be returned instead of the profile. Only files ending in .xplane.pb are the XSpace profiles that ProfileData reads.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "exact-match",
        "function": "count_events",
        "name": "whole-name match instead of a substring test",
        "explanation": "Your function counts only events whose whole name equals the string, so events that merely contain it are missed (counting backend_compile, for instance, finds none of the backend_compile_and_load events). The exercise asks for a plain substring test, like Python's in operator on strings.",
        "section": "Exercise 3: `count_events` (2 points)",
        "why": "exact name match instead of substring",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return sum(ev.name == name_substring for plane in data.planes for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "host-cpu-plane-only",
        "function": "count_events",
        "name": "counts only the /host:CPU plane",
        "explanation": "Your function looks at a single plane, the host CPU one, so events on device planes (TPU ops, GPU streams) and on any other plane are not counted. An xplane holds several planes, each with its own lines, and the exercise counts events on all of them.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
        "why": "only looks at the /host:CPU plane",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    plane = data.find_plane_with_name("/host:CPU")
    return sum(name_substring in ev.name for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "case-insensitive",
        "function": "count_events",
        "name": "case-insensitive match",
        "explanation": "Your function lowercases both the names and the substring, so for example Fusion also matches fusion.1. The exercise asks for a case-sensitive substring test, exactly as Python compares strings.",
        "section": "Exercise 3: `count_events` (2 points)",
        "why": "case-insensitive match",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    s = name_substring.lower()
    return sum(s in ev.name.lower() for plane in data.planes for line in plane.lines for ev in line.events)
""",
    },
    {
        "id": "distinct-names",
        "function": "count_events",
        "name": "counts distinct names, not events",
        "explanation": "Your function collects the matching names in a set, so an op that ran ten times counts once. The exercise counts events: every occurrence on every line is one more, repeated names included.",
        "section": "Exercise 3: `count_events` (2 points)",
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
        "id": "ordered-by-start-time",
        "function": "step_times_ms",
        "name": "steps ordered by start time, not by step number",
        "explanation": "Your function returns the durations in the order the steps started. Steps may be numbered in any order (a resumed run, steps run out of order), and the contract orders them by their step_num stat.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "microseconds",
        "function": "step_times_ms",
        "name": "durations in microseconds instead of milliseconds",
        "explanation": "Your function converts the events' nanosecond durations to microseconds, so every value is 1000 times too large. The function returns milliseconds.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "plain-annotations-as-steps",
        "function": "step_times_ms",
        "name": "plain TraceAnnotations of the same name counted as steps",
        "explanation": "Your function keeps every event with the step's name, including regions marked with a plain TraceAnnotation, which carry no step number (yours sorts them last). Only a StepTraceAnnotation records a step, and its event is the one that carries a step_num stat.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "substring-name-match",
        "function": "step_times_ms",
        "name": "step name matched as a substring, not exactly",
        "explanation": "Your function accepts any step whose name contains step_name, so steps of other names such as train_eval or pre_train are mixed into train's. A step name is matched exactly: another name is another series of steps.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "name": "ops ranked smallest first",
        "explanation": "Your function sorts the totals in ascending order, so it returns the k cheapest ops instead of the k most expensive. A ranking of ops is meant to show where the time goes: largest total first.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "cpu-layout-only",
        "function": "top_ops",
        "name": "reads only the /host:CPU plane, as if every trace were a CPU trace",
        "explanation": "Your function assumes the CPU layout: it sums hlo_op events on the host CPU plane only. On a GPU trace those host events are kernel launches, not executions, and on TPU the ops sit on the device plane's XLA Ops line, so the ranking there is wrong or empty. Code must look at the trace's planes and lines rather than assume a backend.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
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
        "id": "grouped-by-event-name",
        "function": "top_ops",
        "name": "ops grouped by event name instead of by their hlo_op stat",
        "explanation": "Your function names each op by its event's name. On GPU the event name is the kernel's, and one op may run several kernels, so an op is split over rows named after kernels; outside an XLA Ops line, the op's name is the value of its hlo_op stat.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
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
        "id": "host-launches-added",
        "function": "top_ops",
        "name": "host launch events added to the device executions",
        "explanation": "Your function adds up op events from every plane, host and device alike. On a GPU trace the host plane also records each kernel launch with the same hlo_op stat, so every op's total mixes launch time with execution time. When a device plane holds ops, only device planes count.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
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
        "id": "milliseconds",
        "function": "top_ops",
        "name": "totals in milliseconds instead of microseconds",
        "explanation": "Your function converts the nanosecond durations to milliseconds, so every total is 1000 times too small. The contract returns microseconds.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "all-device-events-counted",
        "function": "top_ops",
        "name": "every event on a device plane counted as an op",
        "explanation": "On device planes your function counts every event, so whole-module events (XLA Modules), step markers (Steps) and memory copies show up as ops and swamp the ranking. Only the XLA Ops line, or events that carry an hlo_op stat, are the compiled program's ops; the rest is runtime bookkeeping.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "seconds-not-milliseconds",
        "function": "capture_warmed_trace",
        "name": "times reported in seconds instead of milliseconds",
        "explanation": "Your warmup_ms and steady_ms are the timer's differences in seconds, so both are 1000 times too small. The keys promise milliseconds: convert the units before returning them.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "relative-dir-not-absolute",
        "function": "capture_warmed_trace",
        "name": "a relative trace_dir is returned as given, not made absolute",
        "explanation": "Your function returns trace_dir exactly as it received it, so a relative path comes back relative. Such a path only means something from the working directory of that moment; the contract asks for an absolute path, usable later from anywhere.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "any-pb-file",
        "function": "xplane_path",
        "name": "matches any .pb file, not only xplane files",
        "explanation": "Your pattern accepts every file ending in .pb, so a newer protobuf that is not an xplane (a memory profile, say) can be returned. The file to find is identified by its full .xplane.pb suffix.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "error-omits-directory",
        "function": "xplane_path",
        "name": "the FileNotFoundError message does not name the directory",
        "explanation": "Your function raises the right exception, but its message does not say which directory was searched. When a trace is missing, that path is the first thing to check, so the message should include it.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "step-num-sorted-as-text",
        "function": "step_times_ms",
        "name": "step numbers sorted as text, so step 10 comes before step 2",
        "explanation": "Your function reads the trace with the xprof package's reader, which returns stat values as strings, and sorts by them, so '10' comes before '2'. Step numbers are ordered as numbers; jax.profiler's ProfileData gives you the stat's integer value.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "empty-device-plane-wins",
        "function": "top_ops",
        "name": "a device plane without ops hides the host ops",
        "explanation": "Your function uses the device planes whenever one exists, even if none of them holds an op, so a trace whose only device plane has (say) a memset gives an empty ranking while the ops sit on the host plane. Device planes take priority only when they actually contain op events.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "warmup-excludes-compile",
        "function": "capture_warmed_trace",
        "name": "warmup_ms leaves out the compilation",
        "explanation": "Your function compiles the step ahead of time before starting the clock, so the timed warm-up call only runs an already compiled program and warmup_ms measures one ordinary step. The warm-up time is meant to show what the first call really costs, compilation included: time the call that compiles.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "env-overrides-trace-dir",
        "function": "capture_warmed_trace",
        "name": "$TPU_TRACE_DIR wins over an explicit trace_dir",
        "explanation": "Your function prefers the environment variable even when the caller passes a trace_dir, so the directory the caller asked for is ignored whenever $TPU_TRACE_DIR is set. The argument comes first, the environment variable only when no directory is given, and a fresh temporary folder last.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "counts-newest-run-only",
        "function": "capture_warmed_trace",
        "name": "xplane_count counts only the newest run's folder",
        "explanation": "Your xplane_count looks only inside the most recent run folder under plugins/profile, so a trace_dir that already holds earlier runs reports 1. The contract counts every xplane file anywhere below trace_dir, earlier runs included.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "trace-dir-as-path-object",
        "function": "capture_warmed_trace",
        "name": "trace_dir returned as a Path object, not a string",
        "explanation": "Your function returns trace_dir as a pathlib Path. The contract fixes it as an absolute path string, the type that code storing or comparing the result (a JSON log, a string test) expects.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "clock-read-before-sync",
        "function": "capture_warmed_trace",
        "name": "loop timed before the device finished: dispatch time only",
        "explanation": "Your function reads the clock right after the loop has dispatched its steps and waits for the result only afterwards. JAX dispatches work asynchronously, so steady_ms measures how fast Python queued the steps, not how long they ran: the clock must stop only once the last result is ready.",
        "section": "Exercise 1: `capture_warmed_trace` (3 points)",
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
        "id": "suffix-without-dot",
        "function": "xplane_path",
        "name": "pattern without the dot also matches names like foo_xplane.pb",
        "explanation": "Your pattern accepts any name that merely ends in xplane.pb, so a file such as zz_xplane.pb, which is not a profile, can be returned as the newest. The profiler names its files after the host followed by the .xplane.pb suffix, dot included.",
        "section": "Exercise 2: `xplane_path` (2 points)",
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
        "id": "skips-other-planes",
        "function": "count_events",
        "name": "skips planes that are neither /host: nor /device:",
        "explanation": "Your function counts only planes whose name starts with /host: or /device:, so events on the other planes of the trace (metadata or task-environment planes) are missed. All planes means every plane of the XSpace, whatever its name.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
        "why": "only /host: and /device: planes (skips other planes)",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return sum(name_substring in ev.name for p in data.planes
               if p.name.startswith(("/host:", "/device:")) for l in p.lines for ev in l.events)
""",
    },
    {
        "id": "merges-identical-events",
        "function": "count_events",
        "name": "identical events on different lines counted once",
        "explanation": "Your function collects each event's name, start and duration in a set, so two events with the same name and timing on different lines or planes count once. Each event on each line is its own record in the trace, and every one counts.",
        "section": "Exercise 3: `count_events` (2 points)",
        "why": "deduplicates events by (name, start, duration) across lines",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    return len({(ev.name, ev.start_ns, ev.duration_ns) for p in data.planes for l in p.lines
                for ev in l.events if name_substring in ev.name})
""",
    },
    {
        "id": "matches-stat-values",
        "function": "count_events",
        "name": "also matches the substring in event stats, not only in names",
        "explanation": "Your function also counts an event when one of its stat values (its hlo_op or hlo_module, say) contains the string. The exercise counts by event name only: stats are data attached to an event, not part of its name.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
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
        "id": "repeated-step-num-lost",
        "function": "step_times_ms",
        "name": "steps sharing a step number collapse into one",
        "explanation": "Your function stores durations in a dictionary keyed by step number, so when two steps carry the same number (two threads, say) only the last one survives. Every step event is a result: keep them all, ordered by step number.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "device-planes-searched",
        "function": "step_times_ms",
        "name": "device planes searched too, not only host planes",
        "explanation": "Your function looks for step events on every plane, so an event on a device plane that has the step's name and a step_num is counted as one of your steps. StepTraceAnnotation records steps on the host planes, those whose name starts with /host:.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
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
        "id": "first-device-plane-only",
        "function": "top_ops",
        "name": "only the first device plane counted: other chips are lost",
        "explanation": "Your function keeps the ops of the first device plane that has any and ignores the others, so on a multi-chip trace every other chip's time is missing. One op is one row: its events are summed over every plane and line.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "xla-ops-plus-other-lines",
        "function": "top_ops",
        "name": "XLA Ops plane: hlo_op events of its other lines counted too",
        "explanation": "On a plane that has an XLA Ops line, your function also adds the hlo_op-tagged events of that plane's other lines, so the same execution can be counted twice. Where an XLA Ops line exists, its events are the ops and nothing else on that plane counts.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "drops-control-flow",
        "function": "top_ops",
        "name": "control-flow ops (while, call, conditional) left out",
        "explanation": "Your function removes while, call and conditional ops from the ranking. They are ops of the program with real time; that their totals include their body's ops is a reason not to add the rows up, not a reason to hide them.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "rows-not-tuples",
        "function": "top_ops",
        "name": "rows returned as lists, not (name, microseconds) tuples",
        "explanation": "Your function returns each row as a two-element list. The contract fixes each row as a tuple of op name and total microseconds, the shape other code compares and unpacks.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
        "id": "k-zero-returns-all",
        "function": "top_ops",
        "name": "k=0 returns every op instead of none",
        "explanation": "Your function treats a k of 0 as no limit and returns the whole ranking. k is the number of rows asked for, and 0 asks for an empty list.",
        "section": "Exercise 5: `top_ops` (4 points)",
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
    # ------------------------------------------------------------ xplane_path
    {
        "id": "no-empty-check-max",
        "function": "xplane_path",
        "name": "no check for an empty search: max raises ValueError",
        "explanation": "Your function takes the newest file with max without checking that the search found any: with no xplane below the directory, the max of nothing raises a ValueError about an empty sequence, which says nothing about traces or where they were looked for. The contract asks for a FileNotFoundError that names the directory. Revisit the contract's error case.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "max(rglob(...), key=mtime) with no empty check: ValueError('max() arg is an empty sequence') instead of FileNotFoundError",
        "source": """
def xplane_path(trace_dir):
    found = Path(trace_dir).rglob("*.xplane.pb")
    return max(found, key=lambda p: p.stat().st_mtime)
""",
    },
    {
        "id": "no-empty-check-index",
        "function": "xplane_path",
        "name": "no check for an empty search: indexing raises IndexError",
        "explanation": "Your function sorts the files by modification time and takes the last one without checking that the search found any: with no xplane below the directory, indexing the empty list raises an IndexError, which says nothing about traces or where they were looked for. The contract asks for a FileNotFoundError that names the directory. Revisit the contract's error case.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "sorted(rglob(...), key=mtime)[-1] with no empty check: IndexError('list index out of range') instead of FileNotFoundError",
        "source": """
def xplane_path(trace_dir):
    files = sorted(Path(trace_dir).rglob("*.xplane.pb"), key=lambda p: p.stat().st_mtime)
    return files[-1]
""",
    },
    # ---------------------------------------------------------- step_times_ms
    {
        "id": "every-plane-searched",
        "function": "step_times_ms",
        "name": "steps searched on every plane, not only host planes",
        "explanation": "Your function looks for step events on every plane, so an event on a device plane that has the step's name and a step_num is counted as one of your steps. StepTraceAnnotation records steps on the host planes, those whose name starts with /host:. Revisit where a trace keeps its steps.",
        "section": "4. Naming steps and regions",
        "why": "no /host: filter; steps sorted as (step_num, start or duration) tuples: a device-plane event named like the step is counted (differs from device-planes-searched only in the order of steps that share a step_num)",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    steps = []
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                stats = dict(ev.stats)
                if ev.name == step_name and "step_num" in stats:
                    steps.append((int(stats["step_num"]), ev.start_ns, ev.duration_ns / 1e6))
    steps.sort()
    return [ms for _, _, ms in steps]
""",
    },
    # ---------------------------------------------------------------- top_ops
    {
        "id": "event-name-not-hlo-op",
        "function": "top_ops",
        "name": "ops named by the event name where the hlo_op stat names them",
        "explanation": "Where a plane has no XLA Ops line, your function finds the op events by their hlo_op stat but names them by the event's own name. On a GPU trace that name is the kernel's (a GEMM kernel, or a fusion split into several kernels), so one op is scattered over several rows under names that are not the op's: the hlo_op stat is the op's name. Revisit how ops are named on each backend's trace.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
        "why": "XLA Ops line by event name (right), but hlo_op-tagged events grouped by ev.name instead of the hlo_op stat (GPU kernel names)",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        totals = device if plane.name.startswith("/device:") else host
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            for line in lines:
                if line.name == "XLA Ops":
                    for ev in line.events:
                        totals[ev.name] += ev.duration_ns
        else:
            for line in lines:
                for ev in line.events:
                    if "hlo_op" in dict(ev.stats):
                        totals[ev.name] += ev.duration_ns
    totals = device or host
    ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)[:k]
    return [(name, ns / 1e3) for name, ns in ranked]
""",
    },
    {
        "id": "hlo-op-stats-only",
        "function": "top_ops",
        "name": "only hlo_op-tagged events: a TPU's XLA Ops line is missed",
        "explanation": "Your function finds ops only through the hlo_op stat, as on CPU and GPU traces. A TPU trace puts the compiled program's ops on the device plane's XLA Ops line, each event named by its op and without that stat, so your ranking misses them: it comes out empty, or holds only other events that happen to carry the stat. Revisit how each backend's trace records its ops: the XLA Ops line first, the hlo_op stat elsewhere.",
        "section": "2. Inside an xplane: planes, lines, events, stats",
        "why": "ops only from events with an hlo_op stat (device planes first, else host): misses a TPU's XLA Ops line",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = defaultdict(float), defaultdict(float)
    for plane in data.planes:
        totals = device if plane.name.startswith("/device:") else host
        for line in plane.lines:
            for ev in line.events:
                op = dict(ev.stats).get("hlo_op")
                if op:
                    totals[str(op)] += ev.duration_ns
    totals = device or host
    ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)[:k]
    return [(name, ns / 1e3) for name, ns in ranked]
""",
    },
    {
        "id": "longest-event-not-total",
        "function": "top_ops",
        "name": "each op's longest single event instead of its total time",
        "explanation": "Your function keeps, for each op, the duration of its longest single event instead of adding up all of them. An op that runs once per step, or is split into several kernels, spends the sum of its events on the device, and the ranking is by that total. Revisit what the ranking measures: total time per op over the whole trace.",
        "section": "Exercise 5: `top_ops` (4 points)",
        "why": "max of the event durations per op instead of their sum",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    device, host = {}, {}
    for plane in data.planes:
        longest = device if plane.name.startswith("/device:") else host
        lines = list(plane.lines)
        if any(line.name == "XLA Ops" for line in lines):
            events = [(ev.name, ev.duration_ns) for line in lines if line.name == "XLA Ops" for ev in line.events]
        else:
            events = [(str(dict(ev.stats)["hlo_op"]), ev.duration_ns)
                      for line in lines for ev in line.events if dict(ev.stats).get("hlo_op")]
        for name, ns in events:
            longest[name] = max(longest.get(name, 0), ns)
    longest = device or host
    ranked = sorted(longest.items(), key=lambda kv: kv[1], reverse=True)[:k]
    return [(name, ns / 1e3) for name, ns in ranked]
""",
    },
    {
        "id": "fixed-depth-glob",
        "function": "xplane_path",
        "name": "looks only at the trace layout's own depth, not at every depth",
        "explanation": "Your function looks for xplanes only where a trace run puts them, in the run folders of plugins/profile right under the directory. The exercise asks for the newest xplane anywhere below the directory: a folder that holds several trace directories, or a copied run folder, puts them deeper or shallower. Search the whole tree recursively.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "glob(trace_dir/plugins/profile/*/*.xplane.pb): one fixed depth",
        "source": """
def xplane_path(trace_dir):
    import glob
    files = glob.glob(os.path.join(str(trace_dir), "plugins", "profile", "*", "*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return Path(max(files, key=os.path.getmtime))
""",
    },
    {
        "id": "newest-by-ctime",
        "function": "xplane_path",
        "name": "newest chosen by change time, not by modification time",
        "explanation": "Your function ranks the files by their status change time, not by their modification time. On Linux the change time moves whenever a file's metadata changes (a copy, a rename, setting its times), so it does not say which trace was written last. The exercise ranks by modification time.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "key=st_ctime instead of st_mtime",
        "source": """
def xplane_path(trace_dir):
    files = sorted(Path(trace_dir).rglob("*.xplane.pb"), key=lambda p: p.stat().st_ctime)
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return files[-1]
""",
    },
    {
        "id": "returns-run-folder",
        "function": "xplane_path",
        "name": "returns the newest run's folder, not the xplane file",
        "explanation": "Your function finds the newest xplane but returns the folder that holds it. The readers that come next (ProfileData, your count_events and top_ops) open a file, not a folder. Return the path of the file itself.",
        "section": "Exercise 2: `xplane_path` (2 points)",
        "why": "returns newest.parent",
        "source": """
def xplane_path(trace_dir):
    files = list(Path(trace_dir).rglob("*.xplane.pb"))
    if not files:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return max(files, key=lambda p: p.stat().st_mtime).parent
""",
    },
    {
        "id": "find-misses-position-zero",
        "function": "count_events",
        "name": "a match at the start of the name is not counted",
        "explanation": "Your test treats a position greater than zero as a match, but a name that begins with the substring is found at position zero, and that event is not counted. A substring test is true wherever the substring occurs, the start of the name included. Revisit how a plain substring test is written.",
        "section": "Exercise 3: `count_events` (2 points)",
        "why": "ev.name.find(sub) > 0 instead of >= 0 (or `in`)",
        "source": """
def count_events(xplane_file, name_substring):
    data = ProfileData.from_file(str(xplane_file))
    n = 0
    for plane in data.planes:
        for line in plane.lines:
            for ev in line.events:
                if ev.name.find(name_substring) > 0:
                    n += 1
    return n
""",
    },
    {
        "id": "regex-search",
        "function": "count_events",
        "name": "substring searched as a regular expression",
        "explanation": "Your function compiles the substring as a regular expression. Characters that are ordinary in op and frame names, such as the dot, the dollar sign or brackets, have special meanings in a pattern, so some names match that do not contain the substring and others are missed (or the pattern does not compile). The exercise asks for a plain substring test.",
        "section": "Exercise 3: `count_events` (2 points)",
        "why": "re.search(sub, name): dots, $ and brackets are pattern syntax",
        "source": """
def count_events(xplane_file, name_substring):
    import re
    data = ProfileData.from_file(str(xplane_file))
    pat = re.compile(name_substring)
    return sum(1 for plane in data.planes for line in plane.lines for ev in line.events
               if pat.search(ev.name))
""",
    },
    {
        "id": "seconds",
        "function": "step_times_ms",
        "name": "durations in seconds instead of milliseconds",
        "explanation": "Your function converts the events' nanosecond durations to seconds, so every value is a thousand times too small. The function returns milliseconds.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
        "why": "duration_ns / 1e9",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if ev.name == step_name and "step_num" in st:
                        found.append((int(st["step_num"]), ev.duration_ns / 1e9))
    found.sort(key=lambda t: t[0])
    return [d for _, d in found]
""",
    },
    {
        "id": "whole-milliseconds",
        "function": "step_times_ms",
        "name": "durations cut to whole milliseconds",
        "explanation": "Your function converts nanoseconds to milliseconds with integer division, which drops the fraction: a step shorter than a millisecond becomes zero, and every other one loses up to a whole millisecond. A profiler's durations are fine-grained; keep the fractional milliseconds.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
        "why": "duration_ns // 1_000_000",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if ev.name == step_name and "step_num" in st:
                        found.append((int(st["step_num"]), ev.duration_ns // 1_000_000))
    found.sort(key=lambda t: t[0])
    return [d for _, d in found]
""",
    },
    {
        "id": "returns-step-pairs",
        "function": "step_times_ms",
        "name": "returns (step number, duration) pairs, not durations",
        "explanation": "Your function sorts the steps correctly but returns each one as a pair of its step number and its duration. The contract returns a plain list of durations, in step order: the step numbers only decide the order.",
        "section": "Exercise 4: `step_times_ms` (3 points)",
        "why": "returns sorted [(step_num, ms)]",
        "source": """
def step_times_ms(xplane_file, step_name):
    data = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in data.planes:
        if plane.name.startswith("/host:"):
            for line in plane.lines:
                for ev in line.events:
                    st = dict(ev.stats)
                    if ev.name == step_name and "step_num" in st:
                        found.append((int(st["step_num"]), ev.duration_ns / 1e6))
    return sorted(found)
""",
    },
    {
        "id": "nanoseconds",
        "function": "top_ops",
        "name": "totals in nanoseconds instead of microseconds",
        "explanation": "Your totals are the events' durations summed in nanoseconds, the unit the trace stores, so every value is a thousand times too large. The function returns microseconds.",
        "section": "Exercise 5: `top_ops` (4 points)",
        "why": "duration_ns summed, never divided by 1e3",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    dev, host = {}, {}
    for plane in data.planes:
        tot = dev if plane.name.startswith("/device:") else host
        xla = [l for l in plane.lines if l.name == "XLA Ops"]
        if xla:
            for l in xla:
                for ev in l.events:
                    tot[ev.name] = tot.get(ev.name, 0) + ev.duration_ns
        else:
            for l in plane.lines:
                for ev in l.events:
                    op = dict(ev.stats).get("hlo_op")
                    if op:
                        tot[str(op)] = tot.get(str(op), 0) + ev.duration_ns
    tot = dev or host
    return sorted(tot.items(), key=lambda kv: -kv[1])[:k]
""",
    },
    {
        "id": "whole-microseconds",
        "function": "top_ops",
        "name": "totals cut to whole microseconds",
        "explanation": "Your function converts nanoseconds to microseconds with integer division, which drops the fraction: an op that ran for less than a microsecond gets zero, and the others lose up to a whole microsecond. Keep the fractional microseconds.",
        "section": "Exercise 5: `top_ops` (4 points)",
        "why": "ns // 1000",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    dev, host = {}, {}
    for plane in data.planes:
        tot = dev if plane.name.startswith("/device:") else host
        xla = [l for l in plane.lines if l.name == "XLA Ops"]
        for l in (xla or plane.lines):
            for ev in l.events:
                op = ev.name if xla else dict(ev.stats).get("hlo_op")
                if op:
                    tot[str(op)] = tot.get(str(op), 0) + ev.duration_ns
    tot = dev or host
    ranked = sorted(tot.items(), key=lambda kv: -kv[1])[:k]
    return [(op, ns // 1000) for op, ns in ranked]
""",
    },
    {
        "id": "ignores-k",
        "function": "top_ops",
        "name": "always the five largest ops, whatever k is",
        "explanation": "Your function ranks the ops correctly but always keeps five of them, the default, instead of the k the caller asks for. Use the argument: the caller may want the top one or the top twenty.",
        "section": "Exercise 5: `top_ops` (4 points)",
        "why": "[:5] instead of [:k]",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    dev, host = {}, {}
    for plane in data.planes:
        tot = dev if plane.name.startswith("/device:") else host
        xla = [l for l in plane.lines if l.name == "XLA Ops"]
        for l in (xla or plane.lines):
            for ev in l.events:
                op = ev.name if xla else dict(ev.stats).get("hlo_op")
                if op:
                    tot[str(op)] = tot.get(str(op), 0) + ev.duration_ns
    tot = dev or host
    ranked = sorted(tot.items(), key=lambda kv: -kv[1])[:5]
    return [(op, ns / 1e3) for op, ns in ranked]
""",
    },
    # ------------------------------------------ an answer reviewers wrote as correct that a TPU trace shows wrong
    {
        "id": "xprof-display-names",
        "function": "top_ops",
        "name": "ops named as XProf's viewer shows them, not by their events' names",
        "explanation": "Your function reads the trace through XProf's trace_viewer converter and ranks the names it shows. On a TPU trace those are short display names, while the contract names each op by its event's name, which a TPU records as the op's whole HLO instruction. Read the xplane with jax.profiler.ProfileData and use the event names of the XLA Ops line, as the recorded TPU trace in this lesson shows them.",
        "section": "Exercise 5: `top_ops` (4 points)",
        "visible_fails": True,
        "why": "written as a correct answer by a reviewer (XProf's trace_viewer JSON, same rules); on the TPU v5e trace recorded for the lesson its names are display names ('fusion') and its durations come in picoseconds, not the events' names (the op's whole HLO text) in nanoseconds",
        "source": """
def top_ops(xplane_file, k=5):
    from xprof.convert import raw_to_tool_data
    raw, _ = raw_to_tool_data.xspace_to_tool_data([str(xplane_file)], "trace_viewer", {})
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8")
    events = json.loads(raw).get("traceEvents", [])
    proc, thread = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            proc[e["pid"]] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
    has_xla_ops = {pid for (pid, _tid), name in thread.items() if name == "XLA Ops"}
    per_proc = defaultdict(lambda: defaultdict(float))
    for e in events:
        if e.get("ph") != "X":
            continue
        pid = e["pid"]
        if pid in has_xla_ops:
            if thread.get((pid, e["tid"])) == "XLA Ops":
                per_proc[pid][e["name"]] += float(e.get("dur", 0.0))
        elif "hlo_op" in e.get("args", {}):
            per_proc[pid][str(e["args"]["hlo_op"])] += float(e.get("dur", 0.0))
    dev = [pid for pid, ops in per_proc.items() if proc.get(pid, "").startswith("/device:") and ops]
    chosen = dev or [pid for pid in per_proc if proc.get(pid, "").startswith("/host:")]
    totals = defaultdict(float)
    for pid in chosen:
        for op, us in per_proc[pid].items():
            totals[op] += us
    return sorted(totals.items(), key=lambda t: -t[1])[:k]
""",
    },
]
