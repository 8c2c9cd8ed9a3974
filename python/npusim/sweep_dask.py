"""Runs the tasks of an `npusim sweep` on a Dask cluster (python3-distributed).

`npusim sweep --dask ADDRESS|local` writes DIR/dask-tasks.json and runs this
file as a script; it is not imported by the rest of the package and needs only
the standard library and `distributed`. Each task runs the command line the
sweep built for it (`npusim run` of a bundle, `npusim serve` of an LLM
scenario) on a worker with the configuration written to a temporary folder
there, and sends the
report back; this process writes the task's records under DIR/tasks/KEY/ as
each task ends (status.json last, by rename), so an interrupted sweep loses
only the tasks in flight. Workers need the npusim binary (the driver's path, or
`npusim` on PATH) and the bundles and scenarios at the same paths (a shared file
system).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run_task(task, npusim):
    """One task on a worker: returns the report text (or None) and the status."""
    start = time.monotonic()
    program = npusim if os.path.exists(npusim) else (shutil.which("npusim") or npusim)
    with tempfile.TemporaryDirectory(prefix="npusim-task-") as folder:
        config = os.path.join(folder, "config.yaml")
        report = os.path.join(folder, "report.json")
        with open(config, "w") as f:
            f.write(task["config"])
        args = [a.replace("@CONFIG@", config).replace("@REPORT@", report) for a in task["args"]]
        try:
            proc = subprocess.run([program] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            log, code = proc.stdout, proc.returncode
        except OSError as e:
            log, code = "cannot start %s: %s\n" % (program, e), 127
        text = None
        if os.path.exists(report):
            with open(report) as f:
                text = f.read()
    lines = [line for line in log.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line]
    ok = code == 0 and text is not None
    error = "" if ok else (errors[-1] if errors else (lines[-1] if lines else "npusim run ended with status %d" % code))
    return {
        "report": text,
        "log": log,
        "status": {"status": "ok" if ok else "failed", "exit_code": code,
                   "wall_s": time.monotonic() - start, "error": error},
    }


def write_atomically(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def record(out_dir, task, result):
    folder = os.path.join(out_dir, "tasks", task["key"])
    os.makedirs(folder, exist_ok=True)
    write_atomically(os.path.join(folder, "config.yaml"), task["config"])
    write_atomically(os.path.join(folder, "log.txt"), result["log"])
    if result["report"] is not None:
        write_atomically(os.path.join(folder, "report.json"), result["report"])
    status = dict(result["status"], key=task["key"], bundle=task["bundle"])
    if task.get("scenario"):
        status.update(scenario=task["scenario"], rate_per_s=task["rate_per_s"], count=task["count"])
    write_atomically(os.path.join(folder, "status.json"), json.dumps(status, indent=2) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--scheduler", required=True, help="a scheduler address, or 'local' for a LocalCluster")
    parser.add_argument("--workers", type=int, default=0, help="LocalCluster workers (0: one per core)")
    parser.add_argument("--npusim", required=True)
    options = parser.parse_args()
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        sys.exit("--dask needs Dask's distributed (Debian: apt-get install "
                 "python3-distributed) for %s: %s" % (sys.executable, e))
    with open(options.tasks) as f:
        tasks = json.load(f)
    cluster = None
    if options.scheduler == "local":
        # Threads suffice: each task is an `npusim run` process of its own.
        workers = options.workers or os.cpu_count() or 1
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(options.scheduler)
    try:
        futures = {}
        for task in tasks:
            future = client.submit(run_task, task, options.npusim, key="npusim-task-" + task["key"], pure=False,
                                   retries=1)
            futures[future] = task
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except Exception as e:
                # The cluster, not the task, failed (its workers died, one after
                # another): no record, so that a rerun runs the task again.
                print("lost", task["key"], "%s: %s" % (type(e).__name__, e), flush=True)
                continue
            record(options.out, task, result)
            print("done", task["key"], result["status"]["status"], flush=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
