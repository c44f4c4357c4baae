"""The channel between the checker and a real sandboxed student process (autograder/grader/
remote.py, student_side.py, sandbox.py): what a lent object lets the student's code do, and that
nothing of the student's runs between calls. A few seconds: one student process."""

import os
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from autograder.grader import sandbox
from autograder.grader.remote import Budget, Student
from autograder.grader.standins import StudentFunction
from autograder.grader.settings import Limits
from conftest import ROOT

pytestmark = pytest.mark.slow

CODE = '''
import os, threading, time
def walk(fn):
    """Everything the student's code tries on a callable the checker lent it."""
    found = []
    for attr in ("trace", "lower", "__globals__", "__call__", "__wrapped__", "_fun", "f_builtins",
                 "__class__", "block_until_ready"):
        try:
            value = getattr(fn, attr)
            found.append(attr)
        except Exception as exc:
            pass
    return found, float(fn(2.0))

def pending(fn):
    import jax
    result = fn()
    jax.block_until_ready(result)
    return "blocked"

def start_ticker(path):
    def tick():
        n = 0
        while True:
            n += 1
            with open(path + ".new", "w") as f:
                f.write(str(n))
            os.replace(path + ".new", path)
            time.sleep(0.01)
    threading.Thread(target=tick, daemon=True).start()
    time.sleep(0.2)
    return True

def read(path):
    return open(path).read()
'''


@pytest.fixture
def student(tmp_path):
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    names = ["walk", "pending", "start_ticker", "read"]
    init = {"op": "init", "prelude": [], "cells": [["answer", CODE]], "names": names}
    budget = Budget(120, 60)
    budget.start_cell()
    s = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none"), init, budget, 1)
    s.contract = list(init["names"])
    s.start()
    s.wait_ready()
    ns = {}
    yield {name: StudentFunction(s, name, ns, dict(os.environ)) for name in s.defined}, s, work
    s.stop()


def test_a_lent_object_can_be_called_but_not_walked(student):
    fns, _, _ = student
    jitted = jax.jit(lambda v: v * 3.0)
    found, value = fns["walk"](jitted)
    print(found, value)
    assert value == 6.0
    # __call__ and __class__ are the student-side stand-in's own; nothing of the checker's object
    assert set(found) <= {"__call__", "__class__"}, found


def test_a_lent_result_exposes_block_until_ready_only(student):
    fns, _, _ = student

    class Pending:
        waited = 0

        def block_until_ready(self):
            type(self).waited += 1
            return self

    assert fns["pending"](Pending) == "blocked"
    assert Pending.waited == 1
    assert fns["pending"](lambda: jnp.ones(3)) == "blocked"


def test_nothing_of_the_students_runs_between_calls(student):
    fns, s, work = student
    path = str(work / "tick")
    assert fns["start_ticker"](path) is True
    if s.launch.cgroup is None:
        pytest.skip("no cgroup here to freeze the student's processes with")
    first = Path(path).read_text()
    time.sleep(0.5)  # a running ticker would write about 50 times meanwhile
    assert Path(path).read_text() == first, "the student's thread ran while the checker had control"
    assert int(fns["read"](path)) >= int(first)
