"""The trusted checker, where every point is decided: its process (main), started from a warm
zygote (spawn), the student's process seen from it (remote, standins, names, compile_events), and
an author's candidate answers (candidates, authoring only). It imports the core and the sandbox."""
