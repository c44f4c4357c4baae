"""nbgrader's gradebook schema version, read in this process. nbgrader stamps each new gradebook
with its alembic head, which it asks a subprocess for (``alembic heads``: a fresh interpreter that
imports nbgrader again, about 1-2 s of every grading run). ``install`` makes nbgrader read the same
head from its own migration scripts here, once a process (tests/test_gradebook_schema.py checks it
is the subprocess's answer)."""

from __future__ import annotations

import functools
from pathlib import Path


@functools.cache
def alembic_head() -> str:
    """The head revision of nbgrader's migration scripts (nbgrader/alembic), as ``alembic heads``
    prints it."""
    import nbgrader
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(nbgrader.__file__).parent / "alembic"))
    return ScriptDirectory.from_config(config).get_current_head()


def install() -> None:
    """New gradebooks of this process are stamped with ``alembic_head`` (no subprocess)."""
    import nbgrader.api

    nbgrader.api.get_alembic_version = alembic_head
