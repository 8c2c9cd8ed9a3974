"""Capture several bundles in parallel processes (each its own Inductor cache).

    PYTHONPATH=python python3 -m npusim.batch --out DIR [--work DIR] [--jobs N]
        [--deadline SECONDS] [--only a,b] [--suite] [NAME=SPEC[+train][+templates] ...]

Without NAME=SPEC arguments it captures the example bundles of examples/ (EXAMPLES), or
with --suite the suite's other models and training steps (SUITE). In NAME=SPEC, each
+FLAG becomes --FLAG (``+train+optimizer=adamw``). Every capture replays its own bundle
(npusim.capture's self-replay); a job with +no-self-replay is replayed afterwards instead.
Each bundle is written to OUT/NAME; logs and debug records to WORK/NAME. A capture that
fails or passes the deadline is reported and the others go on. At the end
OUT/summary.json lists, per bundle, the status, launches, kernels, calls by op and size.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

from .npuconfig import PRESETS

# name, spec, flags, compile threads. Longest first.
EXAMPLES = [
    ("resnet18-templates", "resnet18", ["--templates"], 4),
    ("gpt2-templates", "gpt2", ["--templates"], 4),
    ("resnet18", "resnet18", [], 2),
    ("mobilenet_v2", "mobilenet_v2", [], 2),
    ("bert", "bert", [], 2),
    ("gpt2", "gpt2", [], 2),
    ("llama", "llama", [], 2),
    ("vit", "vit", [], 2),
    ("moe", "moe", [], 2),
    ("mlp-train", "mlp", ["--train"], 1),
    ("mlp", "mlp", [], 1),
    ("mlp-npu", "mlp", ["--templates", "--config", os.path.join(PRESETS, "tpuv3-like.yaml")], 1),
]


# The models of the suite not in EXAMPLES, and training steps as people write them
# (torch.compile, loss.backward(), a compiled optimizer step). Small configurations.
# AdamW's first step moves every parameter by about lr * g / (|g| + eps), so a gradient
# that is zero in exact arithmetic (an attention key bias's: softmax ignores a shift of
# all of a query's scores) but rounding noise on the GPU moves its parameter by up to lr
# in a direction rounding picks; verification judges those elements by AdamW's bound
# (docs/bundle-format.md, "Optimizer steps"), the replay too. SGD's step is linear in the
# gradient, so rounding stays rounding.
_LM = "layers=2,hidden=64,heads=4,vocab=512,seq=16"
SUITE = [
    ("mobilenet_v2-train", "mobilenet_v2,image=128,batch=4,num_classes=10,width_mult=0.25",
     ["--train"], 2),
    ("resnet18-train", "resnet_small", ["--train"], 2),
    ("unet", "unet", [], 2),
    ("swinv2", "swinv2", [], 2),
    ("gpt2-train", f"gpt2,{_LM},positions=32", ["--train"], 2),
    ("gpt2-train-adamw", f"gpt2,{_LM},positions=32", ["--train", "--optimizer=adamw"], 2),
    ("bert-train-adamw", "bert,layers=2,hidden=64,heads=4,intermediate=128,vocab=512,seq=16",
     ["--train", "--optimizer=adamw"], 2),
    ("vit-train-adamw", "vit,layers=2,hidden=64,heads=2,mlp=128,image=32,patch=8,batch=2",
     ["--train", "--optimizer=adamw"], 2),
    ("llama-train", f"llama,{_LM},kv_heads=2,intermediate=128,positions=32", ["--train"], 2),
    ("attention-train", "attention_train", ["--train"], 2),
    ("lstm_tagger", "lstm_tagger", [], 1),
    ("branchy", "branchy", [], 1),
    ("branchy-train", "branchy", ["--train"], 1),
    ("clip", "clip", [], 2),
    ("mistral", "mistral", [], 2),
    ("mistral-plain", "mistral-plain", [], 2),
    ("deepseek_v3", "deepseek_v3", [], 2),
    ("deepseek_v3-hf", "deepseek_v3-hf", [], 2),
    ("convnextv2", "convnextv2", [], 2),
    ("cnn-train", "cnn", ["--train"], 1),
    ("mlp-train-sgd", "mlp,dims=64-32-10,batch=8", ["--train"], 1),
    ("mlp-train-adamw", "mlp,dims=64-32-10,batch=8", ["--train", "--optimizer=adamw"], 1),
]


def parse_job(text):
    name, spec = text.split("=", 1)
    flags = []
    while "+" in spec:
        spec, flag = spec.rsplit("+", 1)
        flags.append("--" + flag)
    return name, spec, flags, 2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jobs_list", nargs="*", metavar="NAME=SPEC[+train][+templates]")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default=None)
    ap.add_argument("--jobs", type=int, default=len(EXAMPLES))
    ap.add_argument("--deadline", type=float, default=540)
    ap.add_argument("--only", default="")
    ap.add_argument("--suite", action="store_true",
                    help="capture SUITE (the suite's other models and training steps) "
                         "instead of EXAMPLES")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-replay", dest="replay", action="store_false",
                    help="do not replay each captured bundle (npusim.replay) afterwards")
    args = ap.parse_args(argv)
    todo = [parse_job(j) for j in args.jobs_list] or list(SUITE if args.suite else EXAMPLES)
    if args.only:
        keep = args.only.split(",")
        todo = [j for j in todo if j[0] in keep]
    work = args.work or os.path.join(args.out, "_work")
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    t_begin = time.time()
    deadline = t_begin + args.deadline
    pending = list(todo)
    running = {}
    results = {}

    def finish(name, how):
        p, t0, logf = running.pop(name)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        logf.close()
        if name.startswith("replay:"):
            bname = name.split(":", 1)[1]
            results[bname]["replay"] = how
            try:
                with open(os.path.join(work, bname, "replay.txt"), errors="replace") as f:
                    results[bname]["replay_result"] = f.read()[-2000:]
            except OSError:
                pass
        else:
            results[name] = {"status": how, "seconds": round(time.time() - t0, 1)}
            job_flags = next((j[2] for j in todo if j[0] == name), [])
            if how == "ok" and args.replay and "--no-self-replay" in job_flags:
                # (a capture replays its bundle itself unless told not to)
                pending.append(("replay:" + name, None, [], 1))
        print(f"[{time.time() - t_begin:6.1f}s] done  {name:20s} {how} "
              f"({round(time.time() - t0, 1)} s)", flush=True)

    while pending or running:
        if time.time() > deadline:
            for name in list(running):
                p = running[name][0]
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
                finish(name, "killed at the deadline")
            for j in pending:
                if j[0].startswith("replay:"):
                    results[j[0].split(":", 1)[1]]["replay"] = "not run (deadline)"
                else:
                    results[j[0]] = {"status": "not run (deadline)"}
            break
        while pending and len(running) < args.jobs:
            name, spec, flags, threads = pending.pop(0)
            env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""),
                       TORCHINDUCTOR_COMPILE_THREADS=str(threads), PYTHONUNBUFFERED="1")
            if name.startswith("replay:"):
                bname = name.split(":", 1)[1]
                logf = open(os.path.join(work, bname, "replay.txt"), "w")
                cmd = [sys.executable, "-m", "npusim.replay", os.path.join(args.out, bname)]
            else:
                d = os.path.join(work, name)
                os.makedirs(d, exist_ok=True)
                logf = open(os.path.join(d, "log.txt"), "w")
                cmd = [sys.executable, "-m", "npusim.capture", spec, os.path.join(args.out, name),
                       "--seed", str(args.seed), "--debug-dir", d] + flags
            logf.write(" ".join(cmd) + "\n")
            logf.flush()
            p = subprocess.Popen(cmd, env=env, stdout=logf, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            running[name] = (p, time.time(), logf)
            print(f"[{time.time() - t_begin:6.1f}s] start {name} ({spec} {' '.join(flags)})", flush=True)
        for name in list(running):
            rc = running[name][0].poll()
            if rc is not None:
                finish(name, "ok" if rc == 0 else f"failed (exit {rc})")
        time.sleep(0.5)

    from . import bundle

    for name, spec, flags, _ in todo:
        r = results.setdefault(name, {"status": "not run"})
        r["spec"] = spec
        r["flags"] = flags
        bdir = os.path.join(args.out, name)
        if os.path.exists(os.path.join(bdir, "graph.json")):
            try:
                r.update(bundle.summary(bdir))
                r["validation_errors"] = bundle.validate(bdir)[:20]
            except Exception as e:  # noqa: BLE001
                r["summary_error"] = repr(e)
        try:  # the capture's own replay on the GPU (npusim.capture's self-replay)
            with open(os.path.join(work, name, "log.txt"), errors="replace") as f:
                lines = [ln.strip() for ln in f if "self-replay on" in ln
                         or "own replay does not reproduce" in ln]
            if lines:
                r["self_replay"] = lines[-1]
        except OSError:
            pass
        if r["status"] != "ok":
            try:
                with open(os.path.join(work, name, "log.txt"), errors="replace") as f:
                    r["log_tail"] = f.read()[-3000:]
            except OSError:
                pass
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(results, f, indent=1)
    for name, r in results.items():
        print(f"{name:20s} {r['status']:24s} replay={r.get('replay') or r.get('self_replay')} "
              f"launches={r.get('launches')} "
              f"kernels={r.get('kernels')} calls={r.get('calls')} bytes={r.get('bytes')} ops={r.get('ops')}")
    return 0 if all(r["status"] == "ok" and r.get("replay", "ok") == "ok"
                    for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
