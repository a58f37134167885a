"""The comparison's one-pass fast check against the torch formula it replaces for full-size GPU
outputs: on CPU through Triton's interpreter, on a GPU as the evaluator runs it."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from server.evaluation import correctness, fused_compare

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"


@pytest.fixture(params=["interpreter", pytest.param("cuda", marks=pytest.mark.gpu)])
def device(request):
    if request.param == "cuda":
        if INTERPRETED or not torch.cuda.is_available():
            pytest.skip("needs a CUDA GPU")
        return torch.device("cuda")
    if not INTERPRETED:
        pytest.skip("runs in the interpreter's own process (test_interpreted_checks_pass)")
    return torch.device("cpu")


def test_interpreted_checks_pass():
    """The interpreter replaces triton.language only when set before triton is imported: run
    this file's interpreter cases in a process of their own."""
    if INTERPRETED:
        pytest.skip("already interpreted")
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           __file__, "-k", "interpreter"], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, TRITON_INTERPRET="1"), timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "skipped" not in proc.stdout.splitlines()[-1]


def torch_formula(o, r, rtol):
    diff, excess = correctness._excess(o.double(), r.double(), rtol)
    return float(diff.max()), float(excess.max())


@pytest.mark.parametrize("n", [1, fused_compare.BLOCK, 3 * fused_compare.BLOCK + 17])
def test_matches_the_torch_formula(device, n):
    torch.manual_seed(n)
    r = torch.randn(n, device=device) * 10
    o = r + torch.randn(n, device=device) * 0.05
    diff, excess = fused_compare.max_diff_and_excess(o, r, 0.01)
    want_diff, want_excess = torch_formula(o, r, 0.01)
    assert math.isclose(diff, want_diff, rel_tol=1e-5, abs_tol=1e-6)
    assert math.isclose(excess, want_excess, rel_tol=1e-5, abs_tol=1e-6)


@pytest.mark.parametrize("n", [1, fused_compare.BLOCK + 3])
def test_the_same_pass_gives_the_references_peak_and_the_outputs_least_value(device, n):
    torch.manual_seed(n)
    r = torch.randn(n, device=device) * 3
    o = r + 0.25
    o[-1] = float("nan")  # NaN: no say in either
    r[0] = float("nan") if n > 1 else r[0]
    c = fused_compare.compare(o, r, 0.01)
    finite_r, finite_o = r[~r.isnan()], o[~o.isnan()]
    assert c.ref_peak == pytest.approx(float(finite_r.abs().max()) if finite_r.numel() else 0.0)
    assert c.out_min == (float(finite_o.min()) if finite_o.numel() else float("inf"))
    assert c.excess == float("inf")


def test_the_same_pass_gives_the_outputs_sum_of_squares(device):
    torch.manual_seed(7)
    o = torch.randn(3 * fused_compare.BLOCK + 11, device=device)
    o[5] = float("nan")  # no say in it
    c = fused_compare.compare(o, o.clone(), 0.01)
    finite = o[~o.isnan()]
    assert c.out_square_sum == pytest.approx(float(finite.double().square().sum()), rel=1e-6)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool, torch.uint8])
