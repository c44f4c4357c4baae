"""`hardware outcomes --changed` (autograder/chip/rerecord.py): on the chip, only the verdicts that
went stale are measured again, and merged into the lesson's record with the others kept."""

import shutil

from autograder.chip.outcomes import candidates
from autograder.chip.rerecord import merged, stale_checks
from conftest import ROOT

LESSON = "01_number_formats"  # a lesson whose record is current (lesson.toml names no changed check)


def lesson_copy(tmp_path, extra_toml: str = ""):
    shutil.copytree(ROOT / "solutions" / LESSON, tmp_path / "solutions" / LESSON)
    toml = tmp_path / "solutions" / LESSON / "lesson.toml"
    text = toml.read_text().replace("[chip]\n", "[chip]\n" + extra_toml, 1)
    toml.write_text(text if "[chip]\n" in text else text + "\n[chip]\n" + extra_toml)
    return tmp_path


def test_nothing_is_stale_in_a_current_record(tmp_path):
    assert stale_checks(LESSON, lesson_copy(tmp_path)) == {}


def test_a_changed_visible_check_makes_only_its_exercises_answers_stale_for_that_check(tmp_path):
    root = lesson_copy(tmp_path, 'changed_since_recorded = ["test_pairwise_sum_visible"]\n')
    stale = stale_checks(LESSON, root)
    mine = {c["key"] for c in candidates(LESSON, root) if c["function"] == "pairwise_sum"}
    assert set(stale) == mine and mine
    assert all(v == ["test_pairwise_sum_visible"] for v in stale.values())


def test_a_new_answer_is_measured_on_every_check_of_its_exercise(tmp_path):
    root = lesson_copy(tmp_path)
    alt = root / "solutions" / LESSON / "alternatives.py"
    text = alt.read_text()
    source = "def bf16_round(x):\\n    return 0\\n"
    new = f'    {{"function": "bf16_round", "source": "{source}"}},\n'
    alt.write_text(text.replace("ALTERNATIVES = [\n", "ALTERNATIVES = [\n" + new, 1))
    stale = stale_checks(LESSON, root)
    assert list(stale.values()) == [["test_bf16_round_visible", "test_bf16_round_hidden"]]


def test_merging_keeps_old_verdicts_replaces_stale_ones_and_drops_unknown_answers():
    old = {
        "date": "d0",
        "outcomes": [
            {
                "key": "a",
                "source_sha": "s",
                "checks": {"v": "passed", "h": "failed"},
                "tests_sha": {"v": "1", "h": "2"},
                "errors": {"h": "AssertionError"},
            },
            {"key": "gone", "source_sha": "s", "checks": {}, "tests_sha": {}, "errors": {}},
        ],
    }
    fresh = [
        {"key": "a", "source_sha": "s", "checks": {"v": "failed"}, "tests_sha": {"v": "9"}, "errors": {"v": "E: x"}},
        {"key": "b", "source_sha": "t", "checks": {"v": "passed"}, "tests_sha": {"v": "9"}, "errors": {}},
    ]
    new = merged(old, fresh, {"a", "b"}, {"date": "d1"})
    a, b = new["outcomes"]
    assert a["checks"] == {"v": "failed", "h": "failed"} and a["tests_sha"] == {"v": "9", "h": "2"}
    assert a["errors"] == {"h": "AssertionError", "v": "E: x"}
    assert b["key"] == "b" and new["date"] == "d0" and new["updates"] == [{"date": "d1"}]
