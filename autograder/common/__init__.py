"""What every package of the tooling shares, importing none of them:

generation.py  the student version of lessons, as nbgrader makes it (the release's and the grader's)
notebooks.py   nbgrader notebook helpers (cells, grade ids, points, lessons, the student version)
config.py      the course's settings (pyproject.toml's [tool.course], folders, what stays private)
mistakes.py    the library of known wrong answers, read as data (solutions/NN/mistakes.py)
lessonfolder.py  a lesson is one folder: its layout, lesson.toml, the chip's record of it, what it releases
textsafe.py    text from a submission made safe for a terminal, a CSV or a page
templating.py  the one Jinja2 environment of the pages (templates/: the report, the feedback page)
words.py       plurals and sizes in words
lmsnames.py    Canvas's and Moodle's upload-name patterns
"""
