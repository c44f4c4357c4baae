# A Dask worker that grades notebooks: `python -m autograder grade ... --scheduler ADDRESS` sends
# it one notebook at a time (docs/SCALING.md). Build from the course checkout's root:
#
#   docker build -f deploy/worker.Dockerfile -t course-grader-worker .
#
# It holds the grader and the pinned Python packages only: no solutions/, no hidden tests, no
# submissions (each task brings its lesson and its notebook, and returns the grade as plain data).
FROM python:3.12-slim-bookworm

# bubblewrap: the student's process runs in its own namespaces (no network, own PIDs, uid 65534).
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap tini \
 && rm -rf /var/lib/apt/lists/*

# An unprivileged user owns nothing but its home; the grader's files are root's and read-only to it.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin grader

WORKDIR /opt/course
COPY pyproject.toml README.md LICENSE ./
COPY autograder/ ./autograder/
# Editable, as `make` installs it: the course checkout (/opt/course) stays off the student's
# read-only view of Python, while site-packages is on it.
RUN pip install --no-cache-dir -e . \
 && python -c "import autograder.grader.distribute, distributed, jax; print('ok', distributed.__version__, jax.__version__)"

USER grader
ENV HOME=/home/grader MPLBACKEND=agg JAX_PLATFORMS=cpu PYTHONDONTWRITEBYTECODE=1
WORKDIR /home/grader
# tini reaps the sandbox's processes; one notebook at a time per worker process.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["sh", "-c", "exec dask worker \"$DASK_SCHEDULER_ADDRESS\" --nthreads 1 --resources notebook=1 --no-dashboard --name \"${DASK_WORKER_NAME:-$(hostname)}\""]
