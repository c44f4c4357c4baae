"""The accelerator: run the course on one, and model it on a CPU.

hardware.py         python -m autograder.chip.hardware: the course on this machine's accelerator (run,
                    golden, casts, outcomes, compare, fuzz, fuzz-compare, trace)
chiptiming.py       python -m autograder.chip.chiptiming: the timings lessons quote
cellrunner.py       notebooks run in one process, no Jupyter (where a TPU admits one program)
golden.py           the chip's matmul outputs on seeded inputs (golden data)

emulation.py        the precision emulation as one script (the parts below, joined): what the
                    grader, the tests and lessoncheck's kernels run before any student code; and,
                    joined with student.py instead of startup.py, the student's module
                    (notebooks/tpu_emulation.py, which each lesson's setup cell starts)
  tpu_constants.py  chains of constants, folded as the chip's compiler folds them
  tpu_compiler.py   what XLA on a TPU makes of a program's narrow floats
  emulate_precision.py  matmul precision (TPU passes, GPU TF32), installed and probed
  startup.py        the script's last part: started where COURSE_EMULATE says, names deleted
  student.py        the module's last part: start("v5e" | "native"), for a lesson's setup cell
cast_patterns.py    the patterns a student writes inside jit, each recorded on the chip
cast_record.py      running them and recording what the chip computes (golden data)
outcomes.py         every known answer's per-check outcomes on this machine, for comparing a
                    chip's verdicts with the emulation's (as the grader or as a student's CPU starts it)
fuzz_programs.py    the differential fuzzer's programs: a grammar of what students write, and targeted ones
fuzz.py             running them on the chip and under the emulation, and comparing their bits
"""
