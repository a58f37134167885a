"""The evaluation pipeline's stages and failure classes, written once.

The stage names are the values of `observation.stage`: how far a submission got. A stage either
returns its typed result or raises `StageFailure` carrying the stage name, one error class from
`ERROR_CLASSES` and the feedback shown to the agent.
"""

from __future__ import annotations

READY = "ready"  # after reset, before any submission
STATIC_CHECK = "static_check"
COMPILE = "compile"
CORRECTNESS = "correctness"
TIMING = "timing"
SCORED = "scored"
# Not a stage: reported once a candidate's timed calls are over (what follows them, the re-checks
# and kernel provenance, times nothing), so the host may fork the next step's process then.
TIMED = "timed"

# Order matters: a submission that stops at stage k passed every stage before k.
PIPELINE = (STATIC_CHECK, COMPILE, CORRECTNESS, TIMING, SCORED)
STAGES = (READY,) + PIPELINE

ERROR_CLASSES = {
    "syntax_error": "the source does not parse",
    "format_violation": "the source breaks a submission rule (static check)",
    "needs_gpu": "CUDA submissions need the gpu evaluator",
    "compile_error": "loading the module, building ModelNew or compiling a kernel failed",
    "narrow_precision": "a kernel computes in 8-bit or narrower formats (fp8, int8 dot products)",
    "forbidden_op": "the dispatch guard saw a forbidden torch operation inside forward",
    "foreign_kernel": "the GPU ran kernels that are neither the submission's own nor layout copies",
    "runtime_error": "forward raised an exception",
    "not_a_tensor": "forward returned something that is not a plain tensor",
    "shape_mismatch": "output shape differs from the reference",
    "dtype_mismatch": "output dtype differs from the reference",
    "non_finite": "output holds NaN or Inf",
    "output_mismatch": "output values differ from the reference beyond the tolerance",
    "normalization": "output breaks the task's normalisation property",
    "input_mutated": "forward wrote into its inputs",
    "nondeterministic": "two runs on the same input disagree",
    "tampering": "the submission altered torch or the evaluator",
    "impossible_timing": "runtime below the physical roofline floor",
    "timeout": "a stage ran past its time limit",
    "crash": "the evaluation process died (os._exit, segfault, abort)",
    "out_of_memory": "the evaluation ran out of host or device memory",
    "internal_error": "the evaluator itself failed (not the submission's fault)",
    "cancelled": "the step's client left, so its evaluation was stopped (logged, never read)",
}
CANCELLED = "cancelled"  # (server/departure.py)


class StageFailure(Exception):
    """Raised by a stage; the pipeline turns it into the step's stage, error class and feedback."""

    def __init__(self, stage: str, error_class: str, feedback: str):
        assert stage in PIPELINE and error_class in ERROR_CLASSES, (stage, error_class)
        super().__init__(feedback)
        self.stage = stage
        self.error_class = error_class
        self.feedback = feedback
