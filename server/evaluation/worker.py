"""The worker host: one warm process per evaluation slot (one per GPU), forking per evaluation.

`python -m server.evaluation.worker --device cuda:0` imports torch and triton once (~5 s) but
never initialises CUDA; each evaluation runs in a child forked from it, which creates its own
CUDA context (~0.25 s) and exits when done. Spare children (`--spares`) are kept warming ahead
of the steps (their context, the evaluator's own kernels), stopped while anything is timed
(`Host._run`). So nothing an evaluation does - patched torch, stray
threads, a corrupted CUDA context, leaked memory, files in its scratch directory - outlives it.

The host enforces each stage's time limit and a memory limit, and turns a child that dies or hangs
into a classified result. Requests and results are JSON lines on stdin/stdout; a child's own
stdout/stderr go to a capped log file in its scratch directory, never to the host's stdout.
The reference's eager timing and roofline counts are profiled in a separate child, on trusted code
only, and cached here per (task, reference source, device).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import subprocess
import sys
import time
import traceback

from . import children, confinement
from .children import STARTUP, ChildOutcome, Spare, describe_death
from .protocol import EvalRequest, EvalResult
from .stages import CANCELLED, STATIC_CHECK

class Host:
    """The long-lived worker process's state: its device, its spare children, the profile cache."""

    def __init__(self, device: str, spares: int = 1, cancel: children.CancelPipe | None = None):
        self.device = device
        self.profiles: dict[str, dict] = {}
        self.count = max(1, spares)
        self.spares: list[Spare] = []  # the next steps' processes, the oldest first
        self.cancel = cancel  # the jobs whose clients left (pool.WorkerHost's cancel pipe)

    def _fork_spares(self) -> None:
        while len(self.spares) < self.count:
            self.spares.append(Spare(self.device))

    def prepare_spare(self) -> None:
        """Spare processes, warming up (the GPU may be in use, but nothing is being timed)."""
        self._fork_spares()
        for spare in self.spares:
            spare.warm()

    def _pause(self) -> None:
        for spare in self.spares:
            spare.pause()

    def _resume(self) -> None:
        for spare in self.spares:
            spare.resume()

    def _run(self, spec: dict, req: EvalRequest, cancel: children.CancelPipe | None = None) -> ChildOutcome:
        """A step's job runs in the oldest spare. The spares are paused (SIGSTOP) from the moment
        its timing stage begins until its timed calls are over, and for all of a reference's
        profile (timed throughout): on the H200 a process making its CUDA context beside a timed
        step gave that step more timing outliers (bench/results/2026-12-01-h200-s12-spare-ab.log:
        a speedup of 0.13 among 0.87 at boost clocks; competing for the host, it slows the issue
        of timed calls past the timer's lead). When steps wait for this GPU (`req.backlog`:
        sessions sharing it), the job's replacement is forked and every spare warms beside the
        step's static check, compile and correctness trials, so a step queued back to back finds
        one whose warm-up spanned earlier steps' untimed parts. Otherwise nothing competes with
        the step: the replacement is forked once the timed calls are over (it makes its context
        beside the re-checks and the report) and warms once the step is over."""
        self.prepare_spare()
        spare = self.spares.pop(0)
        profiling = spec["kind"] == "profile"

        def timed():
            self._resume()
            self._fork_spares()

        try:
            if profiling:
                self._pause()
            # processes of earlier steps still exiting: the job waits for them where their
            # memory is missing (children.await_exits), before any of its code runs
            spare.send(dict(spec, exiting=children.exiting()))
            if not profiling and req.backlog > 0:
                try:
                    self.prepare_spare()  # beside this step's untimed stages
                except OSError:
                    pass  # no fork now: tried again after the step
            return spare.watch(req.stage_timeouts, req.memory_limit_gb,
                               on_timing=self._pause, on_timed=timed, cancel=cancel)
        finally:
            self._resume()
            try:
                self.prepare_spare()  # before the answer is written: the next step may follow at once
            except OSError:
                pass  # no fork now: tried again after the answer

    def _refused_statically(self, req: EvalRequest) -> EvalResult | None:
        """Where steps wait for this GPU (`req.backlog`), the static check first, in a child
        forked from this host (no CUDA context, no spare taken, no reference profiled): a
        submission it refuses is answered in milliseconds and leaves the spare warm for the
        steps waiting (a refused step took it, and the next waited ~1 s for a new one to warm
        up). It costs a step that passes ~15-25 ms (the fork, and the check made twice): with
        no steps waiting, the spare has warmed again before the next step comes, so it is not
        asked. A check that passes, or a child that died or ran past PRECHECK_LIMIT_S, leaves
        the step to its spare, which checks again and reports as before (a check that takes
        seconds, on a large file, is not made twice while steps wait: red-team pass 79)."""
        try:
            child = children.Child(functools.partial(_static_refusal, req.to_dict()))
        except OSError:
            return None  # no fork now (process or descriptor limits): the spare checks it
        limit = min(float(req.stage_timeouts.get(STATIC_CHECK, PRECHECK_LIMIT_S)), PRECHECK_LIMIT_S)
        outcome = child.watch(STATIC_CHECK, dict(req.stage_timeouts, **{STATIC_CHECK: limit}),
                              req.memory_limit_gb)
        children.reap_now(child.pid)  # no device memory: not one for the job to wait for
        payload = outcome.payload
        if not isinstance(payload, dict) or payload.get("stage") != STATIC_CHECK:
            return None
        result = EvalResult.from_dict(payload)
        refused = result.error_class and result.error_class != "internal_error" and not result.correct
        return result if refused else None

    def close(self) -> None:
        for spare in self.spares:
            spare.discard()
        self.spares = []

    def handle(self, req: EvalRequest) -> EvalResult:
        limits = req.stage_timeouts
        key = hashlib.sha256(f"{req.task_id}\0{req.reference_source}\0{req.device}\0{req.mock}".encode()).hexdigest()
        profile = self.profiles.get(key)
        if self._cancelled():  # its client left while it was queued or sent
            return _cancelled(STATIC_CHECK, profile)
        refused = self._refused_statically(req) if req.backlog > 0 else None
        if refused is not None:
            if profile is not None:
                refused.device = profile.get("device_name", refused.device)
            return refused
        if profile is None:
            outcome = self._run({"kind": "profile", "request": req.to_dict()}, req)
            profile = outcome.payload
            if profile is None:
                if outcome.stage == STARTUP:
                    return _not_started(outcome, limits)
                error_class, feedback = describe_death(outcome, limits)
                hint = ("; the task is too large for this evaluator's limits (KernelBench's full "
                        "shapes need the gpu evaluator)" if error_class in ("timeout", "out_of_memory") else "")
                return EvalResult(stage=STATIC_CHECK, error_class="internal_error",
                                  feedback=f"profiling the reference failed ({error_class}): {feedback}{hint}")
            self.profiles[key] = profile  # (kept for the task's later steps, whoever left)
        if self._cancelled():
            return _cancelled(STATIC_CHECK, profile)
        outcome = self._run({"kind": "candidate", "request": req.to_dict(), "profile": profile}, req,
                            self.cancel)
        if outcome.payload is not None:
            from .scoring import rescore  # imports torch: only once the host is set up

            seconds = outcome.payload.get("process_seconds")
            if isinstance(seconds, dict) and type(seconds.get("reported_at")) is float:
                seconds["report"] = round(time.monotonic() - seconds.pop("reported_at"), 4)
            return rescore(req, profile, EvalResult.from_dict(outcome.payload))
        if outcome.reason == CANCELLED:
            return _cancelled(STATIC_CHECK if outcome.stage == STARTUP else outcome.stage, profile)
        if outcome.stage == STARTUP:
            return _not_started(outcome, limits)
        error_class, feedback = describe_death(outcome, limits)
        return EvalResult(stage=outcome.stage, error_class=error_class, feedback=feedback,
                          device=profile.get("device_name", ""))

    def _cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.cancelled()


