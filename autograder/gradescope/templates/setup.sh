#!/usr/bin/env bash
# Gradescope runs this once, as root and with network, when it builds the autograder's image
# (`bash /autograder/source/setup.sh`). Written by `python -m autograder gradescope`: instructor-only,
# like the whole zip. It installs
# - Python 3.12 or newer: the image's own (a base image that has it: Ubuntu 24.04's python3), else
#   Ubuntu's python3.12 from apt, else from the deadsnakes PPA (Ubuntu 22.04, Gradescope's default);
#   PYTHON=/path/to/python3.12 picks one;
# - bubblewrap, the student process's namespaces, where apt has it (without it, or without user
#   namespaces in the container, the grader falls back to rlimits and Landlock and says so);
# - the course's pinned packages that grading needs (requirements.txt) into the venv $SOURCE/.venv;
# then proves, in this image, that the grader grades the lesson's solution to full marks (else the
# build fails here, not on a student's submission).
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$SOURCE/.venv"
apt_install() {
  command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] || return 1
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
is312() { "$1" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; }

PY=""
for p in ${PYTHON:-} python3.13 python3.12 python3; do
  if command -v "$p" >/dev/null && is312 "$p"; then PY="$(command -v "$p")"; break; fi
done
if [ -z "$PY" ]; then
  apt_install python3.12 python3.12-venv || {
    apt_install software-properties-common && add-apt-repository -y ppa:deadsnakes/ppa &&
      apt_install python3.12 python3.12-venv
  } || true
  is312 /usr/bin/python3.12 && PY=/usr/bin/python3.12
fi
if [ -z "$PY" ]; then
  echo "setup.sh: no Python 3.12+ here and none could be installed: choose a base image with Python 3.12 (Ubuntu 24.04), or set PYTHON" >&2
  exit 1
fi
echo "setup.sh: Python $("$PY" -c 'import sys; print(sys.version.split()[0])') at $PY"

command -v bwrap >/dev/null || apt_install bubblewrap ||
  echo "setup.sh: note: bubblewrap is not installed: student code will run with rlimits and Landlock only"

if ! "$PY" -m venv "$VENV" 2>/dev/null; then  # Debian splits venv off: python3.X-venv
  apt_install "python3.$("$PY" -c 'import sys; print(sys.version_info[1])')-venv"
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SOURCE/requirements.txt"
cd "$SOURCE" && "$VENV/bin/python" -m autograder.gradescope.run --prove
