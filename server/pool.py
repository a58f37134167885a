"""The worker pool: one worker host per evaluation slot, handed to callers in strict FIFO order.

A slot is a GPU (or, on the cpu evaluator, one of KERNEL_ENV_CPU_WORKERS). Each slot runs one
evaluation at a time, so timings never share a GPU. Each session's step runs on its own thread
and waits here in arrival order. A host is a subprocess (`server.evaluation.worker`) with a
scrubbed environment; it is started ahead of time and restarted if it ever dies or stops
answering.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from server.departure import Departure
from server.evaluation.stages import CANCELLED
from server.evaluation.protocol import EvalRequest, EvalResult

# Only these variables reach a worker: no credentials (MODAL_PROXY_*, tokens, keys).
ENV_ALLOWLIST = (
    "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH",
    "TRITON_CACHE_DIR", "TRITON_HOME", "TORCH_HOME", "CC", "CXX", "NVCC", "TORCH_CUDA_ARCH_LIST",
    "OMP_NUM_THREADS", "MKL_NUM_THREADS", "PYTHONPATH", "VIRTUAL_ENV",
    "CUDA_DEVICE_ORDER",  # how CUDA_VISIBLE_DEVICES's indices count, as in the server's own process
    # the operator's choice for the caching allocator. Not set by default: on session 43's H100
    # expandable segments cut a full-size ReLU or Softmax step's reservation from 70.6 to 49.5
    # GiB (Frobenius: 57.8 against 49.1), but added 0.06-0.20 s to a full-size step's overhead
    # (every evaluation is a fresh process that maps its segments' pages anew), at the same
    # speedups (bench/run_gpu_suite.sh allocator)
    "PYTORCH_CUDA_ALLOC_CONF",
)
ROOT = Path(__file__).resolve().parent.parent
# glibc's tunables for the worker hosts (read when a process starts; its forks inherit them):
# freed chunks set to 0xA5 as they are freed, new ones (but calloc's) to 0x5A, and no per-thread
# cache, whose chunks (up to ~1 KiB) are exempt. An evaluation's host memory a submission's
# torch.empty is handed then holds none of what the evaluator freed (secret_memory.py).
MALLOC_TUNABLES = "glibc.malloc.perturb=165:glibc.malloc.tcache_count=0"
START_TIMEOUT_S = 180.0


def cpu_shares(count: int, cpus: set[int] | None = None) -> list[tuple[int, ...]] | None:
    """Each of `count` worker hosts' own CPUs: the server's (its affinity) split into disjoint,
    contiguous, near-equal shares, in order; None where there are fewer CPUs than hosts or no
    affinity to read. A host pins itself to its share before importing torch, and its
    evaluations (forks) and the programs they run inherit it: a CUDA build's compilers or a
    submission's threads in one slot cannot slow another slot's timings, nor a reference's
    profile there, which is cached for every later step of its task (a launch-bound reference
    is timed at its host's speed: red-team pass 71)."""
    if cpus is None:
        if not hasattr(os, "sched_getaffinity"):
            return None
        cpus = os.sched_getaffinity(0)
    ordered = sorted(cpus)
    if count < 1 or len(ordered) < count:
        return None
    size, extra = divmod(len(ordered), count)
    shares, start = [], 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        shares.append(tuple(ordered[start:end]))
        start = end
    return shares


def scrubbed_env(device: str, visible: str | None = None) -> dict:
    """`visible`: the GPU's CUDA_VISIBLE_DEVICES entry (config.gpu_visible; default its id)."""
    env = {k: v for k, v in os.environ.items() if k in ENV_ALLOWLIST}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    # freed host memory overwritten as it is freed: no evaluator secret reaches a submission's
    # torch.empty that way (server/evaluation/secret_memory.py)
    env["GLIBC_TUNABLES"] = MALLOC_TUNABLES
    if device.startswith("cuda:"):
        # The worker sees only its GPU, as cuda:0; timing never shares a device.
        env["CUDA_VISIBLE_DEVICES"] = visible or device.split(":")[1]
    return env


class WorkerHost:
    """One long-lived `python -m server.evaluation.worker` process for one device."""

    def __init__(self, device: str, spares: int = 1, visible: str | None = None, slot: str = "",
                 cpus: tuple[int, ...] | None = None):
        """`cpus`: the host's own CPUs (`cpu_shares`); None: the server's, shared."""
        self.device, self.spares, self.visible, self.cpus = device, spares, visible, cpus
        self.slot = slot or device  # the pool's name for it ("cuda:1", "cpu:0"): the step log's `worker`
        self.proc: subprocess.Popen | None = None
        self.started_at: int | None = None  # the host's start time (/proc), which tells its pid's reuse
        self.ready = threading.Event()
        self.lock = threading.Lock()
        self.scratch: str | None = None  # the host's TMPDIR: its evaluations' folders live here
        # Cancelling a step whose client left (server/departure.py): the numbers of such jobs go
        # down a pipe of their own to the host (children.CancelPipe), which stops the job if it
        # is still the one it runs; a number written late names a job already over.
        self._cancel_w: int | None = None
        self._jobs = itertools.count(1)
        self._running: int | None = None  # the job sent and not yet answered
        self._job_lock = threading.Lock()

    def start(self) -> None:
        self.ready.clear()  # (GET /status: not up until the new host says so)
        worker_device = "cuda:0" if self.device.startswith("cuda:") else "cpu"
        self._remove_scratch()  # a host that died left its evaluations' folders behind
        self.scratch = tempfile.mkdtemp(prefix="kernel_env_host_")
        env = dict(scrubbed_env(self.device, self.visible), TMPDIR=self.scratch)
        self._close_cancel_pipe()
        cancel_r, cancel_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server.evaluation.worker", "--device", worker_device,
                 "--spares", str(self.spares), "--cancel-fd", str(cancel_r)]
                + (["--cpus", ",".join(map(str, self.cpus))] if self.cpus else []),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, cwd=str(ROOT),
                env=env, text=True, bufsize=1, start_new_session=True, pass_fds=(cancel_r,),
            )
        except BaseException:
            os.close(cancel_w)
            raise
        finally:
            os.close(cancel_r)
        os.set_blocking(cancel_w, False)  # a host that stopped reading must not block the loop
        self._cancel_w = cancel_w
        self.started_at = start_time(self.proc.pid)
        # {"event": "ready"} once torch and triton are imported; a host that hangs on its way
        # there must not hold its slot (and the steps queued for it) forever
        line = _readline_with_timeout(self.proc, START_TIMEOUT_S)
        if line is None:
            self.stop()
            raise RuntimeError(f"worker for {self.device} did not report ready within "
                               f"{START_TIMEOUT_S:.0f} s")
        if not line:
            raise RuntimeError(f"worker for {self.device} exited during start-up (code {self.proc.wait()})")
        self.ready.set()

    def evaluate(self, req: EvalRequest, timeout_s: float, departure: Departure | None = None) -> EvalResult:
        """Send one request and wait for its result; restart the host if it died or hung.
        `departure`: the step's client; if it leaves, the host is told to stop the job."""
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self.stop()  # what the dead host's evaluations started may still run
            try:
                self.start()
            except (RuntimeError, OSError) as exc:  # the evaluator's fault: an answer, not a crash
                self.stop()
                return EvalResult(stage="static_check", error_class="internal_error",
                                  feedback=f"the worker host failed to start ({exc}); it is "
                                  "started again on the next step, please submit again")
        job = next(self._jobs)
        payload = dict(req.to_dict(), device="cuda:0" if self.device.startswith("cuda:") else "cpu",
                       job=job)
        with self._job_lock:
            self._running = job
        forget = departure.on_leave(lambda: self._cancel(job)) if departure is not None else None
        try:
            self.proc.stdin.write(json.dumps(payload) + "\n")
            self.proc.stdin.flush()
            line = _readline_with_timeout(self.proc, timeout_s)
        except (BrokenPipeError, OSError):
            line = None
        finally:
            if forget is not None:
                forget()
            with self._job_lock:
                self._running = None
        if not line:
            self.stop()
            return EvalResult(stage="static_check", error_class="internal_error",
                              feedback="the worker host stopped answering; it was restarted, "
                              "please submit again")
        return EvalResult.from_dict(json.loads(line)["result"])

    def _cancel(self, job: int) -> None:
        """Tell the host to stop `job` if it still runs it (called from the event loop's thread
        as the step's client leaves)."""
        with self._job_lock:
            if self._running != job or self._cancel_w is None:
                return
            try:
                os.write(self._cancel_w, f"{job}\n".encode())
            except OSError:  # the pipe is full or the host gone: the job runs to its end
                pass

    def _close_cancel_pipe(self) -> None:
        with self._job_lock:
            if self._cancel_w is not None:
                os.close(self._cancel_w)
                self._cancel_w = None

    def stop(self) -> None:
        """Kill the host and everything it started (its evaluation processes, and what those
        started: a build's ninja and nvcc outlive a killed parent), then remove their folders:
        the host is the one that removes them, and a killed host cannot."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            kill_session(self.proc.pid, self.started_at)  # it led its own session
        self.proc = None
        self._close_cancel_pipe()
        self._remove_scratch()

    def _remove_scratch(self) -> None:
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


def session_members(sid: int) -> list[int]:
    """The processes of session `sid` (its leader's descendants, however deep, unless one left the
    session: evaluation processes only start their own process groups). Empty without /proc."""
    pids = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return pids
    for name in names:
        fields = _stat(name) if name.isdigit() else []
        if len(fields) > 3 and fields[3] == str(sid) and fields[0] not in ("Z", "X"):  # not dead
            pids.append(int(name))
    return pids


def start_time(pid: int) -> int | None:
    """When a process started (clock ticks after boot), None if it is gone."""
    fields = _stat(pid)
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else None


def _stat(pid) -> list[str]:
    """/proc/PID/stat's fields after the command name (state, ppid, pgrp, session, ...; the
    name, in parentheses, may hold spaces); empty if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return []
    return stat[stat.rfind(")") + 2:].split()


