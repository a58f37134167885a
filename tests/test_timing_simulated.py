"""The GPU timer's control flow on a simulated device: one in-order stream whose kernels take
known time on a simulated host clock. Events, the spin kernel, the synchronisation and the
timer's host clock are replaced; everything else (warm-up, lead, the guard's window, the marks
and the trial rule) is the real `_time_cuda`. The real device runs the same checks in
tests/test_timing_gpu.py."""

from __future__ import annotations


import pytest
import torch

from server.evaluation import timing

KERNEL_S = 1e-3
# The host's clock is simulated too: it moves by TICK at every reading (the timer's own host
# work) and by what the test says the host spends (`busy`, a synchronisation's wait). On the
# real clock a host busy with other work (a CPU hog beside the suite) preempted the simulated
# host past the lead and failed a test in most runs; here every run is the same.
TICK = 1e-6
_clock = [0.0]


def now() -> float:
    _clock[0] += TICK
    return _clock[0]


def busy(seconds: float) -> None:
    _clock[0] += seconds


class Stream:
    """An in-order device stream: work starts when both the host has issued it and the work
    before it is done."""

    def __init__(self):
        self.free_at = 0.0

    def launch(self, seconds: float) -> None:
        self.free_at = max(now(), self.free_at) + seconds

    def mark(self) -> float:
        self.free_at = max(now(), self.free_at)
        return self.free_at

    def wait(self) -> None:
        _clock[0] = max(now(), self.free_at)


@pytest.fixture
def stream(monkeypatch):
    s = Stream()

    class Event:
        def __init__(self, enable_timing=True):
            self.at = None

        def record(self, stream=None):
            self.at = s.mark()

        def elapsed_time(self, later) -> float:
            return (later.at - self.at) * 1e3

    monkeypatch.setattr(timing, "_perf_counter", now)
    monkeypatch.setattr(timing, "_Event", Event)
    monkeypatch.setattr(timing, "_synchronize", lambda device=None: s.wait())
    monkeypatch.setattr(timing, "_spin", lambda cycles: s.launch(cycles / 1e9))
    monkeypatch.setattr(timing, "spin_cycles_per_s", lambda device: 1e9)
    monkeypatch.setattr(timing, "settle_tail_ms", lambda device, cycles: 0.005)
    monkeypatch.setattr(timing, "L2_FLUSH_BYTES", 4096)
    return s


class SlowExit:
    """A per-call hook whose exit costs host time, like the dispatch guard's."""

    def __init__(self, exit_s: float, on_exit=None):
        self.exit_s, self.on_exit = exit_s, on_exit

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        busy(self.exit_s)
        if self.on_exit:
            self.on_exit()


def time_it(call, hooks=timing.Hooks()):
    return timing._time_cuda(call, torch.device("cpu"), hooks, trials=20)


def test_a_kernel_is_timed_at_its_device_duration(stream):
    t = time_it(lambda: stream.launch(KERNEL_S))
    assert 0.95 < t.median_ms < 1.2, t


@pytest.mark.parametrize("kernel_s", [KERNEL_S, 50e-6])
def test_the_guards_exit_is_not_timed(stream, kernel_s):
    """An exit longer than the longest lead leaves the stream idle after a short kernel: the end
    event and the next mark are then as far apart on the device as on the host, which is not
    queued work."""
    exit_s = timing.LEAD_MAX_S + 0.5e-3
    t = time_it(lambda: stream.launch(kernel_s), timing.Hooks(around=lambda: SlowExit(exit_s)))
    assert 0.95 * kernel_s * 1e3 < t.median_ms < kernel_s * 1e3 + 0.1, t


def test_host_issue_time_within_the_lead_is_hidden(stream):
    def call():
        busy(0.2e-3)  # the host issues for 0.2 ms: the lead grows to cover it
        stream.launch(KERNEL_S)

    t = time_it(call)
    assert 0.35e-3 < t.lead_ms / 1e3 < 0.6e-3 and 0.95 < t.median_ms < 1.2, t


def test_the_lead_keeps_up_with_timed_calls_slower_to_issue_than_the_warm_ups(stream):
    """Timed calls' host time can exceed the warm-ups' (their hooks leave caches cold): a lead
    fitted to the warm-ups alone left the device idle inside every interval, which multiplied a
    small kernel's time in whole evaluations on the H200."""
    calls = []

    def call():
        calls.append(None)
        if len(calls) > timing.WARMUP_CALLS + 1:  # the timed calls
            busy(0.4e-3)
        stream.launch(KERNEL_S)

    t = time_it(call)
    assert 0.75e-3 < t.lead_ms / 1e3 <= timing.LEAD_MAX_S, t
    assert 0.95 < t.median_ms < 1.1, t  # not 1.4: the host's 0.4 ms overlapped the lead


def test_one_slow_timed_call_does_not_lengthen_the_lead(stream):
    """The first timed call is often slow on the host (cold caches): the lead follows the median
    of several calls, not one stall (on the H200 a first call's stall doubled a quick call's lead)."""
    calls = []

    def call():
        calls.append(None)
        if len(calls) == timing.WARMUP_CALLS + 2:  # the first timed call
            busy(0.4e-3)
        stream.launch(50e-6)

    t = time_it(call)
    assert t.lead_ms == pytest.approx(timing.LEAD_S * 1e3), t


