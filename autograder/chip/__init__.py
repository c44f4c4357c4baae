"""The accelerator: run the course on one, and model it on a CPU.

hardware.py         python -m autograder.chip.hardware: the course on this machine's accelerator (run,
                    golden, casts, outcomes, compare, trace)
chiptiming.py       python -m autograder.chip.chiptiming: the timings lessons quote
cellrunner.py       notebooks run in one process, no Jupyter (where a TPU admits one program)
golden.py           the chip's matmul outputs on seeded inputs (golden data)

emulation.py        the precision emulation as one script (the parts below, joined): what the
                    grader, the tests and lessoncheck's kernels run before any student code
  tpu_compiler.py   its first part: what XLA on a TPU makes of a program's narrow floats
  emulate_precision.py  its second part: matmul precision (TPU passes, GPU TF32), installed and probed
cast_patterns.py    the patterns a student writes inside jit, each recorded on the chip
cast_record.py      running them and recording what the chip computes (golden data)
outcomes.py         every known answer's per-check outcomes on this machine, for comparing a
                    chip's verdicts with the emulation's
"""