def kill_session(sid: int, leader_started_at: int | None = None, within_s: float = 2.0) -> list[int]:
    """SIGKILL every process of session `sid` until none is left (a build may be starting its
    next compiler as the last one dies); returns those that would not go. When the leader's
    start time is known and a process with its pid started at another time, the pid (and so the
    session id) belongs to someone else now: nothing is killed."""
    if leader_started_at is not None and start_time(sid) not in (None, leader_started_at):
        return []
    deadline = time.monotonic() + within_s
    while True:
        left = [pid for pid in session_members(sid) if pid != os.getpid()]
        if not left or time.monotonic() > deadline:
            return left
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.02)


def _readline_with_timeout(proc: subprocess.Popen, timeout_s: float) -> str | None:
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout_s)
    return box[0] if box else None


class WorkerPool:
    """Slots handed out first come, first served; a release passes the slot to the oldest waiter."""

    def __init__(self, devices: list[str], step_timeout_s: float, spares: int = 1,
                 visible: tuple[str, ...] | None = None):
        """`visible`: each GPU's CUDA_VISIBLE_DEVICES entry (config.gpu_visible)."""
        shares = cpu_shares(len(devices))
        self.hosts = [WorkerHost(d, spares, visible[i] if visible else None,
                                 d if d.startswith("cuda:") else f"{d}:{i}",
                                 shares[i] if shares else None)
                      for i, d in enumerate(devices)]
        self.step_timeout_s = step_timeout_s
        self._free = collections.deque(self.hosts)
        self._waiters: collections.deque = collections.deque()
        self._lock = threading.Lock()

    def start(self, background: bool = True) -> None:
        """Start every host (each imports torch: seconds), in the background by default."""
        def start_one(host: WorkerHost) -> None:
            with host.lock:
                if host.proc is None:
                    try:
                        host.start()
                    except Exception as exc:  # surfaced again on first use
                        print(f"kernel_env: worker {host.device} failed to start: {exc}", file=sys.stderr)
        threads = [threading.Thread(target=start_one, args=(h,), daemon=True) for h in self.hosts]
        for t in threads:
            t.start()
        if not background:
            for t in threads:
                t.join()

    def evaluate(self, req: EvalRequest, departure: Departure | None = None) -> EvalResult:
        """`departure`: the step's client (server/departure.py). If it leaves, a step still
        queued leaves the queue unevaluated, and a running one is stopped by its host: either
        way the answer's error class is `cancelled`, and the slot goes to the next step."""
        arrived = time.monotonic()
        host = self._acquire(departure)
        queued = time.monotonic() - arrived
        if host is None:
            return EvalResult(stage="static_check", error_class=CANCELLED, queue_seconds=round(queued, 4),
                              feedback="the step's client left while it waited for a slot; it "
                                       "was not evaluated")
        with self._lock:
            req = dataclasses.replace(req, backlog=max(req.backlog, len(self._waiters)))
        try:
            with host.lock:
                result = host.evaluate(req, self.step_timeout_s, departure)
            # set here: nothing the evaluation process says can move them
            result.worker, result.queue_seconds = host.slot, round(queued, 4)
            return result
        finally:
            self._release(host)

    def status(self) -> dict:
        """Each slot: evaluating a step or free, its worker host running; and the steps waiting
        for a slot (GET /status)."""
        with self._lock:
            free, queued = {id(h) for h in self._free}, len(self._waiters)
        slots = []
        for host in self.hosts:
            proc = host.proc  # (read once: a restart may swap it meanwhile)
            slots.append({"slot": host.slot, "busy": id(host) not in free,
                          "up": proc is not None and proc.poll() is None and host.ready.is_set()})
        return {"slots": slots, "queued_steps": queued}

    def _acquire(self, departure: Departure | None = None) -> WorkerHost | None:
        """A free host, waiting in FIFO order; None if the step's client leaves first."""
        with self._lock:
            if self._free and not self._waiters:
                return self._free.popleft()
            waiter = [threading.Event(), None]
            self._waiters.append(waiter)
        forget = departure.on_leave(waiter[0].set) if departure is not None else None
        try:
            waiter[0].wait()
        finally:
            if forget is not None:
                forget()
        with self._lock:
            if waiter[1] is None:  # woken by the departure, still queued: it leaves the queue
                self._waiters.remove(waiter)
                return None
        if departure is not None and departure.gone:  # handed a host as its client left
            self._release(waiter[1])
            return None
        return waiter[1]

    def _release(self, host: WorkerHost) -> None:
        with self._lock:
            if self._waiters:
                waiter = self._waiters.popleft()
                waiter[1] = host
                waiter[0].set()
            else:
                self._free.append(host)

    def shutdown(self) -> None:
        for host in self.hosts:
            host.stop()
