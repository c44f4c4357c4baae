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
]
