"""Issue 44 (3): one typed Settings across processes. settings.Settings is the one declaration of
every option and its one default; ``to_dict`` and ``from_dict`` are the one way it becomes plain
data (a worker's Job, a checker's CheckerJob, a Gradescope zip, run.json, the regrade fingerprint)
and the one way back. No other module rebuilds it from a dict or reads a setting out of one."""

import json
import re

import pytest

from autograder.grader.core.settings import Limits, Settings
from conftest import ROOT

SOME = Settings(
    cell_timeout=7.5,
    notebook_timeout=99.0,
    max_restarts=1,
    emulation="none",
    jobs=3,
    seed=11,
    max_output_chars=10,
    checker_memory_bytes=2**31,
    diagnose=False,
    rules=False,
    limits=Limits(memory_bytes=2**30, work_files=5, cpus=0.5),
)


def test_settings_cross_as_plain_data_and_come_back_the_same():
    for settings in (Settings(), SOME):
        plain = json.loads(json.dumps(settings.to_dict()))  # what a frame or a zip's config holds
        assert Settings.from_dict(plain) == settings
        assert type(Settings.from_dict(plain).limits) is Limits


def test_a_missing_setting_takes_its_one_default_and_an_unknown_one_is_an_error():
    assert Settings.from_dict({}) == Settings()
    assert Settings.from_dict({"diagnose": False, "limits": {"cpus": 1.0}}) == Settings(
        diagnose=False, limits=Limits(cpus=1.0)
    )
    for bad in ({"timeout": 5}, {"limits": {"memory": 1}}, {"limits": [1]}):
        with pytest.raises(ValueError):
            Settings.from_dict(bad)


def test_no_module_but_settings_py_rebuilds_settings_from_a_dict_or_reads_one():
    """The three hand-made rebuilds (notebook/grade.py, checker/main.py, gradescope/run.py) and the checker's second
    default for ``diagnose`` are gone, and none may come back."""
    pattern = re.compile(
        r"Limits\(\*\*|Settings\(\*\*|asdict\((self\.)?(job\.)?settings|settings\.get\(|"
        r"settings\[\"|\bs\[\"(limits|emulation|diagnose|cell_timeout|max_restarts|max_output_chars)"
    )
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "autograder").rglob("*.py"))
        if path.name != "settings.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and "cgroup" not in path.name  # cgroup.py's own dict of files is not these
    ]
    assert found == []
