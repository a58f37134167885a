"""Wire types of kernel_env: the action an agent sends and the observation it gets back."""

from __future__ import annotations

from typing import Optional

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

MAX_CODE_BYTES = 256 * 1024
MAX_METADATA_VALUES = 256  # an action's metadata (keys, items and leaves): the server ignores it
LANGUAGES = ("triton", "cuda")

# observation.stage values, in pipeline order (see server/evaluation/stages.py).
STAGES = ("ready", "static_check", "compile", "correctness", "timing", "scored")


class KernelAction(Action):
    """One submission: the full source of a Python file defining `class ModelNew`."""

    code: str = Field(..., description="Python source defining class ModelNew (Triton or load_inline CUDA)")

    @field_validator("metadata")
    @classmethod
    def _small_metadata(cls, value: dict) -> dict:
        """The server ignores an action's metadata, but a queued step holds it: a message of
        millions of empty objects there held 435 MB a waiting step (red-team pass 47)."""
        if not _within(value, MAX_METADATA_VALUES):
            # not a ValueError: OpenEnv sends a validation error's context back as JSON, and an
            # exception object there ended the session instead
            raise PydanticCustomError(
                "metadata_too_large", "metadata holds more than {limit} values; the server does "
                "not read it (send {{}} or a few tags)", {"limit": MAX_METADATA_VALUES})
        return value


def _within(value, budget: int) -> bool:
    """Whether value holds at most `budget` values (keys, items and leaves), counted without
    walking past the budget."""
    left = [budget]

    def walk(v) -> bool:
        left[0] -= 1
        if left[0] < 0:
            return False
        if isinstance(v, dict):
            return all(walk(k) and walk(x) for k, x in v.items())
        if isinstance(v, (list, tuple)):
            return all(walk(x) for x in v)
        return True
    return walk(value)


def code_problem(code) -> str | None:
    """Why `code` cannot be evaluated (None if it can): checked by the server on every step, so
    the answer is a clear error and the turn is not spent."""
    if not isinstance(code, str):
        return f"code must be a string of Python source, got {type(code).__name__}"
    if not code.strip():
        return "code is empty; submit the Python source of a file defining class ModelNew"
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size > MAX_CODE_BYTES:
        return f"code is {size} bytes; the limit is {MAX_CODE_BYTES} bytes"
    if "\x00" in code:
        return "code contains NUL bytes; submit plain text Python source"
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        return "code holds a lone surrogate (not UTF-8 text); submit plain text Python source"
    return None


class KernelObservation(Observation):
    """What the agent sees after reset (stage "ready", problem set) and after each step."""

    task_id: str = ""
    split: str = ""
    language: str = "triton"
    problem: str = Field("", description="reference source and rules (set at reset)")
    turn: int = Field(0, description="submissions made so far in this episode")
    max_turns: int = 4
    counted: bool = Field(True, description="False when the evaluator itself failed "
                          "(error_class internal_error): the turn was not spent and the reward "
                          "says nothing about the submission; leave such steps out of training")
    stage: str = Field("ready", description=f"how far the submission got: one of {', '.join(STAGES)}")
    error_class: Optional[str] = Field(None, description="why it stopped (see README), None when scored")
    feedback: str = ""
    correct: bool = False
    trials_passed: int = 0
    trials_total: int = 0
    max_abs_error: Optional[float] = None
    runtime_ms: Optional[float] = None
    ref_runtime_ms: Optional[float] = None
    speedup: Optional[float] = None
    runtime_spread: Optional[float] = Field(None, description="(p75 - p25) / median of timed calls")
    timing_meaningful: bool = Field(False, description="False on the cpu and mock evaluators")
    evaluator: str = ""
    device: str = ""
    bound: Optional[str] = Field(None, description='"compute" or "memory"')
    arithmetic_intensity: Optional[float] = None
    t_min_ms: Optional[float] = None
    roofline_frac: Optional[float] = None
    ref_roofline_frac: Optional[float] = None
    roofline_gpu: Optional[str] = None
    best_reward: float = 0.0
    stage_seconds: dict = Field(default_factory=dict)


class KernelState(State):
    task_id: Optional[str] = None
    split: Optional[str] = None
    language: str = "triton"
    turn: int = 0
    max_turns: int = 4
    done: bool = False
    uncounted: int = 0  # steps the evaluator failed (internal_error), not spent as turns
    best_reward: float = 0.0
