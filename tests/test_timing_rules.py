"""The timer's arithmetic, on stand-in events (the GPU side is tests/test_timing_gpu.py)."""

from __future__ import annotations

import pytest

from server.evaluation import timing


class StandInEvent:
    def __init__(self, at_ms: float):
        self.at_ms = at_ms

    def elapsed_time(self, later: "StandInEvent") -> float:
        return later.at_ms - self.at_ms


def trial(call_ms: float, tail_ms: float, limit_ms: float = timing.SETTLE_TAIL_MS,
          exit_ms: float = 0.0, host_gap_ms: float | None = None) -> float:
    """A call ending at call_ms, `issued` reached exit_ms later, the device settled tail_ms after
    that; the host took host_gap_ms from the end event's record to `issued`'s (exit_ms if None)."""
    start, issued = StandInEvent(0.0), StandInEvent(call_ms + exit_ms)
    gap = exit_ms if host_gap_ms is None else host_gap_ms
    ms, counted = timing._trial_ms(start, StandInEvent(call_ms), issued,
                                   StandInEvent(call_ms + exit_ms + tail_ms), gap, limit_ms)
    assert counted == (ms != call_ms)  # the diagnostics say which trials counted the tail
    return ms


def test_an_honest_call_is_timed_to_its_end_event():
    assert trial(0.004, 0.020) == 0.004  # the host's return from the synchronisation is not timed


def test_work_that_outlives_the_end_event_is_counted_beyond_the_honest_margin():
    """All of it but the limit: an honest tail lies within it, and so at most that much work
    can hide there."""
    assert trial(0.004, 2.0) == pytest.approx(2.004 - timing.SETTLE_TAIL_MS)


def test_the_guards_exit_is_not_a_tail():
    assert trial(0.004, 0.020, exit_ms=0.2) == 0.004


def test_work_queued_between_the_end_event_and_the_hosts_return_is_counted():
    """A finalizer that launched 1 ms of work while the host left the guard: the end event
    reached `issued` 1 ms later on the device though the host took 20 µs between them."""
    assert trial(0.004, 0.020, exit_ms=1.0, host_gap_ms=0.020) == pytest.approx(
        0.004 + 1.0 - 0.020 - timing.SETTLE_TAIL_MS)
    assert trial(0.004, 0.020, exit_ms=0.050, host_gap_ms=0.040) == 0.004  # launch jitter


def test_the_tail_limit_is_the_boundary():
    assert trial(0.0, timing.SETTLE_TAIL_MS) == 0.0  # exactly at the limit: still the end event
    assert trial(1.0, timing.SETTLE_TAIL_MS + 0.01) == pytest.approx(1.01)  # the excess only


def test_a_slow_hosts_calibrated_limit_keeps_its_honest_tails_out():
    assert trial(0.004, 0.080, limit_ms=0.1) == 0.004
    assert trial(0.004, 0.120, limit_ms=0.1) == pytest.approx(0.024)


def test_a_late_wake_up_is_charged_its_excess_not_the_whole_tail():
    """Charging whole intervals to `settled` moved 3 ms kernels' speedups by 2.5 % with the share
    of trials whose host woke up late (H200, session 12)."""
    assert trial(3.0, 0.060) == pytest.approx(3.010)


def test_the_trial_count_stays_within_its_bounds():
    assert timing.trials_for(1e-6) == timing.MAX_TRIALS == 100
    assert timing.trials_for(10.0) == timing.MIN_TRIALS
    assert timing.trials_for(0.005) == 80  # a 5 ms call (with its inputs' generation)
