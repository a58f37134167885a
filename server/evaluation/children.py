"""Evaluation processes: forked from the warm worker host, watched, and always reaped.

A child isolates itself (own process group, dies with its host, inherited descriptors closed,
output to a capped log in its scratch directory), runs one job and reports JSON lines on a pipe.
The host side enforces each stage's time limit and a memory limit and turns a child that dies or
hangs into an error class and feedback.
"""

from __future__ import annotations

import faulthandler
import hashlib
import json
import os
import re
import resource
import secrets
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback

from . import confinement
from .feedback import type_name, without_suggestions
from .protocol import EvalRequest
from .stages import CANCELLED, CORRECTNESS, TIMED, TIMING

CHILD_LOG_BYTES = 256 * 1024 * 1024  # RLIMIT_FSIZE: a flood of prints fails writes, not the host
POLL_S = 0.05
LOG_TAIL_CHARS = 64 * 1024


class CancelPipe:
    """The job numbers the pool has cancelled (their clients left), read from a pipe whose write
    end the pool holds (pool.WorkerHost): the host's current job is stopped once its number, or
    a later one, has come. Numbers only grow, so a cancel that came too late for its own job
    cannot stop the next."""

    def __init__(self, fd: int):
        self.fd, self.job, self.latest, self.open = fd, None, -1, True
        self._buffer = b""
        os.set_blocking(fd, False)

    def begin(self, job: int | None) -> None:
        """The job now run (None: one that no cancel can name)."""
        self.job = job

    def cancelled(self) -> bool:
        self._read()
        return self.job is not None and self.latest >= self.job

    def _read(self) -> None:
        while self.open:
            try:
                chunk = os.read(self.fd, 4096)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:  # the pool is gone: nothing more will come (and select would spin)
                self.open = False
                break
            self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            if line.strip().isdigit():
                self.latest = max(self.latest, int(line))


class ChildOutcome:
    def __init__(self, messages, stage, status, reason, log_tail):
        self.messages, self.stage, self.status, self.reason, self.log_tail = (
            messages, stage, status, reason, log_tail)

    @property
    def payload(self):
        return next((m["payload"] for m in self.messages if m.get("event") == "done"), None)


