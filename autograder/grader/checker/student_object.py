"""A function the student's process lent the checker (remote.py's calls decode it so)."""

from __future__ import annotations


class StudentObject:
    """Stands, in the checker, for an object the student's process lent (a function its code
    handed to a reference): it can only be called, and what comes back is plain data."""

    def __init__(self, student, handle: int):  # student: remote.Student
        self.student, self.handle = student, handle

    def __repr__(self):
        return f"<student object #{self.handle}>"

    def __call__(self, *args, **kwargs):
        if self.student.depth == 0:
            raise RuntimeError("a student's object can only be called during the call that lent it")
        value, _ = self.student.call(self.handle, args, kwargs, {})
        return value
