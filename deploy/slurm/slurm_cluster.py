"""Grading workers as Slurm jobs (dask-jobqueue), for `python -m autograder grade --scheduler FILE`.

On the cluster's login node, in the course checkout, with the course installed (`make`, or
`pip install -e .`) on a filesystem the compute nodes see, and dask-jobqueue next to it:

    .venv/bin/pip install dask-jobqueue==0.9.0
    .venv/bin/python deploy/slurm/slurm_cluster.py --workers 40 --scheduler-file ~/grader.json \
        --account ACCOUNT --partition PARTITION --walltime 02:00:00      # keeps running: tmux
    .venv/bin/python -m autograder grade SUBMISSIONS --out OUT --scheduler ~/grader.json

The scheduler runs in this process; each Slurm job is one worker of one core that grades one
notebook at a time (--resources notebook=1) with the same sandbox as on one machine (bubblewrap
must be installed on the compute nodes and unprivileged user namespaces allowed there: the grader
prints each worker's sandbox when it connects). Ctrl-C here cancels the jobs.
`--dry-run` prints the batch script and submits nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", type=int, default=8, help="Slurm jobs, one notebook at a time each")
    p.add_argument("--scheduler-file", type=Path, default=Path.home() / "grader-scheduler.json")
    p.add_argument("--account", default=None)
    p.add_argument("--partition", default=None)
    p.add_argument("--walltime", default="02:00:00")
    p.add_argument("--memory", default="5GB", help="per job: the student's process may map 4 GiB")
    p.add_argument("--interface", default=None, help="network interface the compute nodes reach (e.g. ib0)")
    p.add_argument("--dry-run", action="store_true", help="print the job script, submit nothing")
    args = p.parse_args()

    import dask
    from dask_jobqueue import SLURMCluster

    # a notebook whose worker dies (node lost, out of memory) runs again on another at most twice
    dask.config.set({"distributed.scheduler.allowed-failures": 2})
    cluster = SLURMCluster(
        cores=1,
        processes=1,
        memory=args.memory,
        walltime=args.walltime,
        account=args.account,
        queue=args.partition,
        interface=args.interface,
        python=sys.executable,
        worker_extra_args=["--resources", "notebook=1"],
        job_name="grader",
        job_script_prologue=["export MPLBACKEND=agg JAX_PLATFORMS=cpu"],
    )
    if args.dry_run:
        print(cluster.job_script())
        cluster.close()
        return 0
    cluster.scale(jobs=args.workers)
    args.scheduler_file.write_text(json.dumps({"address": cluster.scheduler_address}))
    print(
        f"scheduler {cluster.scheduler_address}, written to {args.scheduler_file}; {args.workers} jobs "
        "submitted. Grade with:\n  python -m autograder grade SUBMISSIONS --out OUT --scheduler "
        f"{args.scheduler_file}\nCtrl-C cancels the jobs.",
        flush=True,
    )
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.close()
        args.scheduler_file.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