def _cancelled(stage: str, profile: dict | None) -> EvalResult:
    """A step whose client left (server/departure.py): nobody reads it; the log does."""
    return EvalResult(stage=stage, error_class=CANCELLED,
                      feedback=f"the step's client left; its evaluation was stopped at '{stage}'",
                      device=(profile or {}).get("device_name", ""))


# The pre-check's own limit: a typical submission's check takes milliseconds; a slow one (a
# 256 KiB file took 6.8 s on the 2-core test host) is left to the spare's check alone.
PRECHECK_LIMIT_S = 1.0


def _static_refusal(request: dict, progress) -> dict | None:
    from .pipeline import static_refusal  # (imported already: the host's own modules)

    return static_refusal(EvalRequest.from_dict(request), progress)


def _not_started(outcome: ChildOutcome, limits: dict) -> EvalResult:
    """A step's process that failed before its job began: the evaluator's failure, not the
    submission's (none of its code has run)."""
    error_class, feedback = describe_death(outcome, dict(limits, **{STARTUP: children.STARTUP_LIMIT_S}))
    return EvalResult(stage=STATIC_CHECK, error_class="internal_error",
                      feedback=f"the evaluation process failed to start ({error_class}): {feedback}; "
                               "nothing of the submission ran: submit it again")


def prime_triton() -> None:
    """Once, before any fork, what every evaluation process's first Triton compile (its warm-up's)
    would otherwise compute for itself, each cached per process and touching no CUDA, so the
    children inherit them: the hash of Triton's own files and compiler library (it reads the
    400 MB libtriton.so whole), which keys every compile's cache lookup; ptxas's version for
    this host's GPUs (a subprocess), in the compiler's key too; where libcuda lives (ldconfig);
    the Gluon modules a launch's argument specialisation imports (0.13-0.16 s on the H200)."""
    for step in (_hash_triton, _import_gluon, _locate_libcuda, _ptxas_versions):
        try:
            step()
        except Exception:  # noqa: BLE001 (another Triton's layout, no driver, no ptxas: each
            pass  # evaluation process computes what is missing, and reports what fails, as before


