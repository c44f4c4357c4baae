# The two commands a newcomer needs: `make run` and `make test`. Both create .venv and install the
# pinned dependencies (pyproject.toml) on first use. Needs only Python 3.12+ with pip.
# The interpreter: python3 where it is 3.12 or newer, else python3.13 or python3.12 on PATH, else
# pyenv's 3.12 or 3.13 (PYTHON=/path/to/python3.12 make test picks another).
PY312 = $(shell $(1) -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null && echo $(1))
ifndef PYTHON
PYTHON := $(firstword $(foreach p,python3 python3.13 python3.12 $(wildcard $(shell pyenv root 2>/dev/null)/versions/3.1[23]*/bin/python3),$(call PY312,$(p))) python3)
endif
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
JOBS ?= 2

.PHONY: run test test-fast lint sandbox release check-release lab browser clean compat compat-tests compat-newest compat-floor gradescope-check

# pip installs uv (its pin is pyproject.toml's), and uv the pins, bytecode compiled as pip does: about
# 27 s against pip's 68 s on 2 cores with empty caches (docs/TESTING.md); pip where uv cannot be had.
PIN = $(shell grep -oE '"$(1)==[^"]+"' pyproject.toml | tr -d '"')
INSTALL = { $(1) -m pip install --quiet --disable-pip-version-check $(call PIN,uv) && $(dir $(1))uv pip install \
  --quiet --python $(1) --compile-bytecode $(2); } || $(1) -m pip install --quiet --disable-pip-version-check $(2)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else f"Python 3.12+ is needed ({sys.executable} is {sys.version.split()[0]}): install python3.12 (Ubuntu 24.04 and Colab have it) or set PYTHON=/path/to/python3.12")'
	$(PY) -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }
	$(call INSTALL,$(PY),-e .)
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (course)" >/dev/null
	touch $(STAMP)

## make run: regenerate the student release, execute every lesson, grade the example class
run: $(STAMP)
	$(PY) -m autograder run

## make test: the linter, then the whole test suite but its second tier (notebooks in parallel).
## Every solution notebook runs with its hidden tests under emulated TPU precision here; the tests
## marked `compat` (pyproject.toml: slow and rarely changed, listed in docs/TESTING.md) are
## `make compat`'s, with every lesson on plain CPU (CI runs both); `make test` takes about 12 to 15
## minutes on 2 cores with its venv made (docs/TESTING.md, "Where make test's time goes").
test: $(STAMP) sandbox lint
	$(PY) -m pytest -p no:nbmake -n $(JOBS) --dist loadfile -m "not compat" tests

## make test-fast: the grader's pure core and the other tests that start no kernel (seconds)
test-fast: $(STAMP) lint
	$(PY) -m pytest -q tests/test_grader_core.py tests/test_project.py

## make lint: ruff's rules and ruff's formatting, configured in pyproject.toml (`ruff format .` fixes
## the formatting)
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

## make sandbox: bubblewrap, the namespaces every student process is graded in (Debian's package,
## installed as root where missing, as `make browser` does Chromium; elsewhere the grader says
## at start-up that it falls back to rlimits and Landlock)
sandbox:
	@command -v bwrap >/dev/null || [ "$$(id -u)" != 0 ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null)
	@command -v bwrap >/dev/null || echo "note: bubblewrap (bwrap) is not installed: the sandbox tests will fail; install Debian's bubblewrap"

release: $(STAMP)
	$(PY) -m autograder release

check-release: $(STAMP)
	$(PY) -m autograder release --check

## make lab: JupyterLab on the course, the instructor's view (solutions/, notebooks/, nbgrader's
## formgrader, assignment list and validate); fills the git-ignored gradebook.db first.
## Extra `jupyter lab` options: make lab LAB_ARGS="--port=8899 --no-browser"
lab: $(STAMP)
	$(PY) -m autograder lab $(LAB_ARGS)

## make browser: Debian's Chromium for tests/test_lab_e2e.py (as root; the test does it too)
browser:
	test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

## make compat: the second tier of the tests (those marked `compat`: slow and rarely changed, in
## .venv), then every lesson on Python 3.12 with (a) the newest JAX the package index serves
## (unpinned on purpose: what Colab brings next) and (b) the declared floor JAX_FLOOR, each in its
## own venv under build/compat/: every solution notebook with its hidden tests (nbmake), and every
## student notebook, where only the stubs and the checks after them may fail (the same test as
## `make test`). One part: make compat-tests, make compat-newest or make compat-floor.
JAX_FLOOR := 0.8.0
# Python 3.12: python3.12 on PATH, else pyenv's 3.12 (make compat COMPAT_PYTHON=... picks another)
ifndef COMPAT_PYTHON
COMPAT_PYTHON := $(shell for p in python3.12 $$(ls -d "$$(pyenv root 2>/dev/null)"/versions/3.12*/bin/python3.12 2>/dev/null); do \
  $$p -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null && echo $$p && break; done)
