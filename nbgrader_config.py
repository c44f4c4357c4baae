# nbgrader's own command line and JupyterLab's formgrader read this file; the settings live in
# autograder/common/config.py so that `python -m autograder` uses exactly the same ones.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from autograder.common.config import nbgrader_config  # noqa: E402

c = get_config()  # noqa: F821
c.merge(nbgrader_config(Path(__file__).resolve().parent))
