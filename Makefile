# The two commands a newcomer needs: `make run` and `make test`. Both create .venv and install the
# pinned dependencies (pyproject.toml) on first use. Needs only Python 3.11+ with pip.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
JOBS ?= 2

.PHONY: run test release check-release lab browser clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (set PYTHON=python3.11)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (course)" >/dev/null
	touch $(STAMP)

## make run: regenerate the student release, execute every lesson, grade the example class
run: $(STAMP)
	$(PY) -m autograder run

## make test: the whole test suite (notebooks in parallel)
test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) --dist loadfile --nbmake --nbmake-timeout=300 tests solutions

release: $(STAMP)
	$(PY) -m autograder release

check-release: $(STAMP)
	$(PY) -m autograder release --check

## make lab: JupyterLab on the course, the instructor's view (solutions/, notebooks/, nbgrader's
## formgrader, assignment list and validate); fills the git-ignored gradebook.db first.
## Extra `jupyter lab` options: make lab LAB_ARGS="--port=8899 --no-browser"
lab: $(STAMP)
	$(PY) -m autograder.lab $(LAB_ARGS)

## make browser: Debian's Chromium for tests/test_lab_e2e.py (as root; the test does it too)
browser:
	test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

clean:
	rm -rf build .pytest_cache