endif
COMPAT := build/compat
# The lessons' own libraries, and the test tools at the course's pins (pyproject.toml).
LESSON_LIBS := numpy ml_dtypes matplotlib xprof
COMPAT_TOOLS = $(shell grep -oE '"(ipykernel|jupyter_client|nbformat|nbclient|nbmake|pytest|pytest-xdist)==[^"]+"' pyproject.toml | tr -d '"')
COMPAT_PINS = $(shell grep -oE '"(numpy|ml_dtypes|matplotlib|xprof)==[^"]+"' pyproject.toml | tr -d '"')

compat: compat-tests compat-newest compat-floor

compat-tests: $(STAMP) sandbox
	$(PY) -m pytest -p no:nbmake -n $(JOBS) --dist loadfile -m compat tests

compat-newest compat-floor: compat-%: $(COMPAT)/%/.installed-stamp
	$(COMPAT)/$*/bin/python -c 'import sys, jax, jaxlib, numpy; print(f"[compat $*] Python {sys.version.split()[0]}, jax {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {numpy.__version__}")'
	JUPYTER_PREFER_ENV_PATH=1 $(COMPAT)/$*/bin/python -m pytest -p no:cacheprovider -n $(JOBS) --dist loadfile \
	  --nbmake --nbmake-timeout=300 solutions $(RELEASE_TESTS) -k '$(RELEASE_TEST) or ipynb'

# every lesson's student-release test (tests/conftest.py hands its file out lesson by lesson)
RELEASE_TESTS = tests/test_notebooks.py
RELEASE_TEST := test_student_release_runs_with_only_stub_errors

# newest: upgraded on every run (the point is to meet a new release the day it is out)
$(COMPAT)/newest/.installed-stamp: FORCE
	@test -n "$(COMPAT_PYTHON)" || { echo 'make compat needs Python 3.12: set COMPAT_PYTHON=/path/to/python3.12'; exit 1; }
	test -x $(COMPAT)/newest/bin/python || $(COMPAT_PYTHON) -m venv $(COMPAT)/newest
	$(call INSTALL,$(COMPAT)/newest/bin/python,--upgrade jax jaxlib $(LESSON_LIBS) $(COMPAT_TOOLS))
	$(COMPAT)/newest/bin/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (compat newest)" >/dev/null
	touch $@

$(COMPAT)/floor/.installed-stamp: Makefile pyproject.toml
	@test -n "$(COMPAT_PYTHON)" || { echo 'make compat needs Python 3.12: set COMPAT_PYTHON=/path/to/python3.12'; exit 1; }
	rm -rf $(COMPAT)/floor && $(COMPAT_PYTHON) -m venv $(COMPAT)/floor
	$(call INSTALL,$(COMPAT)/floor/bin/python,jax==$(JAX_FLOOR) jaxlib==$(JAX_FLOOR) $(COMPAT_PINS) $(COMPAT_TOOLS))
	$(COMPAT)/floor/bin/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (compat floor)" >/dev/null
	touch $@

## make gradescope-check: the Gradescope autograders without Gradescope (README, "Grading on
## Gradescope"): every lesson's zip unpacked into a Gradescope layout, setup.sh run once into a fresh
## venv from the package index with Python 3.12 (COMPAT_PYTHON, as make compat finds it), then
## run_autograder on the example class for every lesson, each results.json validated against
## Gradescope's schema and equal to `grade`'s rows (tests/test_gradescope_setup.py). Not in make test
## (minutes of installing and grading); make test runs lesson 01's zip with .venv
## (tests/test_gradescope.py).
gradescope-check: $(STAMP)
	@test -n "$(COMPAT_PYTHON)" || { echo 'make gradescope-check needs Python 3.12: set COMPAT_PYTHON=/path/to/python3.12'; exit 1; }
	COURSE_GRADESCOPE_CHECK=1 PYTHON=$(COMPAT_PYTHON) $(PY) -m pytest -p no:cacheprovider -q -s tests/test_gradescope_setup.py

FORCE:

clean:
	rm -rf build .pytest_cache