def _hash_triton() -> None:
    from triton.runtime.cache import triton_key
    triton_key()


def _import_gluon() -> None:
    import triton.experimental.gluon.nvidia.hopper  # noqa: F401


def _locate_libcuda() -> None:
    from triton.backends.nvidia.driver import libcuda_dirs
    libcuda_dirs()


def _ptxas_versions() -> None:
    from triton.backends.nvidia.compiler import get_ptxas_version
    for arch in _gpu_archs():
        get_ptxas_version(arch)


def _gpu_archs() -> set[int]:
    """The compute capabilities of this host's GPUs, as Triton's targets name them (90 for
    9.0), from nvidia-smi (NVML: no CUDA context, so forking stays safe)."""
    out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                         capture_output=True, text=True, timeout=30).stdout
    return {int(cap.replace(".", "")) for cap in out.split() if cap.replace(".", "").isdigit()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu", help="cpu (Triton interpreter) or cuda:N")
    parser.add_argument("--spares", type=int, default=1,
                        help="evaluation processes kept warming ahead of the steps (KERNEL_ENV_SPARES)")
    parser.add_argument("--cpus", default="",
                        help="comma-separated CPUs this host and its evaluations run on (pool.cpu_shares)")
    parser.add_argument("--cancel-fd", type=int, default=-1,
                        help="a pipe the pool writes the numbers of cancelled jobs to (pool.WorkerHost)")
    args = parser.parse_args(argv)
    if args.cpus:  # before torch is imported: its thread pools size themselves to these
        os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
    # This process's malloc read its tunables at start (pool.MALLOC_TUNABLES) and the forked
    # evaluations inherit that state; the programs it runs (a CUDA build's compilers, which
    # allocate a lot) need not pay for perturbed memory.
    os.environ.pop("GLIBC_TUNABLES", None)
    protocol_out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # stray prints from imports must not corrupt the protocol stream
    import torch  # noqa: F401  (warm: every child inherits the imported modules)
    import triton  # noqa: F401
    from . import pipeline  # noqa: F401
    if args.device == "cpu":
        from . import front_end
        from .guard import install_interpreter_hooks
        install_interpreter_hooks()
        front_end.prime()
    else:  # the interpreter compiles nothing
        prime_triton()
    from .guard import watch_mode_pops
    watch_mode_pops()  # (after every import above: each reference to torch's binding replaced)
    from .module_globals import ModuleGlobals
    from .name_rules import prime_forbidden_objects
    prime_forbidden_objects()  # the static check's table of refused objects, once, for every child
    ModuleGlobals()  # which modules' globals are watched: their files read once, here, not per step
    unconfined = confinement.unavailable_reason() or children.confinement_works(args.device)
    if unconfined:
        children.CONFINING["on"] = False
        print(f"kernel_env worker {args.device}: evaluations' file writes are not confined: "
              f"{unconfined} (README, threat model)", file=sys.stderr)
    host = Host(args.device, args.spares,
                children.CancelPipe(args.cancel_fd) if args.cancel_fd >= 0 else None)
    host.prepare_spare()
    protocol_out.write(json.dumps({"event": "ready", "device": args.device}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            spec = json.loads(line)
            job = spec.pop("job", None) if isinstance(spec, dict) else None
            if host.cancel is not None:
                host.cancel.begin(job if type(job) is int else None)
            req = EvalRequest.from_dict(spec)
            result = host.handle(req)
        except Exception:
            result = EvalResult(stage=STATIC_CHECK, error_class="internal_error",
                                feedback="worker host failed: " + traceback.format_exc()[-1500:])
        protocol_out.write(json.dumps({"event": "result", "result": result.to_dict()}) + "\n")
        try:
            host.prepare_spare()  # after the answer: the next step finds a warm process
        except OSError:
            pass  # no fork now (process or descriptor limits): the next step tries again
    host.close()  # the server closed our input: leave no folder behind


if __name__ == "__main__":
    main()
