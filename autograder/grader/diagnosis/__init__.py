"""Diagnosis, a plug-in: which known mistake a failed check's calls behave like. Reached only by
name through core.observer.plugin() (plugin); without this package grading gives the same points.
It imports the core, the sandbox and the checker's stand-ins, never the layers above."""
