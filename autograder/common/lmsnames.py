"""How Canvas and Moodle name a student's upload in a bulk download: read by the grader's intake
(whose upload is whose) and by the report's return archives (the name each LMS matches feedback
back to). Plain patterns, apart from both, so that the report needs nothing of the grader but its
data model (grader/core).

- Canvas: ``<name>[_LATE]_<user id>_<submission id>_<file>``;
- Moodle: a folder ``<name>_<participant id>_assignsubmission_file_<anything>`` per participant.
"""

import re

CANVAS = re.compile(r"^(?P<name>.+?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<sub>\d+)_(?P<file>.+)$")
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_file_(?P<file>.*)$")
