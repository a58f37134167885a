"""Reward for a scored submission: 0 when wrong, 0.3 for correct, more for fast.

Both modes share the scale: 0.3 for a correct kernel at eager speed (speedup mode) or far from the
floor (roofline mode), up to 3.3 / 3.0 at the top, so a wrong-but-fast kernel never outscores a
correct one and the correctness bonus is not drowned out by speed.
"""

from __future__ import annotations

import math

REWARD_MODES = ("speedup", "roofline")
CORRECT_BONUS = 0.3
SPEEDUP_LOG2_RANGE = (-0.2, 3.0)  # a slowdown costs at most 0.2; gains stop counting at 8x
ROOFLINE_SCALE = 2.7


def speedup_reward(speedup: float) -> float:
    """0.3 + clamp(log2(speedup), -0.2, 3.0): log so that 2x and 4x are equal steps."""
    low, high = SPEEDUP_LOG2_RANGE
    if speedup is None or math.isnan(speedup):
        speedup = 1.0
    log2 = math.log2(speedup) if speedup > 0 else -math.inf
    return CORRECT_BONUS + min(max(log2, low), high)


def roofline_reward(t_min_ms: float, runtime_ms: float) -> float:
    """0.3 + 2.7 * min(t_min / runtime, 1): linear in the fraction of the roofline reached.
    A missing, non-positive or NaN figure earns the bare 0.3 (a NaN passed `<= 0`, and a NaN
    reward poisons a trainer's loss)."""
    if t_min_ms is None or runtime_ms is None or not runtime_ms > 0 or not t_min_ms > 0:
        return CORRECT_BONUS
    return CORRECT_BONUS + ROOFLINE_SCALE * min(t_min_ms / runtime_ms, 1.0)


def compute_reward(
    mode: str,
    correct: bool,
    *,
    speedup: float | None,
    t_min_ms: float | None,
    runtime_ms: float | None,
) -> float:
    """The step reward. A correct submission missing its timing figure earns the bare 0.3."""
    if mode not in REWARD_MODES:
        raise ValueError(f"unknown reward mode {mode!r}; valid modes: {', '.join(REWARD_MODES)}")
    if not correct:
        return 0.0
    if mode == "speedup":
        return speedup_reward(1.0 if speedup is None else speedup)
    return roofline_reward(t_min_ms, runtime_ms)
