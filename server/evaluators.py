"""Evaluators: what turns a submission into an EvalResult.

- `WorkerEvaluator` (KERNEL_ENV_EVALUATOR=gpu or cpu): the full pipeline in the worker pool, one
  slot per GPU, or Triton's interpreter on CPU tensors.
- `MockEvaluator` (mock): real static checks and roofline, fake timings, marked as such.

Direct use: `CpuEvaluator().evaluate(code, reference_source, task_id="level1/19_ReLU")`. Pass the
task id: the special correctness inputs and checks are selected by it.
"""

from __future__ import annotations

import secrets

from server.departure import Departure
from server.evaluation.children import STARTUP_LIMIT_S
from server.evaluation.protocol import EvalRequest, EvalResult
from server.pool import WorkerPool


class Evaluator:
    name = "base"

    def __init__(self, *, reward_mode: str = "speedup", roofline_reject: float = 0.8,
                 nominal_gpu: str = "H100 SXM", stage_timeouts: dict | None = None,
                 memory_limit_gb: float = 16.0, trials: int = 5, atol: float = 1e-2, rtol: float = 1e-2,
                 provenance: str = "all"):
        self.defaults = dict(reward_mode=reward_mode, roofline_reject=roofline_reject,
                             nominal_gpu=nominal_gpu, memory_limit_gb=memory_limit_gb,
                             trials=trials, atol=atol, rtol=rtol, provenance=provenance)
        if stage_timeouts:
            self.defaults["stage_timeouts"] = dict(stage_timeouts)

    def request(self, code: str, reference_source: str, task_id: str | None, language: str) -> EvalRequest:
        return EvalRequest(code=code, reference_source=reference_source, task_id=task_id,
                           language=language, input_seed=secrets.randbelow(2**31 - 10_000),
                           **self.defaults)

    def evaluate(self, code: str, reference_source: str, task_id: str | None = None,
                 language: str = "triton", departure: Departure | None = None) -> EvalResult:
        """`departure`: the step's client (server/departure.py): if it leaves, the evaluation
        stops early with error class `cancelled`."""
        raise NotImplementedError

    def start(self) -> None:
        """Warm up ahead of the first step (no-op by default)."""

    def close(self) -> None:
        """Release workers (no-op by default)."""


class WorkerEvaluator(Evaluator):
    """The real pipeline, run in the worker pool's subprocesses."""

    def __init__(self, devices: list[str], *, step_timeout_s: float | None = None, spares: int = 1,
                 visible: tuple[str, ...] | None = None, **kwargs):
        super().__init__(**kwargs)
        self.name = "gpu" if devices[0].startswith("cuda") else "cpu"
        limits = self.defaults.get("stage_timeouts") or EvalRequest("", "").stage_timeouts
        # a step's two processes (the reference's profile, the candidate's): each starts, then
        # runs its stages under their limits
        bound = 2 * (STARTUP_LIMIT_S + sum(limits.values())) + 120
        self.pool = WorkerPool(devices, step_timeout_s or bound, spares, visible)

    def start(self) -> None:
        self.pool.start()

    def evaluate(self, code, reference_source, task_id=None, language="triton",
                 departure=None) -> EvalResult:
        return self.pool.evaluate(self.request(code, reference_source, task_id, language), departure)

    def close(self) -> None:
        self.pool.shutdown()


def CpuEvaluator(workers: int = 1, **kwargs) -> WorkerEvaluator:
    """Triton kernels through the interpreter on CPU tensors; timings not meaningful."""
    return WorkerEvaluator(["cpu"] * workers, **kwargs)


def GpuEvaluator(gpus: tuple[int, ...] = (0,), spares: int = 2,
                 visible: tuple[str, ...] | None = None, **kwargs) -> WorkerEvaluator:
    """`spares`: evaluation processes per GPU kept warming ahead of the steps (worker.Host);
    `visible`: each GPU's CUDA_VISIBLE_DEVICES entry (config.gpu_visible; default its id)."""
    return WorkerEvaluator([f"cuda:{g}" for g in gpus], spares=spares, visible=visible, **kwargs)


class MockEvaluator(WorkerEvaluator):
    """Real static checks and the roofline of a nominal GPU; correctness not run, timings fake.
    For plumbing without a GPU; it still runs in a worker (counting FLOPs needs torch)."""

    def __init__(self, **kwargs):
        super().__init__(["cpu"], **kwargs)
        self.name = "mock"

    def request(self, code, reference_source, task_id, language) -> EvalRequest:
        req = super().request(code, reference_source, task_id, language)
        req.mock = True
        return req
