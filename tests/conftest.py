"""Shared fixtures: real servers on loopback ports, in their own processes."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "tests" / "kernels"
BUNDLED = ROOT / "server" / "tasks" / "bundled"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_PIDS: dict[str, int] = {}  # base URL -> the server's process id


@contextlib.contextmanager
def running_server(extra_env: dict | None = None, log_path: Path | None = None,
                   command: tuple[str, ...] = ("-m", "server.app")):
    """`python -m server.app` (or `python <command>`: `-m uvicorn server.app:app` reads
    UVICORN_PORT) on a free port; yields its base URL, stops it afterwards."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KERNEL_ENV_")}
    env.update({"PORT": str(port), "UVICORN_PORT": str(port), "KERNEL_ENV_EVALUATOR": "cpu",
                "KERNEL_ENV_CPU_WORKERS": "1"})
    env.update(extra_env or {})
    out = open(log_path, "w") if log_path else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, *command], cwd=ROOT, env=env,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with code {proc.returncode}")
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            raise RuntimeError("server did not become healthy in 90 s")
        SERVER_PIDS[url] = proc.pid
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        os.killpg(proc.pid, 9)
        proc.wait()
        if log_path:
            out.close()


@pytest.fixture(scope="session")
def cpu_server(tmp_path_factory):
    """The cpu evaluator, 2 turns per episode, 3 sessions at most, logging to a file. The
    correctness limit is short so that tests/kernels/adversarial/infinite_loop.py's `timeout`
    comes soon, but no other kernel's verdict may race it: on a loaded 2-core host honest
    stages took up to 5 s, and huge_alloc.py filling memory up to the limit below took 16 s
    once (memory the VM never touched is slow to fault in). Timing is no kernel's verdict here:
    its limit leaves room for the slowest honest kernel's (matmul_bets_on_consecutive_timed_seeds,
    11 s of timing on that host)."""
    log = tmp_path_factory.mktemp("log") / "eval.jsonl"
    stdout = tmp_path_factory.mktemp("out") / "server.out"
    with running_server({"KERNEL_ENV_MAX_TURNS": "2", "KERNEL_ENV_MAX_SESSIONS": "3",
                         "KERNEL_ENV_EVAL_LOG": str(log),
                         "KERNEL_ENV_STAGE_TIMEOUTS": "correctness=40,timing=120",
                         "KERNEL_ENV_WORKER_MEMORY_GB": "2"},
                        log_path=stdout) as url:
        yield {"url": url, "log": log, "stdout": stdout, "pid": SERVER_PIDS[url]}


def process_tree(pid: int) -> list[int]:
    """pid and every process below it (from /proc)."""
    kids: dict[int, list[int]] = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as f:
                ppid = int(f.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(name))
    found, stack = [pid], [pid]
    while stack:
        for k in kids.get(stack.pop(), []):
            found.append(k)
            stack.append(k)
    return found


def nvidia_smi(query: str, what: str = "gpu") -> list[list[str]]:
    """`nvidia-smi --query-<what>=<query>` as rows of fields (numbers without units); no rows
    where there is no driver."""
    try:
        out = subprocess.run(["nvidia-smi", f"--query-{what}={query}", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [[f.strip() for f in line.split(",")] for line in out.splitlines() if line.strip()]


def kernel_source(kind: str, name: str) -> str:
    return (KERNELS / kind / f"{name}.py").read_text()
