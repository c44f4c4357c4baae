"""Grading on Gradescope: one autograder zip per lesson, graded exactly as ``grade`` grades.

build.py    ``python -m autograder gradescope OUT``: the zips (setup.sh, run_autograder, the course)
run.py      inside Gradescope's container: the canaries, the upload's notebook, grade_notebook,
            results.json written by the trusted side after grading (none on a grader fault)
results.py  a Result as Gradescope's results.json: what the feedback page shows, hidden checks
            passed or failed, a failed one's known mistake and the rule it broke
templates/  setup.sh and run_autograder, as they go into the zip

Gradescope's formats, from its own documentation (gradescope-autograders.readthedocs.io, whose
source is github.com/gradescope/autograder_samples, docs/): "Autograder Specifications" (specs.md:
the zip's root holds setup.sh and run_autograder; /autograder/source, /autograder/submission,
/autograder/results/results.json, the working folder /autograder; results.json's fields and the
visibility options hidden, after_due_date, after_published, visible; stdout shown to instructors
only unless stdout_visibility says otherwise), "Submission Metadata" (submission_metadata.md: the
users' ids), "Troubleshooting" (troubleshooting.md: no valid results.json is "The autograder
failed to execute correctly"; a 10-minute default timeout, 768 MB of memory and half a CPU),
"Base Images" (base_images.md: Ubuntu 22.04 by default, other versions and variants selectable)
and the sample Dockerfile (manual_docker/Dockerfile: setup.sh runs as root with
``bash /autograder/source/setup.sh``; run_autograder is copied to /autograder/run_autograder).
Otter-grader's generator (github.com/ucbds-infra/otter-grader, otter/generate/templates/: a
setup.sh that installs its own Python environment, a run_autograder that activates it and runs one
Python entry point, the autograder folder made configurable for tests) was the model.
"""
