"""``lessoncheck check LESSON``: every per-lesson check of the test suite, in the order an author needs.

Each step runs the test suite's own tests for one lesson (pytest, in a subprocess, with
``COURSE_LESSONS=LESSON`` and ``-k LESSON``): the same functions ``make test`` and ``make compat`` run,
never copies. Before a step it checks what the step needs (the folder, the release) and, where
that is missing, prints the command that makes it instead of a traceback. tests/test_lessoncheck.py
holds STEPS to the suite: every test whose id names a lesson is in exactly one step.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ...common import lessonfolder
from ...common.config import RELEASE_DIR
from ...common.notebooks import ROOT, every_lesson

CHECK = "python -m autograder.course.lessoncheck check {lesson}"
NEW = 'python -m autograder.course.lessoncheck new {lesson} "Title"'
RELEASE = "python -m autograder release"


@dataclass(frozen=True)
class Step:
    name: str
    proves: str  # what the step proves, as the author reads it
    tests: tuple[str, ...]  # tests/<file>::<function>, each run for this lesson only


STEPS = (
    Step(
        "folder",
        "the lesson is one folder: NN_name, its notebook, a readable lesson.toml and library, nothing stray; "
        "its Python files pass ruff as make lint runs it",
        (
            "test_lesson_structure.py::test_every_lesson_folder_is_one_lesson",
            "test_mistakes.py::test_every_lesson_has_a_library_that_parses",
            "test_lesson_lint.py::test_the_lesson_folder_passes_ruff",
        ),
    ),
    Step(
        "skeleton",
        "the notebook follows the skeleton: title, setup cell (the JAX floor), exercises with a visible and "
        "a hidden test, rules on every hidden assertion, fresh inputs from GRADING_SEED",
        (
            "test_lesson_structure.py::test_title_setup_and_summary",
            "test_compat.py::test_every_setup_cell_checks_the_declared_floor",
            "test_lesson_structure.py::test_contract_functions_are_answer_cells_with_visible_and_hidden_tests",
            "test_lesson_structure.py::test_notebooks_are_self_contained_and_make_figures",
            "test_lesson_structure.py::test_installs_happen_only_on_colab",
            "test_lesson_structure.py::test_hidden_tests_lend_only_planned_answers_of_earlier_exercises",
            "test_lesson_structure.py::test_hidden_tests_draw_fresh_inputs_from_the_grading_seed",
            "test_rules.py::test_every_hidden_assertion_of_every_solution_has_its_rule",
        ),
    ),
    Step(
        "library",
        "the known answers: every mistake speaks to the student and is replayed by the diagnosis, every "
        "exercise has two, every number an explanation states is a claim that holds, held-out keys exist",
        (
            "test_mistakes.py::test_every_entry_is_complete_and_speaks_to_the_student",
            "test_lesson_structure.py::test_plausible_wrong_answers_cover_every_exercise",
            "test_diagnosis.py::test_every_known_mistake_is_replayed_but_where_a_replay_is_unsound",
            "test_diagnosis.py::test_every_held_out_answer_names_a_mistake_of_the_library",
            "test_claims.py::test_claims_name_entries",
            "test_claims.py::test_distinct_pairs_name_entries",
            "test_claims.py::test_exemptions_name_entries",
            "test_claims.py::test_every_stated_number_or_dtype_has_a_claim",
            "test_claims.py::test_every_claim_holds",
            "test_claims.py::test_claims_tell_entries_apart",
        ),
    ),
    Step(
        "release",
        "the student version: notebooks/ holds what a fresh release writes (git is not looked at: commit it "
        "with the lesson), the CHIP block in both setup cells, no solution or hidden line in it, stubs that "
        "raise, the prose limits and the stated time, no rule that leaks, no retired inexact sentence",
        (
            "test_release.py::test_each_lesson_has_a_release",
            "test_student_emulation.py::test_every_setup_cell_starts_the_emulation_before_jax_opens_its_backends",
            "test_release.py::test_no_solution_or_hidden_test_text_in_the_release",
            "test_release.py::test_student_stubs_raise_not_implemented",
            "test_release.py::test_committed_notebooks_have_no_outputs_and_keep_nbgrader_metadata",
            "test_release.py::test_colab_badges_come_from_the_configured_repository",
            "test_release.py::test_hidden_test_cells_display_nothing_in_the_release",
            "test_rules.py::test_no_shown_sentence_leaks_what_the_hidden_test_knows",
            "test_prose.py::test_main_line_sentences_are_short",
            "test_prose.py::test_note_sentences_are_held_to_the_looser_limit",
            "test_prose.py::test_no_parentheses_inside_parentheses",
            "test_prose.py::test_sections_are_short_and_the_first_exercise_comes_early",
            "test_prose.py::test_the_main_line_leaves_versions_dates_and_issue_numbers_to_notes",
            "test_prose.py::test_no_cell_names_a_file_the_student_does_not_have",
            "test_prose.py::test_the_stated_time_is_the_measured_read",
            "test_prose.py::test_the_title_cell_says_what_its_time_assumes",
            "test_prose.py::test_every_lesson_states_the_one_answer_cell_rule",
            "test_prose.py::test_the_text_calls_the_lessons_functions_as_they_are_defined",
            "test_prose.py::test_seed_means_a_random_seed",
            "test_prose.py::test_every_chip_note_names_the_chip_records_jax",
            "test_exact_sentences.py::test_retired_inexact_sentences_stay_out",
        ),
    ),
    Step(
        "runs",
        "the notebooks run: the solution, hidden tests included, as a TPU v5e computes (the emulation); "
        "the student version fails only at its stubs",
        (
            "test_notebooks.py::test_solution_notebook_under_emulated_tpu_precision",
            "test_notebooks.py::test_student_release_runs_with_only_stub_errors",
            "test_notebooks.py::test_lesson_02_quotes_what_it_prints_on_a_cpu_computing_as_the_v5e",
        ),
    ),
    Step(
        "graded",
        "graded by the grader itself: the solution gets every point, every known mistake loses its own "
        "exercise's points only and is named, every alternative gets full marks, the seed reaches the "
        "hidden inputs; through `grade`, the untouched student version scores 0; the visible checks hold "
        "the hidden reference's values",
        (
            "test_notebooks.py::test_the_grader_gives_the_solution_every_test",
            "test_notebooks.py::test_every_plausible_wrong_answer_loses_only_its_own_points",
            "test_notebooks.py::test_every_correct_alternative_gets_full_marks",
            "test_notebooks.py::test_every_known_mistake_is_named_by_its_failed_checks",
            "test_notebooks.py::test_held_out_wrong_answers_are_diagnosed",
            "test_notebooks.py::test_the_grading_seed_reaches_every_random_hidden_test",
            "test_grading.py::test_solution_gets_full_marks",
            "test_grading.py::test_untouched_student_notebook_scores_zero",
            "test_grading.py::test_one_wrong_answer_loses_only_its_exercise",
            "test_visible_expectations_01_04.py::test_the_visible_check_holds_the_hidden_references_values",
            "test_visible_expectations_01_04.py::test_every_correct_answer_passes_the_visible_check",
            "test_visible_expectations_01_04.py::test_every_charged_mistake_not_named_in_lesson_toml_fails_the_visible_check",
            "test_visible_expectations_06.py::test_a_wrong_mx_quantizer_costs_no_other_visible_check",
        ),
    ),
    Step(
        "other arithmetic",
        "make compat's tier for the lesson: the solution under a GPU's TF32 matmuls with readable figure "
        'labels, the device-only mistakes on a plain CPU, quoted CPU figures with CHIP = "native"',
        (
            "test_figures.py::test_solution_runs_under_gpu_precision_and_every_figure_has_readable_labels",
            "test_emulation.py::test_wrong_answers_that_only_a_tpu_shows_pass_on_plain_cpu",
            "test_emulation.py::test_wrong_answers_that_only_a_cpu_shows_pass_as_on_a_tpu",
            "test_notebooks.py::test_lesson_02_quotes_what_it_prints_with_the_cpus_own_arithmetic",
        ),
    ),
    Step(
        "chip",
        "the chip's records (chip/outcomes.json, chip/answers.json): every known answer recorded as it is "
        "now, the chip's verdicts the library's, no charged mistake passing its visible check there; the figures the "
        "lesson quotes from the chip are the recorded ones",
        (
            "test_chip_verdicts.py::test_the_record_covers_every_known_answer_as_it_is_now",
            "test_chip_verdicts.py::test_on_the_chip_mistakes_fail_and_alternatives_pass",
            "test_chip_verdicts.py::test_what_the_chip_did_not_catch_is_named_and_still_true",
            "test_chip_verdicts.py::test_the_record_knows_which_check_each_verdict_was_measured_on",
            "test_chip_verdicts.py::test_no_surprise_at_grading_every_mistake_the_chip_charges_fails_its_visible_check",
            "test_chip_verdicts.py::test_the_chips_record_of_the_answers_written_apart_is_current",
            "test_chip_verdicts.py::test_the_chip_accepts_every_answer_written_as_correct_and_differs_only_where_named",
            "test_chip_numbers.py::test_a_quoted_chip_figure_is_the_recorded_one",
            "test_chip_numbers.py::test_a_figure_the_chip_printed_is_quoted_as_printed",
            "test_chip_numbers.py::test_a_quoted_chip_timing_is_the_recorded_one",
        ),
    ),
)


def missing(step: str, lesson: str, root: Path) -> tuple[str, str] | None:
    """What ``step`` needs that is not there, and the command that makes it; None when all is there."""
    if step == "folder" and not lessonfolder.notebook_path(lesson, root).is_file():
        return f"no lesson folder {lessonfolder.folder(lesson, root)} with {lesson}.ipynb", NEW.format(lesson=lesson)
    if step == "release":
        stale = release_problems(lesson, root)
        if stale:
            return "the student release is missing or stale: " + "; ".join(stale), RELEASE
    return None


def release_problems(lesson: str, root: Path) -> list[str]:
    """What of the committed release (notebooks/, the README's generated parts) differs from a fresh
    one, for this lesson and the course's shared files (not other lessons' own)."""
    from ..release import stale_files

    env = os.environ.pop("COURSE_LESSONS", None)  # the release and the README are every lesson's
    try:
        found = stale_files(root)
    finally:
        if env is not None:
            os.environ["COURSE_LESSONS"] = env
    others = [n for n in every_lesson(root) if n != lesson]
    return [p for p in found if not any(f"{RELEASE_DIR}/{n}/" in p or f" {n}/" in p for n in others)]


def run_step(step: Step, lesson: str, root: Path, verbose: bool = False) -> tuple[int, str]:
    """The step's tests for ``lesson`` in one pytest process: (pytest's exit status, its output)."""
    nodes = [f"tests/{t}" for t in step.tests]
    cmd = [sys.executable, "-m", "pytest", "-p", "no:nbmake", "-p", "no:cacheprovider", "-q", "-rfE"]
    cmd += ["--no-header", "-k", lesson, *nodes] + (["-rP"] if verbose else ["--tb=short"])
    env = {**os.environ, "COURSE_LESSONS": lesson}
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def check(
    lesson: str, root: Path = ROOT, keep_going: bool = False, only: list[str] | None = None, verbose: bool = False
) -> int:
    """Every step of STEPS for ``lesson`` (or the steps named in ``only``), printed as it goes; the
    first failure stops the rest unless ``keep_going``; ``verbose`` shows what passing tests print
    too (each known mistake's failed checks and the rule each shows the student). 0 when every step
    passed."""
    failed = []
    steps = [s for s in STEPS if not only or s.name in only]
    for i, step in enumerate(steps, start=1):
        head = f"[{i}/{len(steps)}] {step.name}: {step.proves}"
        need = missing(step.name, lesson, root)
        if need:
            print(f"{head}\n      MISSING {need[0]}\n      next: {need[1]}\n      then: {CHECK.format(lesson=lesson)}")
            failed.append(step.name)
            if not keep_going:
                break
            continue
        if step.name == "chip" and lessonfolder.chip_record(lesson, root) is None:
            head += (
                "\n      not yet recorded on a TPU: graded and tested under the emulation alone (README's "
                '"Tested on" and the class report say so); on a TPU: '
                f"python -m autograder.chip.hardware outcomes --lessons {lesson[:2]} --record"
            )
        t0 = time.perf_counter()
        status, output = run_step(step, lesson, root, verbose)
        summary = (output.strip().splitlines() or ["(no output)"])[-1]
        if verbose and status == 0:
            print(indent(output))
        if status in (0, 5):  # 5: none of the step's tests concerns this lesson
            print(
                f"{head}\n      ok: {summary if status == 0 else 'nothing of this lesson to check'}"
                f" ({time.perf_counter() - t0:.0f} s)"
            )
            continue
        print(f"{head}\n      FAILED ({time.perf_counter() - t0:.0f} s):\n{indent(output)}")
        print(f"      fix it, then: {CHECK.format(lesson=lesson)} (--step '{step.name}' for this step alone)")
        failed.append(step.name)
        if not keep_going:
            break
    print(f"{lesson}: " + (f"failed at {', '.join(failed)}" if failed else "every step passed"))
    return 1 if failed else 0


def indent(text: str, width: int = 6) -> str:
    return "\n".join(" " * width + line for line in text.rstrip().splitlines())
