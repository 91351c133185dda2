"""The long flows' jobs on Dask distributed (docs/verification.md, "Campaigns on Dask"): make campaign
and make mutate submit every job to a Dask cluster, the one at DASK_SCHEDULER (tcp://host:port) or
else a local one of single-threaded worker processes, and take each result back once, as it
comes, to record it (the flows resume from what they recorded). A worker that dies in the middle
of a job loses nothing: the scheduler runs the job again on another worker, and its result still
comes back once.

For the check that shows it (make test), DASK_KILL_AFTER=N kills one busy worker's process (SIGKILL)
once N results have come back; its nanny starts a new one."""
import os
import signal
import sys


def _client(workers):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("error: Dask distributed is missing: make deps installs it into build/venv (run the flow with "
              "build/venv/bin/python)", file=sys.stderr)
        sys.exit(2)
    address = os.environ.get("DASK_SCHEDULER")
    if address:
        return Client(address), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=40)
    return Client(cluster), cluster


def _kill_busy_worker(client):
    """SIGKILL the process of a worker that is running a job; its address, or None"""
    busy = [w for w, tasks in client.processing().items() if tasks]
    if not busy:
        return None
    pids = client.run(os.getpid, workers=[busy[0]])
    for pid in pids.values():
        os.kill(pid, signal.SIGKILL)
    return busy[0]


def run(fn, jobs, workers, tag):
    """fn(job) for every job on the cluster; yields (job, result) once per job, as results come.
    tag names the flow in the messages."""
    if not jobs:
        return
    from distributed import as_completed

    client, cluster = _client(workers)
    kill_after = int(os.environ.get("DASK_KILL_AFTER", "0"))
    where = os.environ.get("DASK_SCHEDULER") or f"a local cluster of {workers} workers"
    print(f"{tag}: {len(jobs)} jobs on Dask distributed, {where}", file=sys.stderr)
    try:
        futs = {client.submit(fn, j, pure=False, key=f"{tag}-{i}"): j for i, j in enumerate(jobs)}
        n = 0
        for fut in as_completed(futs):
            yield futs[fut], fut.result()
            n += 1
            if kill_after and n == kill_after:
                w = _kill_busy_worker(client)
                print(f"{tag}: killed worker {w} (DASK_KILL_AFTER={kill_after})" if w else
                      f"{tag}: no busy worker to kill", file=sys.stderr)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
