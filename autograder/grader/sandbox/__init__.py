"""The student's process and its confinement: the launch in fresh namespaces (launch), the cgroup's
caps (cgroup), Landlock (landlock), the work folder (workdir), what runs inside (student_side) and
the checker's own write confinement (guard). It imports only the core."""
