"""A class: what a download holds (intake), the run (classrun, distribute), the canary before it,
the journal and gradebook (gradebook), instructors' overrides, and what people read (outputs,
studentview). The top layer: nothing of the grader imports it."""
