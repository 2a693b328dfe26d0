#!/usr/bin/env python3
"""Run a sharded hisha batch command as Ray tasks and merge the results.

Each shard i of N runs the given command with `--shard i/N` appended (for
`hisha analyse`, `hisha mate --file` and `hisha gensfen`, which split their work
deterministically by item index modulo N). The tasks run on a Ray cluster:
`ray.init()` starts a local one; `--address` joins a real one (`auto`, or
`ray://HEAD:10001`). The hisha binary and the input files must exist at the same
paths on every node (a shared file system), or be shipped with `--working-dir`.

Progress streams to stderr: each task reports how many result lines it has
produced every few seconds (Ray forwards task output to the driver), and the
driver reports each shard as it finishes. A shard whose command fails (non-zero
exit, or its worker dies) is retried up to `--retries` times.

Merging (`--merge json`, the default): the shards' stdout must be JSON lines
with ids (`hisha analyse --json`: "game" and "ply"; `hisha mate --json`:
"problem"); lines are sorted by (id, kind, ply) and written unchanged, which is
the order of the one-machine run, so the merged output is byte-identical to it
(for reproducible searches: --nodes or --depth, one thread). `--merge concat`
writes the shards' stdout in shard order instead. `{shard}` and `{shards}` in the
command are replaced by the shard's number and the shard count (e.g. to give each
shard its own output file).

Examples:
  python3 scripts/ray_shards.py --shards 8 --out analysis.jsonl -- \
      target/release/hisha analyse games/*.csa --nodes 200000 --json
  python3 scripts/ray_shards.py --address auto --shards 64 --out mate.jsonl -- \
      target/release/hisha mate --file problems.txt --time 5000 --json
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

KIND_ORDER = {"error": 0, "ply": 1, "game": 2, "problem": 1}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--shards", type=int, required=True, help="number of shards (tasks)")
    p.add_argument("--retries", type=int, default=2, help="retries of a failed shard (default 2)")
    p.add_argument("--cpus-per-task", type=float, default=1, help="CPUs Ray reserves per task (match --threads)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray instance (default: all)")
    p.add_argument("--working-dir", default=None, help="directory shipped to the workers (runtime_env)")
    p.add_argument("--merge", choices=["json", "concat"], default="json")
    p.add_argument("--out", default="-", help="merged output file (default stdout)")
    p.add_argument("--inject-failure", type=int, default=None, metavar="I",
                   help="testing: the first attempt of shard I fails (to exercise retries)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the hisha command")
    a = p.parse_args(argv)
    if a.command and a.command[0] == "--":
        a.command = a.command[1:]
    if not a.command:
        p.error("give the command after --")
    if not 1 <= a.shards <= 100000:
        p.error("--shards must be 1..100000")
    return a


def shard_command(command, i, n):
    """The command of shard i: placeholders filled, `--shard i/n` appended."""
    cmd = [c.replace("{shard}", str(i)).replace("{shards}", str(n)) for c in command]
    return cmd + ["--shard", f"{i}/{n}"]


def run_shard(cmd, i, n, fail_marker):
    """Body of one Ray task: runs the shard, streams a line count, returns its stdout."""
    if fail_marker is not None and not os.path.exists(fail_marker):
        open(fail_marker, "w").close()
        raise RuntimeError(f"shard {i}/{n}: injected failure (first attempt)")
    start = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err_lines = []
    t = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
    t.start()
    out_lines = []
    last = time.time()
    for line in proc.stdout:
        out_lines.append(line)
        if time.time() - last >= 3:
            last = time.time()
            print(f"[shard {i}/{n}] {len(out_lines)} lines, {last - start:.0f} s", file=sys.stderr, flush=True)
    rc = proc.wait()
    t.join(timeout=10)
    if rc != 0:
        tail = "".join(err_lines[-5:])
        raise RuntimeError(f"shard {i}/{n}: exit {rc}: {tail}")
    for e in err_lines:
        if e.startswith("error:") or e.startswith("analysed") or e.startswith("summary"):
            print(f"[shard {i}/{n}] {e.rstrip()}", file=sys.stderr, flush=True)
    return i, "".join(out_lines), time.time() - start


def merge_json(outputs):
    """JSON lines of all shards in the one-machine order."""
    keyed = []
    for i, text in enumerate(outputs):
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                raise SystemExit(f"error: shard {i}: not a JSON line (run the command with --json): {line[:80]}")
            ident = obj.get("game", obj.get("problem"))
            if ident is None:
                raise SystemExit(f"error: shard {i}: JSON line without a game or problem id: {line[:80]}")
            keyed.append(((ident, KIND_ORDER.get(obj.get("type"), 3), obj.get("ply", 0)), line))
    keyed.sort(key=lambda k: k[0])
    return "".join(line + "\n" for _, line in keyed)


def main(argv):
    a = parse_args(argv)
    import ray  # imported here so that --help works without Ray

    init = {"address": a.address, "include_dashboard": False, "log_to_driver": True}
    if a.address is None:
        # A local instance stays on the loopback interface.
        init["_node_ip_address"] = "127.0.0.1"
        if a.num_cpus is not None:
            init["num_cpus"] = a.num_cpus
    if a.working_dir:
        init["runtime_env"] = {"working_dir": a.working_dir}
    ray.init(**init)
    task = ray.remote(num_cpus=a.cpus_per_task, max_retries=a.retries, retry_exceptions=True)(run_shard)
    marker_dir = tempfile.mkdtemp(prefix="ray_shards_")
    pending = {}
    for i in range(a.shards):
        marker = os.path.join(marker_dir, f"fail{i}") if a.inject_failure == i else None
        pending[task.remote(shard_command(a.command, i, a.shards), i, a.shards, marker)] = i
    outputs = [None] * a.shards
    start = time.time()
    failed = []
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        ref = done[0]
        i = pending.pop(ref)
        try:
            _, text, secs = ray.get(ref)
            outputs[i] = text
            finished = sum(o is not None for o in outputs)
            print(f"[ray] shard {i}/{a.shards} done in {secs:.1f} s ({finished}/{a.shards} shards, "
                  f"{time.time() - start:.0f} s elapsed)", file=sys.stderr, flush=True)
        except Exception as e:  # the task failed after all its retries
            failed.append(i)
            print(f"[ray] shard {i}/{a.shards} FAILED after {a.retries} retries: {e}", file=sys.stderr, flush=True)
    ray.shutdown()
    if failed:
        print(f"error: shards {sorted(failed)} failed; no merged output written", file=sys.stderr)
        return 1
    merged = merge_json(outputs) if a.merge == "json" else "".join(outputs)
    if a.out == "-":
        sys.stdout.write(merged)
    else:
        with open(a.out, "w") as f:
            f.write(merged)
    print(f"[ray] merged {a.shards} shards into {a.out} in {time.time() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
