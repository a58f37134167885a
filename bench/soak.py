"""A scaled-down days-long run: episodes back to back through the real server, watching what
would grow over days — the server's and worker hosts' memory and open files, processes left
behind, scratch folders, the Triton cache.

    python bench/soak.py [--minutes 10] [--sessions 2] [--evaluator cpu]

Each session plays episodes of every turn: honest kernels (a fresh source each step, as in RL),
an adversarial kernel among them, and a disconnect mid-episode now and then. Prints one line per
sample (every --every seconds) and, last, the growth from the first sample after warm-up to the
last: a leak shows as a steady rise.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernel_env import KernelAction, KernelEnv  # noqa: E402
from tests.conftest import KERNELS, SERVER_PIDS, nvidia_smi, process_tree, running_server  # noqa: E402

PLAYS = [("level1/19_ReLU", "legit/relu.py"), ("level1/23_Softmax", "legit/softmax.py"),
         ("level1/19_ReLU", "adversarial/torch_op_in_forward.py")]


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _du_mb(path: Path) -> float:
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(d, f)).st_size
            except OSError:
                pass
    return total / 2**20


def sample(server: int) -> dict:
    tree = process_tree(server)
    hosts = [p for p in tree if p != server and _is_host(p)]
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    import triton

    return {"server_mb": _rss_mb(server), "server_fds": _fds(server), "gpu_mb": _gpu_used_mb(),
            "hosts_mb": sum(_rss_mb(h) for h in hosts), "processes": len(tree),
            "scratch_mb": sum(_du_mb(p) for p in tmp.glob("kernel_env_host_*")),
            "triton_mb": _du_mb(Path(triton.knobs.cache.dir))}


def _gpu_used_mb() -> float:
    """Device memory in use on every GPU (0 without one)."""
    return float(sum(int(row[0]) for row in nvidia_smi("memory.used")))


def _is_host(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"server.evaluation.worker" in f.read()
    except OSError:
        return False


def play(url: str, stop: threading.Event, counts: dict, n: int) -> None:
    rng = random.Random(n)
    step = 0
    while not stop.is_set():
        try:
            with KernelEnv(base_url=url, message_timeout_s=600).sync() as env:
                task, kernel = rng.choice(PLAYS)
                env.reset(task_id=task)
                for turn in range(4):
                    if stop.is_set() or (turn and rng.random() < 0.1):
                        break  # a disconnect mid-episode
                    step += 1
                    code = (KERNELS / kernel).read_text() + f"\nSTEP = {n * 100000 + step}\n"
                    obs = env.step(KernelAction(code=code)).observation
                    counts["steps"] += 1
                    counts[obs.stage] = counts.get(obs.stage, 0) + 1
        except Exception as exc:  # counted: a soak run must not stop at one failure
            counts["errors"] = counts.get("errors", 0) + 1
            counts["last_error"] = repr(exc)[:200]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--sessions", type=int, default=2)
    parser.add_argument("--every", type=float, default=30)
    parser.add_argument("--evaluator", default="cpu")
    parser.add_argument("--gpus", default="all", help="KERNEL_ENV_GPUS on the gpu evaluator")
    args = parser.parse_args()
    counts = {"steps": 0}
    stop = threading.Event()
    env = {"KERNEL_ENV_EVALUATOR": args.evaluator, "KERNEL_ENV_CPU_WORKERS": str(args.sessions),
           "KERNEL_ENV_GPUS": args.gpus}
    with running_server(env) as url:
        server = SERVER_PIDS[url]
        threads = [threading.Thread(target=play, args=(url, stop, counts, n), daemon=True)
                   for n in range(args.sessions)]
        for t in threads:
            t.start()
        samples, t0 = [], time.time()
        keys = ("server_mb", "server_fds", "hosts_mb", "gpu_mb", "processes", "scratch_mb", "triton_mb")
        print(f"{'min':>6}{'steps':>7}" + "".join(f"{k:>12}" for k in keys), flush=True)
        while time.time() - t0 < args.minutes * 60:
            time.sleep(args.every)
            s = dict(sample(server), minute=(time.time() - t0) / 60, steps=counts["steps"])
            samples.append(s)
            print(f"{s['minute']:>6.1f}{s['steps']:>7}" + "".join(f"{s[k]:>12.1f}" for k in keys), flush=True)
        stop.set()
        for t in threads:
            t.join(timeout=600)
    base = samples[min(1, len(samples) - 1)]  # after the first sample: warm-up done
    last = samples[-1]
    print(f"\n{counts}")
    print(f"growth over {last['minute'] - base['minute']:.1f} min and {last['steps'] - base['steps']} steps: "
          + ", ".join(f"{k} {last[k] - base[k]:+.1f}" for k in keys))


if __name__ == "__main__":
    main()