def test_bitwise_identity_in_one_pass(device, dtype):
    n = 3 * fused_compare.BLOCK + 7  # odd byte counts too (uint8, bool)
    a = (torch.rand(n, device=device) * 100).to(dtype)
    assert fused_compare.identical(a, a.clone(), one_pass=True)
    for at in (0, n // 2, n - 1):  # one bit of one element
        b = a.clone()
        b.view(torch.uint8)[at * a.element_size()] ^= 1
        assert not fused_compare.identical(a, b, one_pass=True)
        assert not fused_compare.identical(a, b)
    assert not fused_compare.identical(a, a[:-1]) and not fused_compare.identical(a, a.to(torch.int32))


def test_bitwise_identity_sees_a_written_negative_zero_and_keeps_nan(device):
    a = torch.zeros(2 * fused_compare.BLOCK, device=device)
    a[7] = float("nan")
    assert fused_compare.identical(a, a.clone(), one_pass=True)  # torch.equal: NaN != NaN
    b = a.clone()
    b[100] = -0.0
    assert not fused_compare.identical(a, b, one_pass=True) and not fused_compare.identical(a, b)


def test_identical_outputs_pass_with_zero_tolerance(device):
    r = torch.rand(5000, device=device)
    diff, excess = fused_compare.max_diff_and_excess(r.clone(), r, 0.0)
    assert diff == 0.0 and excess <= 0.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_outputs_fail_the_fast_check(device, bad):
    r = torch.rand(5000, device=device)
    o = r.clone()
    o[4321] = bad
    assert fused_compare.max_diff_and_excess(o, r, 0.01)[1] == float("inf")


def test_non_contiguous_and_half_outputs(device):
    r = torch.rand(64, 96, device=device).t()
    o = r + 0.5
    assert math.isclose(fused_compare.max_diff_and_excess(o, r, 0.0)[0], 0.5, rel_tol=1e-6)
    rh = torch.rand(3000, device=device).to(torch.bfloat16)
    assert fused_compare.max_diff_and_excess(rh.clone(), rh, 0.0) == (0.0, 0.0)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_full_size_comparison_takes_the_fused_path_and_keeps_its_verdicts():
    n = correctness.WIDE_MAX_ELEMENTS + 5
    r = torch.rand(n, device="cuda")
    o = r * (1 + 1e-3)
    assert correctness.check_output(o, r, atol=1e-2, rtol=1e-2) < 2e-3
    o[n - 1] = r[n - 1] + 1.0
    with pytest.raises(correctness.StageFailure) as failure:
        correctness.check_output(o, r, atol=1e-2, rtol=1e-2)
    assert failure.value.error_class == "output_mismatch"
    o[n - 1] = r[n - 1] = float("inf")  # equal infinities match (exact rule, after the fast check)
    correctness.check_output(o, r, atol=1e-2, rtol=1e-2)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_full_size_normalised_checks_use_the_passs_peak_and_least_value():
    """Softmax: the tolerance from the reference's peak, the sign check from the output's least
    value, both out of the comparison's pass; verdicts as with their own passes."""
    rows, cols = 64, correctness.WIDE_MAX_ELEMENTS // 64 + 1
    x = torch.rand(rows, cols, device="cuda")
    x[3, 5] = -float("inf")
    r = torch.softmax(x, dim=-1)  # r[3, 5] is exactly zero
    correctness.check_output(r.clone(), r, atol=1e-2, rtol=1e-2, task_id="level1/23_Softmax")
    o = r.clone()
    o[3, 5] = -1e-12  # within the peak-scaled tolerance (~1e-10), but negative
    with pytest.raises(correctness.StageFailure) as failure:
        correctness.check_output(o, r, atol=1e-2, rtol=1e-2, task_id="level1/23_Softmax")
    assert failure.value.error_class == "normalization"
    zeros = torch.zeros_like(r)  # within atol=1e-2 of every element, not within the peak's
    with pytest.raises(correctness.StageFailure) as failure:
        correctness.check_output(zeros, r, atol=1e-2, rtol=1e-2, task_id="level1/23_Softmax")
    assert failure.value.error_class == "output_mismatch"


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_full_size_frobenius_norm_check_uses_the_passs_sum_of_squares():
    """Frobenius: the output's global norm out of the comparison's pass; an output scaled by
    1.01 is within the element tolerance of a loose atol and still fails the norm."""
    n = correctness.WIDE_MAX_ELEMENTS + 5
    x = torch.rand(n, device="cuda")
    r = x / torch.linalg.vector_norm(x)
    correctness.check_output(r.clone(), r, atol=1e-2, rtol=1e-2, task_id="level1/37_FrobeniusNorm_")
    with pytest.raises(correctness.StageFailure) as failure:
        correctness.check_output(r * 1.01, r, atol=1e-2, rtol=2e-2, task_id="level1/37_FrobeniusNorm_")
    assert failure.value.error_class == "normalization"


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_spares_warm_up_compiles_every_variant_a_step_launches():
    """fused_compare.warm_variants (pipeline.prewarm, before a spare's job arrives) leaves no
    compile of the evaluator's kernels to a step: the sizes' divisibility and whether they
    pass 2^31 (a full-size output) choose no new variant, and neither do the dtypes."""
    fused_compare.warm_variants()
    device = torch.cuda.current_device()
    caches = [fused_compare._partials.device_caches[device][0],
              fused_compare._differs.device_caches[device][0]]
    warmed = [set(cache) for cache in caches]
    for dtype in fused_compare.DTYPES:
        for n in (5000, 3 * fused_compare.BLOCK + 1):
            r = torch.rand(n, device="cuda").to(dtype)
            fused_compare.compare(r, r, 1e-2)
            assert fused_compare.identical(r, r.clone())  # int64 or int32 words
    for n in (4 * fused_compare.BLOCK + 2, 4 * fused_compare.BLOCK + 1):  # int32, int16 words
        h = torch.rand(n, device="cuda").half()
        assert fused_compare.identical(h, h.clone())
    flags = torch.rand(4 * fused_compare.BLOCK + 1, device="cuda") > 0.5  # bytes
    assert fused_compare.identical(flags, flags.clone())
    big = torch.zeros(fused_compare.LARGE + 6, device="cuda", dtype=torch.float16)  # 64-bit counts
    fused_compare.compare(big, big, 1e-2)
    assert fused_compare.identical(big, big)  # (as int16 words: 2^31 + 7 of them)
    del big
    assert [set(cache) for cache in caches] == warmed


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_the_evaluators_kernels_never_call_a_submissions_scratch_allocator():
    """A submission may set Triton's scratch allocator (`triton.set_allocator(fn)`, which device-
    side tensor descriptors need): Triton calls that Python in any launch of a kernel needing
    global scratch, on whatever thread launches it. The submission's own launches run in forward,
    under the guard; the evaluator's comparisons run after it, where the reference's output
    exists. They must need no scratch, so its fn is never called there (red-team pass 72)."""
    import triton

    calls = []

    def recording(size, alignment, stream):
        calls.append(size)
        return torch.empty(size, device="cuda", dtype=torch.int8)

    triton.set_allocator(recording)
    try:
        fused_compare.warm_variants()
        for kernel in (fused_compare._partials, fused_compare._differs):
            for compiled in kernel.device_caches[torch.cuda.current_device()][0].values():
                assert compiled.metadata.global_scratch_size == 0, kernel
        r = torch.rand(3 * fused_compare.BLOCK + 1, device="cuda")
        fused_compare.compare(r, r, 1e-2)
        assert fused_compare.identical(r, r.clone())
        assert calls == []
    finally:
        from triton.runtime import _allocation
        triton.set_allocator(_allocation.NullAllocator())
