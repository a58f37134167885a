"""What crosses the process boundary: one evaluation request in, one result out (JSON-safe)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

DEFAULT_STAGE_TIMEOUTS = {
    # Seconds per stage. compile covers a CUDA load_inline build (~30 s on an H200, longer cold);
    # correctness covers Triton's first-launch compile and the CPU interpreter.
    "static_check": 10.0,
    "compile": 300.0,
    "correctness": 180.0,
    "timing": 120.0,
}


@dataclass
class EvalRequest:
    code: str
    reference_source: str
    task_id: str | None = None
    language: str = "triton"
    device: str = "cpu"  # "cpu" (Triton interpreter) or "cuda:N"
    trials: int = 5
    atol: float = 1e-2
    rtol: float = 1e-2
    reward_mode: str = "speedup"
    roofline_reject: float = 0.8
    nominal_gpu: str = "H100 SXM"
    # drawn per evaluation by the server: the reference profile's inputs (a step's trials and
    # timed calls draw secret seeds of their own in the worker: red-team pass 57)
    input_seed: int = 0
    stage_timeouts: dict = field(default_factory=lambda: dict(DEFAULT_STAGE_TIMEOUTS))
    memory_limit_gb: float = 16.0
    mock: bool = False  # the mock evaluator: static checks only, fake timings
    provenance: str = "all"  # record device kernels of "all" submissions, "cuda" ones only, or "off"
    measure_guard_overhead: bool = False  # benchmarks only: also time forward without the guard
    # steps waiting for a worker when this one was sent (the pool's): the host then warms the
    # next steps' processes beside this step's untimed stages rather than after it
    backlog: int = 0

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "EvalRequest":
        return cls(**data)


@dataclass
class EvalResult:
    stage: str  # how far it got: the failing stage, or "scored"
    error_class: str | None = None
    feedback: str = ""
    correct: bool = False
    reward: float = 0.0
    trials_passed: int = 0
    trials_total: int = 0
    max_abs_error: float | None = None
    runtime_ms: float | None = None
    ref_runtime_ms: float | None = None
    speedup: float | None = None
    runtime_spread: float | None = None  # (p75 - p25) / median of the timed trials
    timing_meaningful: bool = False
    issue_ms: float | None = None  # host time to issue one timed call; beyond the timer's lead
    # (twice a warm-up call's, 0.1-1 ms) the GPU waited for the host, and that wait is in runtime_ms
    device: str = ""
    # The reference's GPU work alone (the profile's; gpu only): a launch-bound reference's
    # ref_runtime_ms is mostly its host's, and a trainer may want the device's side too
    ref_device_ms: float | None = None
    roofline: dict | None = None
    stage_seconds: dict = field(default_factory=dict)
    candidate_seconds: float = 0.0  # host time inside the candidate's forward calls
    defence_seconds: float = 0.0  # anti-gaming checks: re-runs, input/integrity/timed-output checks, provenance
    defence_breakdown: dict = field(default_factory=dict)  # defence_seconds by kind of check
    guard_overhead: float | None = None  # (guarded - unguarded) / unguarded median, if measured
    kernels_seen: list = field(default_factory=list)  # device kernels recorded (provenance on)
    provenance_seconds: float | None = None  # the recordings' own cost (provenance on)
    # The evaluation process's costs outside the stages: its warm-up before the job arrived (its
    # CUDA "context", the evaluator's kernels: "prewarm"), the step's "wait" for that warm-up,
    # the job's "handover" and the answer's "report" back to the worker host.
    process_seconds: dict = field(default_factory=dict)
    # Diagnostics of the timed loop (why one evaluation's speedup may differ from another's):
    # the SM clock before and after the trials, the trials charged a settle tail's excess and
    # the trials' median tail (against its limit), and the reference's clock when it was profiled.
    timing_detail: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    worker: str = ""  # the pool's slot that ran the step ("cuda:1", "cpu:0"); set by the pool
    queue_seconds: float = 0.0  # how long the step waited for that slot; set by the pool

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "EvalResult":
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})