def _die_with_parent() -> None:
    """If the host is killed (server shutdown), its evaluations must not run on as orphans."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the host still kills the process group when it can


def _close_inherited_fds(keep: tuple) -> None:
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


class _CappedText:
    """A text stream that keeps the first PRINT_CAP characters and drops the rest, so that a
    submission printing in a hot loop is slowed by nothing and fails on nothing."""

    PRINT_CAP = 4 * 1024 * 1024

    def __init__(self, stream):
        self.stream, self.written = stream, 0

    def write(self, text: str) -> int:
        if self.written < self.PRINT_CAP:
            self.stream.write(text[: self.PRINT_CAP - self.written])
        self.written += len(text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _child_main(job, write_fd: int, workdir: str, keep: tuple = (), token: str = "",
                confine: bool = True) -> None:
    """Runs in the forked child: isolate, run the job, report, and leave without cleanup."""
    os.setpgrp()  # the host can kill everything this evaluation starts
    _die_with_parent()
    _close_inherited_fds(keep=(write_fd, *keep))  # e.g. the host's protocol stream: not forgeable
    log = os.open(os.path.join(workdir, "output.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (CHILD_LOG_BYTES, CHILD_LOG_BYTES))
    os.chdir(workdir)
    os.environ["TMPDIR"] = workdir
    tempfile.tempdir = workdir  # else tempfile's default stays the host's folder, cached before the fork
    os.environ["TORCH_EXTENSIONS_DIR"] = os.path.join(workdir, "torch_extensions")
    os.environ["USE_PYTORCH_KERNEL_CACHE"] = "0"  # torch's on-disk kernel cache: shared, and not ours
    sys.stdout = _CappedText(open(1, "w", buffering=1, closefd=False))
    sys.stderr = _CappedText(open(2, "w", buffering=1, closefd=False))
    faulthandler.enable(file=sys.stderr)  # a segfault's Python stack lands in the log tail

    def send(message: dict) -> None:
        data = (json.dumps(dict(message, token=token)) + "\n").encode()
        os.write(write_fd, data)

    def progress(stage: str) -> None:
        send({"event": "timed"} if stage == TIMED else {"event": "stage", "stage": stage})

    try:
        if confine:  # else the job confines itself (a spare: once its CUDA context exists)
            _confine_writes(workdir)
        payload = job(progress)
        send({"event": "done", "payload": payload})
    except BaseException as exc:  # the evaluator's own failure: report it, never hang the host
        send({"event": "error", "traceback": _formatted(exc)[-3000:]})
    os._exit(0)


CONFINING = {"on": True}  # off when the worker host's start-up trial (confinement_works) failed


def _confine_writes(workdir: str) -> None:
    """From here on this process writes files only in its own folder, Triton's cache (its
    compiles) and /dev (the GPU's device files): see confinement.py. A step whose language is
    "cuda" narrows this further once its job arrives (`_confine_native`)."""
    if not CONFINING["on"]:
        return
    import triton

    shared = triton.knobs.cache.dir
    os.makedirs(shared, exist_ok=True)
    confinement.confine([workdir, shared, "/dev"])


def _confine_native(workdir: str) -> None:
    """A CUDA submission's native code runs in this process: Triton's shared cache (compiled
    kernels and the launchers' shared libraries that later evaluations load) is no longer
    writable; Triton compiles what this step still needs into the evaluation's own folder."""
    import triton

    private = os.path.join(workdir, "triton_cache")
    os.makedirs(private, exist_ok=True)
    triton.knobs.cache.dir = private  # confined or not: the narrow-arithmetic check reads it
    if CONFINING["on"]:
        confinement.confine([workdir, "/dev"])


def _step_cache(workdir: str, source: str) -> None:
    """The submission's compiled kernels go to the evaluation's folder and leave with it; the
    shared cache keeps launchers and the evaluator's kernels (step_cache.py)."""
    import triton

    from . import step_cache

    step_cache.install(triton.knobs.cache.dir, os.path.join(workdir, "triton_cache"), source)


def _formatted(exc: BaseException) -> str:
    """The traceback, or, where formatting it runs code that raises (a submission's exception
    chained in as the context), the evaluator's own frames and the exception's type."""
    try:
        with without_suggestions():
            return traceback.format_exc()
    except BaseException:  # noqa: BLE001
        try:
            frames = "".join(traceback.format_list(traceback.extract_tb(exc.__traceback__)))
        except BaseException:  # noqa: BLE001
            frames = ""
        return f"Traceback (most recent call last):\n{frames}{type_name(exc)}"


class Child:
    """A forked evaluation process: its pid, the pipe it reports on, its scratch directory."""

    def __init__(self, job, keep: tuple = (), confine: bool = True):
        reap_finished()
        self.workdir = tempfile.mkdtemp(prefix="kernel_env_eval_")
        # Messages without this token are ignored: code that finds the pipe still has to find
        # a secret that lives only in the evaluator's closures to forge a report.
        self.token = secrets.token_hex(16)
        read_fd = write_fd = -1
        try:
            read_fd, write_fd = os.pipe()
            self.pid = os.fork()
        except OSError:  # no descriptors or processes left: leave nothing behind
            for fd in (read_fd, write_fd):
                if fd >= 0:
                    os.close(fd)
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise
        if self.pid == 0:
            os.close(read_fd)
            try:
                _child_main(job, write_fd, self.workdir, keep, self.token, confine)
            finally:
                os._exit(1)
        os.close(write_fd)
        self.read_fd = read_fd

    def watch(self, first_stage: str, timeouts: dict, memory_limit_gb: float,
              on_timed=None, on_timing=None, cancel: "CancelPipe | None" = None) -> ChildOutcome:
        """Wait for the result under the limits; always reap the child and its process group.
        `on_timing()` runs when the child begins its timing stage, `on_timed()` once, when it
        reports its timed calls over; `cancel`: the child is stopped (reason `cancelled`) once
        the current job's number comes on it."""
        try:
            return _watch(self.pid, self.read_fd, first_stage, timeouts, memory_limit_gb,
                          self.workdir, self.token, on_timed, on_timing, cancel)
        finally:
            self.discard()

    def discard(self) -> None:
        os.close(self.read_fd)
        _kill_group(self.pid)
        shutil.rmtree(self.workdir, ignore_errors=True)


def confinement_works(device: str) -> str | None:
    """Try, once, in a process of its own, what a spare does: make the CUDA context, confine
    the writes, run the evaluator's kernels. None if it all worked; else what failed, and the
    worker's evaluations run unconfined (a driver that needs a write the confinement refuses
    must not turn every step into an internal error)."""
    def trial(progress):
        import torch

        from .pipeline import prewarm

        dev = torch.device(device)
        failed = _context(dev)
        if failed:
            return f"no CUDA context: {failed}"
        _confine_writes(os.getcwd())
        prewarm(dev)
        return "ok"

    limits = {STARTUP: STARTUP_LIMIT_S}
    outcome = Child(trial, confine=False).watch(STARTUP, limits, 64.0)
    if outcome.payload == "ok":
        return None
    if isinstance(outcome.payload, str):
        return outcome.payload
    errors = [m.get("traceback", "") for m in outcome.messages if m.get("event") == "error"]
    return errors[0][-600:] if errors else describe_death(outcome, limits)[1]


def run_in_child(job, first_stage: str, timeouts: dict, memory_limit_gb: float) -> ChildOutcome:
    """Fork, run `job(progress)` in the child, watch it; always reap it and its process group."""
    return Child(job).watch(first_stage, timeouts, memory_limit_gb)


class Spare(Child):
    """A child forked ahead of its job, in two phases: at once it creates its CUDA context
    (launching nothing); told `warm()`, it runs the evaluator's own kernels once (CUDA loads
    them lazily, per process). Then it reads one job spec on its pipe and runs it; a candidate's
    job waits there again, once its timing stage begins, until the host answers that the other
    spares are paused (`pause()`: SIGSTOP) and nothing of theirs runs beside its timed calls."""

    def __init__(self, device: str):
        job_r, job_w = os.pipe()
        forked = time.monotonic()
        try:
            super().__init__(lambda progress: _await_job(job_r, device, forked, progress), keep=(job_r,),
                             confine=False)
        except OSError:
            os.close(job_w)
            raise
        finally:
            os.close(job_r)
        self.job_w = job_w
        self.warming = False
        self.paused = False

    def warm(self) -> None:
        """Run the evaluator's kernels now (the second phase)."""
        if not self.warming:
            self.warming = True
            self._write(WARM_LINE)

    def send(self, spec: dict) -> None:
        """Hand over the job (warming first if not told yet); the pipe stays open for `go()`.
        The spec goes in a file and a line says it is there: a spec over the pipe's 64 KiB
        (a large submission) blocked here until the spare, still warming, read it, before any
        limit ran."""
        self.warm()
        data = json.dumps(dict(spec, sent_at=time.monotonic())).encode()
        with open(os.path.join(self.workdir, JOB_FILE), "wb") as f:
            f.write(data)
        self._write(JOB_LINE + hashlib.sha256(data).hexdigest().encode() + b"\n")

    def go(self) -> None:
        """Let the job's timing stage begin."""
        self._write(GO_LINE)

    def watch(self, timeouts: dict, memory_limit_gb: float,
              on_timed=None, on_timing=None, cancel: "CancelPipe | None" = None) -> ChildOutcome:
        """As Child.watch, from STARTUP: the job's first stage is timed from when the child
        announces it, its warm-up over."""
        def timing():
            try:
                if on_timing is not None:
                    on_timing()
            finally:
                self.go()
        limits = dict(timeouts, **{STARTUP: STARTUP_LIMIT_S})
        return super().watch(STARTUP, limits, memory_limit_gb, on_timed, timing, cancel)

    def pause(self) -> None:
        """Stop the process (SIGSTOP) and wait until it has stopped (up to PAUSE_WAIT_S: one
        inside a driver call stops when the call returns): it runs nothing, on the host or the
        GPU, until `resume()`. (Work it queued on the GPU before finishes first: the
        evaluator's own few-µs kernels at most.)"""
        if self.paused:
            return
        self.paused = True
        try:
            os.kill(self.pid, signal.SIGSTOP)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + PAUSE_WAIT_S
        while _state(self.pid) not in STOPPED_OR_GONE and time.monotonic() < deadline:
            time.sleep(0.0002)

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            try:
                os.kill(self.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass

    def _write(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.job_w, view):]
        except OSError:
            pass  # it died (while warming up, say): watch() reports how

    def _close_pipe(self) -> None:
        try:
            os.close(self.job_w)
        except OSError:
            pass
        self.job_w = -1

    def discard(self) -> None:
        if self.job_w >= 0:
            self._close_pipe()
        super().discard()


PAUSE_WAIT_S = 0.5
# A spare's own start before it reads its job (its CUDA context, the evaluator's warm-up): no
# stage of the submission's, and nothing of the submission has run yet. A step sent to a spare
# still warming (steps back to back) once spent that time inside its static check's 10 s limit,
# and on a loaded host an honest submission failed there; the job's stages are timed from when
# the child announces the first, and a start past this limit is the evaluator's failure.
STARTUP = "startup"
STARTUP_LIMIT_S = 120.0
STOPPED_OR_GONE = frozenset({"T", "t", "Z", "X", ""})


def _state(pid: int) -> str:
    """The process's state letter in /proc ("" when it is gone or there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return ""


WARM_LINE = b"warm\n"
JOB_LINE = b"job "  # and the spec file's SHA-256: a file another process rewrote is refused
JOB_FILE = ".job.json"  # in the evaluation's folder; removed once read, before the job runs
GO_LINE = b"go\n"


def _await_job(job_r: int, device: str, forked: float, progress):
    """In a spare child: create the CUDA context, warm the evaluator's kernels when told, then
    read and run the job. A candidate's result says what each phase took, how long the job
    waited for them (a step sent before its spare was ready: steps queued back to back) and how
    long its delivery took."""
    import torch

    from .pipeline import evaluate_candidate, profile_reference

    dev = torch.device(device)
    failed = _context(dev)  # creates the context; launches nothing
    if not failed:  # the driver's first use of the device needs what a confined process may not
        _confine_writes(os.getcwd())  # (on the H200 host: error 304, "OS call failed")
    context_s = time.monotonic() - forked  # CLOCK_MONOTONIC: one clock for all processes
    with os.fdopen(job_r, "rb") as pipe:
        if pipe.readline() != WARM_LINE:  # Spare.send warms first
            raise RuntimeError("the worker host broke the spare's protocol")
        told = time.monotonic()
        unwarmed = None if failed else _warm(dev)
        ready = time.monotonic()
        notice = pipe.readline()
        if not notice.startswith(JOB_LINE):
            raise RuntimeError("the worker host broke the spare's protocol")
        with open(JOB_FILE, "rb") as f:  # the child's working directory is the evaluation's folder
            data = f.read()
        os.unlink(JOB_FILE)
        if hashlib.sha256(data).hexdigest().encode() != notice[len(JOB_LINE):].strip():
            raise RuntimeError("the job's spec file is not the one the worker host wrote")
        spec = json.loads(data)
        if not failed and dev.type == "cuda" and spec.get("exiting"):
            await_exits([int(pid) for pid in spec["exiting"]], lambda: _free_share(dev))
        if failed:  # the step before this one is over now: its memory is being given back
            _context_again(dev, failed)
            _confine_writes(os.getcwd())
            _warm_again(dev, None)
            ready = time.monotonic()
        elif unwarmed is not None:  # the same, for memory its warm-up found missing
            _warm_again(dev, unwarmed)
            ready = time.monotonic()

        def paced(stage: str) -> None:
            progress(stage)
            if stage == TIMING:  # begin once the host has paused the other spares
                pipe.readline()  # (at its end, "": the host is gone and so is the step)

        req = EvalRequest.from_dict(spec["request"])
        if req.language == "cuda":
            _confine_native(os.getcwd())
        elif spec["kind"] != "profile":
            _step_cache(os.getcwd(), req.code)
        if spec["kind"] == "profile":
            progress(CORRECTNESS)
            return profile_reference(req, os.getcwd())
        begun = time.monotonic()
        result = evaluate_candidate(req, spec["profile"], os.getcwd(), paced)
    sent = float(spec.get("sent_at", ready))
    result.process_seconds = {
        "context": round(context_s, 4), "prewarm": round(ready - told, 4),
        "wait": round(max(0.0, ready - sent), 4),  # the job arrived before the warm-up was done
        "handover": round(begun - max(ready, sent), 4),  # the job's delivery, once ready
        "reported_at": time.monotonic(),  # the host turns it into "report": delivering the answer
    }
    return result.to_dict()


# A spare forked beside a step whose submission holds nearly all GPU memory cannot create its
# context then (CUDA error: out of memory); its job is sent only once that step is over, and
# the context is tried again until that step's process has given the memory back.
CONTEXT_RETRY_S = 20.0


def _context(dev) -> BaseException | None:
    """Create the device's CUDA context; the error if it cannot be created now."""
    if dev.type != "cuda":
        return None
    import torch

    try:
        torch.cuda.synchronize(dev)
    except RuntimeError as exc:  # torch.AcceleratorError is one
        return exc
    return None


def _warm(dev) -> BaseException | None:
    """Warm the evaluator's kernels (pipeline.prewarm); the error if that cannot be done now. A
    spare forked beside a step whose submission holds nearly all GPU memory can make its context
    and then find no memory for its warm-up (on the H200, after a kernel that allocated 139 GiB:
    the next step failed to start, internal_error). It warms again once that step is over."""
    from .pipeline import prewarm

    try:
        prewarm(dev)
    except RuntimeError as exc:  # torch.OutOfMemoryError and torch.AcceleratorError are ones
        return exc.with_traceback(None)  # (its frames would hold the warm-up's tensors)
    return None


def _warm_again(dev, first: BaseException | None) -> None:
    """Warm up until it works (the earlier step's memory is being given back), for as long as
    a context is retried; past that, the evaluator's failure, with the first error."""
    deadline = time.monotonic() + CONTEXT_RETRY_S
    while True:
        if dev.type == "cuda":
            import torch

            torch.cuda.empty_cache()  # what the failed attempt had cached
        error = _warm(dev)
        if error is None:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the evaluator's warm-up failed on {dev} for {CONTEXT_RETRY_S:.0f} s "
                               f"after the job arrived: {first or error}"
                               + (f"; last: {_first_line(error)}, {_free_memory(dev)}"
                                  if first is not None else ""))
        time.sleep(0.1)


def _free_share(dev) -> float:
    import torch

    free, total = torch.cuda.mem_get_info(dev)
    return free / total


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def _free_memory(dev) -> str:
    """The device's free memory as the driver tells it (a warm-up that never succeeds: was the
    memory given back?)."""
    if dev.type != "cuda":
        return "not a GPU"
    import torch

    try:
        free, total = torch.cuda.mem_get_info(dev)
    except RuntimeError as exc:
        return f"free memory unknown ({_first_line(exc)})"
    return f"{free / 2**30:.1f} of {total / 2**30:.1f} GiB free"


def _context_again(dev, first: BaseException) -> None:
    deadline = time.monotonic() + CONTEXT_RETRY_S
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if _context(dev) is None:
            return
    raise RuntimeError(f"no CUDA context on {dev} within {CONTEXT_RETRY_S:.0f} s of the job: "
                       f"{first}")


def _parse(line: bytes, token: str) -> dict | None:
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    return msg if isinstance(msg, dict) and msg.get("token") == token else None


def _watch(pid, read_fd, stage, timeouts, memory_limit_gb, workdir, token,
           on_timed=None, on_timing=None, cancel: "CancelPipe | None" = None) -> ChildOutcome:
    messages, buffer = [], b""
    deadline = time.monotonic() + float(timeouts.get(stage, 60))
    limit_bytes = memory_limit_gb * (1 << 30)
    eof = False
    while True:
        watched = [read_fd] + ([cancel.fd] if cancel is not None and cancel.open else [])
        ready, _, _ = select.select(watched, [], [], POLL_S)
        if cancel is not None and cancel.fd in ready and cancel.cancelled():
            return _stop(pid, read_fd, messages, buffer, token, stage, CANCELLED, workdir)
        ready = read_fd in ready
        if ready:
            chunk = os.read(read_fd, 1 << 16)
            eof = not chunk
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                msg = _parse(line, token)
                if msg is None:
                    continue
                messages.append(msg)
                if msg.get("event") == "stage":
                    stage = msg["stage"]
                    deadline = time.monotonic() + float(timeouts.get(stage, 60))
                    if stage == TIMING and on_timing is not None:
                        on_timing()
                elif msg.get("event") == "timed" and on_timed is not None:
                    on_timed, call = None, on_timed
                    try:
                        call()
                    except OSError:
                        pass  # no fork now (no processes or descriptors left): tried again later
        if any(m.get("event") in ("done", "error") for m in messages):
            # The answer is in: don't wait for the process to exit (tearing down a CUDA context
            # that held tens of GiB takes a while); discard() kills it and reaping finishes later.
            return ChildOutcome(messages, stage, None, None, _log_tail(workdir))
        done, status = os.waitpid(pid, os.WNOHANG)
        if done and (eof or not ready):
            _drain(read_fd, messages, buffer, token)
            return ChildOutcome(messages, _said(messages, stage), status, None, _log_tail(workdir))
        if time.monotonic() > deadline:
            return _stop(pid, read_fd, messages, buffer, token, stage, "timeout", workdir)
        if _rss_bytes(pid) > limit_bytes:
            return _stop(pid, read_fd, messages, buffer, token, stage, "out_of_memory", workdir)


def _said(messages: list, stage: str) -> str:
    """The last stage the child announced (what it said after the last read included: the stage
    it died in; a failed start must not be one whose submission had begun)."""
    return next((m["stage"] for m in reversed(messages) if m.get("event") == "stage"), stage)


def _drain(read_fd, messages, buffer, token) -> None:
    while True:
        ready, _, _ = select.select([read_fd], [], [], 0)
        chunk = os.read(read_fd, 1 << 16) if ready else b""
        if not chunk:
            break
        buffer += chunk
    for line in buffer.split(b"\n"):
        msg = _parse(line, token) if line.strip() else None
        if msg is not None:
            messages.append(msg)


def _stop(pid, read_fd, messages, buffer, token, stage, reason, workdir) -> ChildOutcome:
    _kill_group(pid)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    _drain(read_fd, messages, buffer, token)  # the stage whose limit ran out stays its stage,
    # unless the job had begun (announced after the last read) as the start's limit ran out
    stage = _said(messages, stage) if stage == STARTUP else stage
    return ChildOutcome(messages, stage, None, reason, _log_tail(workdir))


_unreaped: set[int] = set()  # killed children whose exit has not been collected yet


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _unreaped.add(pid)
    reap_finished()


def exiting() -> list[int]:
    """Killed children that have not exited yet: their device memory (tens of GiB at
    KernelBench's full shapes) is released only once the driver has torn their context down."""
    reap_finished()
    return sorted(_unreaped)


# A job begins only once the processes of earlier steps still exiting are gone, where the device
# lacks the memory they hold: back to back, a full-size step's process (~90 GiB on the H200)
# could still be tearing down while the next one allocated, and the shortage was charged to the
# next submission. Waited for in the job's own process, before any of its code runs (a rerun
# after the fact would give a submission a second draw), and only where less than this share
# of the device is free (a small step's exit is not waited for). Once they are gone (zombies
# included), the wait goes on while the device's free memory still rises (by more than
# SETTLE_STEP of it within SETTLE_S): a driver may hand a dead process's memory back after the
# process is gone, and on an 80 GB H100 a full-size step has no room to spare (session 39).
EXIT_WAIT_BELOW = 0.5
EXIT_WAIT_S = 30.0
SETTLE_S = 0.5
SETTLE_STEP = 0.005


def await_exits(pids: list[int], free_share, timeout_s: float = EXIT_WAIT_S) -> float:
    """Wait until the given processes have exited (gone, or zombies) and the device's free
    memory has stopped rising, when less than EXIT_WAIT_BELOW of the device is free;
    `free_share()` reads that share now. The seconds waited."""
    if not pids or free_share() >= EXIT_WAIT_BELOW:  # (gone already: their memory may still
        return 0.0                                      # be coming back)
    start = time.monotonic()
    while any(_state(pid) not in EXITED for pid in pids) and time.monotonic() - start < timeout_s:
        time.sleep(0.002)
    best, rose = free_share(), time.monotonic()
    while (best < EXIT_WAIT_BELOW and time.monotonic() - rose < SETTLE_S
           and time.monotonic() - start < timeout_s):
        time.sleep(0.01)
        now = free_share()
        if now > best + SETTLE_STEP:
            best, rose = now, time.monotonic()
    return time.monotonic() - start


EXITED = frozenset({"Z", "X", ""})


def reap_now(pid: int, wait_s: float = 1.0) -> None:
    """Collect a killed child that held no device memory (the worker host's static pre-check)
    here, so that it is never listed as exiting: a job would wait SETTLE_S for memory it never
    had. Left to reap_finished if it takes longer than `wait_s` to die."""
    deadline = time.monotonic() + wait_s
    while pid in _unreaped and time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                _unreaped.discard(pid)
        except ChildProcessError:
            _unreaped.discard(pid)
        if pid in _unreaped:
            time.sleep(0.001)


def reap_finished() -> None:
    """Collect the exit of every killed child that has finished dying (no zombies pile up)."""
    for pid in list(_unreaped):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid  # already collected
        if done:
            _unreaped.discard(pid)


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0


def _log_tail(workdir: str) -> str:
    try:
        with open(os.path.join(workdir, "output.log"), "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - LOG_TAIL_CHARS))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def describe_death(outcome: ChildOutcome, limits: dict) -> tuple[str, str]:
    """(error_class, feedback) for a child that produced no result."""
    stage = outcome.stage
    tail = _summarise_log(outcome.log_tail)
    if outcome.reason == "timeout":
        return "timeout", f"stage '{stage}' ran past its {limits.get(stage)} s limit and was killed{tail}"
    if outcome.reason == "out_of_memory":
        return "out_of_memory", f"the evaluation exceeded the host memory limit during '{stage}' and was killed{tail}"
    errors = [m for m in outcome.messages if m.get("event") == "error"]
    if errors:
        return "internal_error", "the evaluator failed: " + errors[-1]["traceback"][-1500:]
    status = outcome.status or 0
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        if sig == "SIGKILL":
            return "out_of_memory", f"the process was killed (SIGKILL) during '{stage}', most likely by the system's out-of-memory killer{tail}"
        return "crash", f"the process died with {sig} during '{stage}' (e.g. an invalid memory access in a kernel or extension){tail}"
    code = os.WEXITSTATUS(status)
    return "crash", (f"the process exited (code {code}) during '{stage}' before reporting a result; "
                     f"do not call os._exit/sys.exit or kill the process{tail}")


def _summarise_log(log: str) -> str:
    """A fatal error's own frames in the submission, else the last lines the process printed."""
    log = log.strip()
    if not log:
        return ""
    fatal = log.rfind("Fatal Python error")
    if fatal >= 0:
        lines = log[fatal:].splitlines()
        own = [re.sub(r'"[^"]*/submission.py"', "submission.py", line.strip())
               for line in lines if "submission.py" in line][:5]
        return "\n" + "\n".join([lines[0]] + own)
    return f"\nlast output:\n{log[-600:]}"