@pytest.mark.parametrize("kernel_s, host_s, wait_s", [
    (1e-3, 0.0, 1e-3),  # as long as the call's device time
    (5e-3, 0.0, timing.TAIL_WAIT_MAX_S),  # at most 2 ms
    (20e-6, 0.0, timing.LEAD_S),  # at least the lead
    (20e-6, 0.3e-3, 0.6e-3),  # slow on the host, quick on the device: the lead (twice 0.3 ms)
])
def test_the_tail_is_calibrated_after_a_wait_as_long_as_the_calls_device_time(
        stream, monkeypatch, kernel_s, host_s, wait_s):
    """Honest tails grow with the wait (~90 µs after 3 ms against ~20 µs after 0.1 ms in some
    H200 processes): the calibration waits as a trial's synchronisation does; hooks' and the
    host's own time (fresh inputs, issuing) do not lengthen it."""
    waits = []
    monkeypatch.setattr(timing, "settle_tail_ms", lambda device, cycles: waits.append(cycles / 1e9) or 0.005)

    def call():
        busy(host_s)
        stream.launch(kernel_s)

    time_it(call, timing.Hooks(before=lambda: busy(1e-3)))  # inputs made for 1 ms each call
    assert len(waits) == 1 and waits[0] == pytest.approx(wait_s, rel=0.25, abs=30e-6), waits


def test_host_work_beyond_the_longest_lead_is_counted(stream):
    def call():
        busy(timing.LEAD_MAX_S + 2e-3)
        stream.launch(KERNEL_S)

    t = time_it(call)
    assert t.lead_ms == pytest.approx(timing.LEAD_MAX_S * 1e3) and t.median_ms > 2.8, t


def test_work_queued_after_the_end_event_is_counted(stream):
    """The call launches nothing; 1 ms of work is queued while the guard exits (as a finalizer
    run by a collection there would): it must not vanish between the marks (all but the honest
    margin, the tail limit, is charged)."""
    hooks = timing.Hooks(around=lambda: SlowExit(20e-6, on_exit=lambda: stream.launch(KERNEL_S)))
    t = time_it(lambda: None, hooks)
    assert t.median_ms > KERNEL_S * 1e3 - t.tail_limit_ms - 0.05, t
    assert t.tail_counted == t.trials, t


def test_a_slow_wake_up_is_charged_only_its_excess(stream, monkeypatch):
    """An honest trial whose host woke up late from the synchronisation: charging its whole
    interval to `settled` moved full-size speedups by 2.5 % with the share of such trials on the
    H200; only the tail's excess over the limit counts."""
    synchronize = timing._synchronize
    late = 0.08e-3  # a wake-up of 80 µs against the 50 µs limit

    def slow_wake_up(device=None):
        synchronize(device)
        busy(late)

    monkeypatch.setattr(timing, "_synchronize", slow_wake_up)
    t = time_it(lambda: stream.launch(KERNEL_S))
    assert t.tail_counted == t.trials and t.tail_ms >= late * 1e3, t
    charged = t.median_ms - KERNEL_S * 1e3
    assert 0.0 < charged < late * 1e3 - t.tail_limit_ms + 0.015, t  # ~30 µs, not the whole 80


def test_the_ramp_waits_for_the_clocks_to_stop_rising(stream, monkeypatch):
    rates = iter([0.35e9, 0.9e9, 1.7e9, 1.95e9, 1.96e9, 1.5e9])
    monkeypatch.setattr(timing, "spin_cycles_per_s", lambda device: stream.wait() or next(rates))
    rate, seconds = timing.ramped_cycles_per_s(torch.device("cpu"))
    assert rate == 1.96e9 and next(rates) == 1.5e9  # stopped at the first rise under 1 %
    assert seconds >= 4 * timing.RAMP_CYCLES / 1e9  # four ramp spins ran on the device


def test_the_ramp_is_bounded(stream, monkeypatch):
    rising = iter(1e8 * 1.1 ** i for i in range(10_000))
    monkeypatch.setattr(timing, "spin_cycles_per_s", lambda device: stream.wait() or next(rising))
    rate, seconds = timing.ramped_cycles_per_s(torch.device("cpu"))
    assert timing.RAMP_MAX_S <= seconds < timing.RAMP_MAX_S + 0.01 and rate > 1e8


@pytest.mark.parametrize("trials", [1, 20, 37])
def test_the_count_of_hooked_calls_is_known_before_the_first(stream, trials):
    """The timed-output sampler fingerprints the last timed call as it returns, so it must know
    in advance how many calls the timing makes (warm-ups included): `hooked_calls`."""
    seen = []
    timing._time_cuda(lambda: stream.launch(50e-6), torch.device("cpu"),
                      timing.Hooks(after=seen.append), trials=trials)
    assert len(seen) == timing.hooked_calls(torch.device("cuda"), trials)
    seen.clear()
    timing.time_forward(lambda: 1, torch.device("cpu"), timing.Hooks(after=seen.append))
    assert len(seen) == timing.hooked_calls(torch.device("cpu"), None)
