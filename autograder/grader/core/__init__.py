"""The grader's core: the records, settings, events and faults every other layer shares (model,
settings, events, faults), the channel's plain-data frames (wire), the student's code as text
(studentcode) and the observer interface (observer). It imports nothing of the grader's above it."""
