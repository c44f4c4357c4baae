"""Making and checking the course, for its authors and maintainers:

release.py     notebooks/ generated from solutions/ by nbgrader (python -m autograder release)
publish.py     the student-only public tree (python -m autograder publish)
build.py       make run: the release, every lesson executed, the example class graded and reported
lab.py         make lab: JupyterLab with nbgrader's formgrader on the course
authoring.py   writing nbgrader source notebooks from Python
skeleton.py    a new lesson's folder (lessoncheck new): docs/AUTHORING.md's worked example
prose.py       the lessons' measured prose limits (python -m autograder.course.prose)
student_files.py  what a lesson refers to that a student does not have
lessoncheck/   one lesson checked end to end, step by step (python -m autograder.course.lessoncheck)
"""
