"""Held-out wrong answers for 04_xprof_profiling (see README.md)."""

HELDOUT = [
    {
        "key": "04_xprof_profiling:xplane_path:oldest-not-newest",
        "function": "xplane_path",
        "why": "held-out: os.walk, smallest mtime",
        "source": """
def xplane_path(trace_dir):
    import os
    found = []
    for root, _, names in os.walk(str(trace_dir)):
        found += [os.path.join(root, n) for n in names if n.endswith(".xplane.pb")]
    if not found:
        raise FileNotFoundError(f"no *.xplane.pb below {trace_dir}: did the trace run?")
    return Path(min(found, key=os.path.getmtime))
""",
    },
    {
        "key": "04_xprof_profiling:xplane_path:none-instead-of-error",
        "function": "xplane_path",
        "why": "held-out: None when there is nothing",
        "source": """
def xplane_path(trace_dir):
    newest = None
    for p in Path(trace_dir).rglob("*.xplane.pb"):
        if p.is_file() and (newest is None or p.stat().st_mtime_ns > newest.stat().st_mtime_ns):
            newest = p
    return newest
""",
    },
    {
        "key": "04_xprof_profiling:count_events:exact-match",
        "function": "count_events",
        "why": "held-out: == instead of in",
        "source": """
def count_events(xplane_file, name_substring):
    total = 0
    for plane in ProfileData.from_file(str(xplane_file)).planes:
        for line in plane.lines:
            for event in line.events:
                if event.name == name_substring:
                    total += 1
    return total
""",
    },
    {
        "key": "04_xprof_profiling:count_events:case-insensitive",
        "function": "count_events",
        "why": "held-out: lower() on both sides",
        "source": """
def count_events(xplane_file, name_substring):
    needle = name_substring.lower()
    data = ProfileData.from_file(str(xplane_file))
    return len([1 for pl in data.planes for ln in pl.lines for ev in ln.events if needle in ev.name.lower()])
""",
    },
    {
        "key": "04_xprof_profiling:xplane_path:newest-by-name",
        "function": "xplane_path",
        "why": "held-out, second writer: glob.glob recursive with os.path.join, last of the sorted names",
        "source": """
def xplane_path(trace_dir):
    root = Path(trace_dir)
    found = sorted(glob.glob(os.path.join(str(root), "**", "*.xplane.pb"), recursive=True))
    if not found:
        raise FileNotFoundError(f"no .xplane.pb file found under {root}")
    return Path(found[-1])
""",
    },
    {
        "key": "04_xprof_profiling:count_events:distinct-names",
        "function": "count_events",
        "why": "held-out, second writer: nested for loops collecting matching names into a set",
        "source": """
def count_events(xplane_file, name_substring):
    prof = ProfileData.from_file(str(xplane_file))
    seen = set()
    for plane in prof.planes:
        for line in plane.lines:
            for event in line.events:
                if name_substring in event.name:
                    seen.add(event.name)
    return len(seen)
""",
    },
    {
        "key": "04_xprof_profiling:step_times_ms:plain-annotations-as-steps",
        "function": "step_times_ms",
        "why": "held-out, second writer: stats.get with an infinite order key for events without step_num",
        "source": """
def step_times_ms(xplane_file, step_name):
    pd = ProfileData.from_file(str(xplane_file))
    found = []
    for plane in pd.planes:
        if not plane.name.startswith("/host:"):
            continue
        for line in plane.lines:
            for ev in line.events:
                if ev.name == step_name:
                    num = dict(ev.stats).get("step_num")
                    order = float("inf") if num is None else int(num)
                    found.append((order, ev.duration_ns * 1e-6))
    found.sort(key=lambda item: item[0])
    return [ms for _, ms in found]
""",
    },
    {
        "key": "04_xprof_profiling:top_ops:host-launches-added",
        "function": "top_ops",
        "why": "held-out, second writer: one plain dict with .get, every plane summed together",
        "source": """
def top_ops(xplane_file, k=5):
    data = ProfileData.from_file(str(xplane_file))
    totals = {}
    for plane in data.planes:
        lines = list(plane.lines)
        op_lines = [ln for ln in lines if ln.name == "XLA Ops"]
        if op_lines:
            for ln in op_lines:
                for ev in ln.events:
                    totals[ev.name] = totals.get(ev.name, 0) + ev.duration_ns
        else:
            for ln in lines:
                for ev in ln.events:
                    hlo = dict(ev.stats).get("hlo_op")
                    if hlo:
                        totals[str(hlo)] = totals.get(str(hlo), 0) + ev.duration_ns
    best = sorted(totals.items(), key=lambda item: -item[1])
    return [(name, dur / 1000.0) for name, dur in best[:k]]
""",
    },
    {
        "key": "04_xprof_profiling:top_ops:longest-event-not-total",
        "function": "top_ops",
        "why": "held-out, second writer: device/host buckets of defaultdicts, list-built (name, event) pairs, max",
        "source": """
def top_ops(xplane_file, k=5):
    space = ProfileData.from_file(str(xplane_file))
    per_kind = {"device": defaultdict(float), "host": defaultdict(float)}
    for plane in space.planes:
        bucket = per_kind["device" if plane.name.startswith("/device:") else "host"]
        lines = list(plane.lines)
        xla = [ln for ln in lines if ln.name == "XLA Ops"]
        if xla:
            events = [(ev.name, ev) for ln in xla for ev in ln.events]
        else:
            events = [(str(dict(ev.stats)["hlo_op"]), ev) for ln in lines for ev in ln.events
                      if dict(ev.stats).get("hlo_op")]
        for name, ev in events:
            bucket[name] = max(bucket[name], ev.duration_ns / 1e3)
    chosen = per_kind["device"] or per_kind["host"]
    ranking = sorted(chosen.items(), key=lambda kv: kv[1], reverse=True)
    return ranking[:k]
""",
    },
]
