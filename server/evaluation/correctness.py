"""Stage 3, correctness: the candidate against the reference on every trial input.

Order per trial (pipeline._correctness): the candidate runs first, under the dispatch guard, on
inputs it has never seen; then the evaluator checks that torch was not patched, makes the inputs
again from their seed, checks the candidate's were not written, and only then computes the
reference from the fresh copy. No reference output and no pristine copy exists while candidate
code runs (cyclic garbage collection, which could run a submission's finalizer at any moment, is
stopped), so there is nothing to find, copy or overwrite.
"""

from __future__ import annotations

import math

import torch

from . import fused_compare
from .inputs import FROBENIUS_TASKS, NORMALIZED_TASKS, SOFTMAX_TASKS
from .stages import CORRECTNESS, StageFailure

NORMALIZED_ATOL_SCALE = 1e-5  # atol = min(configured, max|ref| * this) for Softmax/Frobenius
NORMALIZATION_TOL = 1e-3  # row sums / global norm must be one within this


def _fail(error_class: str, feedback: str):
    raise StageFailure(CORRECTNESS, error_class, feedback)


def items_of(out) -> list:
    """A forward's result as a list, read without running any of its code: only an exact tuple or
    list is taken apart (a subclass's `__iter__` would run the submission's code wherever the
    evaluator reads the result: outside the guard and the timed interval)."""
    return list(out) if type(out) is tuple or type(out) is list else [out]  # `in` runs a metaclass's __eq__


def output_items(out) -> list | None:
    """The plain tensors of a result (exact types only), or None when it holds anything else."""
    items = items_of(out)
    return items if all(type(x) is torch.Tensor for x in items) else None


def shares_memory(t: torch.Tensor, inputs: list) -> bool:
    """Whether t lives in an input's storage (empty storages, address 0, share nothing)."""
    storage = t.untyped_storage().data_ptr()
    return storage != 0 and any(torch.is_tensor(x) and x.untyped_storage().data_ptr() == storage
                                for x in inputs)


def as_tensors(out, what: str) -> list[torch.Tensor]:
    """Flatten a forward's result to a list of plain tensors; anything else is rejected."""
    items = items_of(out)
    for i, item in enumerate(items):
        if type(item) is not torch.Tensor:  # subclasses can pretend to hold values
            _fail("not_a_tensor", f"{what} output {i} is a {type(item).__name__}, expected a plain "
                  "torch.Tensor")
    return items


def tolerances(task_id: str | None, ref: torch.Tensor, atol: float, rtol: float,
               peak: float | None = None) -> tuple[float, float]:
    """`peak`: max |ref| when a comparison pass has it already."""
    if task_id in NORMALIZED_TASKS:
        atol = min(atol, (_peak(ref) if peak is None else peak) * NORMALIZED_ATOL_SCALE)
    return atol, rtol


def output_tolerances(task_id: str | None, ref: torch.Tensor, atol: float, rtol: float,
                      cancelling: bool = False) -> tuple[float, float]:
    """(atol, rtol) that check_output applies to the whole of `ref`: on signed inputs whose sums
    cancel, atol at least rtol times its RMS; then a normalised task's cap (`tolerances`). A
    sampled check of an output gets the same rule as a full one (a timed call's fingerprint)."""
    return tolerances(task_id, ref, max(atol, _cancelling_floor(ref, rtol, cancelling)), rtol)


def _cancelling_floor(ref: torch.Tensor, rtol: float, cancelling: bool) -> float:
    """atol's floor on signed inputs whose sums cancel: rtol times the output's RMS (`rms`)."""
    return rtol * rms(ref) if cancelling and (ref.is_floating_point() or ref.is_complex()) else 0.0


def _peak(t: torch.Tensor) -> float:
    """max |t|, in one pass over memory and no buffer of t's size (6 GiB at full size)."""
    if t.numel() == 0:
        return 0.0
    if t.is_complex():
        return t.abs().max().item()
    low, high = torch.aminmax(t)
    return max(abs(low.item()), abs(high.item()))


def rms(t: torch.Tensor) -> float:
    """Root mean square of t's finite values (0 for none): the scale of an output whose elements
    are sums of signed terms. A sum of K terms of size s is ~s * sqrt(K) and its rounding error
    ~eps * s * sqrt(K) in any order, so elements that cancel to near zero are off by a share of
    the RMS, not of themselves: KernelBench's large-K matmul (level 1, 6) on signed inputs 100x
    its own had elements of -133 among ~5e6, off by 10 in float64 against eager float32."""
    values = t.abs() if t.is_complex() else t
    if values.numel() == 0:
        return 0.0
    wide = torch.float64 if values.numel() < WIDE_MAX_ELEMENTS else torch.float32
    # One reduction, no buffer of t's size, when every value is finite (a finite norm says so).
    # Selecting the finite values first cost ~3x the output's size at full size (a mask, the
    # selection's int64 indices, the copy) for every re-check on signed inputs: 3.25 x 7.5 GiB
    # of odd-sized buffers a check, at the H200's memory limit (full-size Frobenius, session 24).
    norm = float(torch.linalg.vector_norm(values, dtype=wide))
    if math.isfinite(norm):
        return norm / math.sqrt(values.numel())
    values = values[torch.isfinite(values)]  # a NaN or infinity somewhere (or squares past the range)
    if values.numel() == 0:
        return 0.0
    return float(torch.linalg.vector_norm(values, dtype=wide)) / math.sqrt(values.numel())


def _accumulation_dtype(t: torch.Tensor) -> torch.dtype | None:
    """Sums of half outputs accumulate in float32; float32 ones natively on the GPU (torch
    reduces in a tree: relative error ~1e-6 over billions of elements, far below
    NORMALIZATION_TOL), in float64 on the CPU (its float32 sums drift: a reference's own output
    summed to a norm of 0.9998 at 16.7M elements)."""
    if t.device.type == "cpu" and t.dtype != torch.float64:
        return torch.float64
    return torch.float32 if t.dtype in (torch.float16, torch.bfloat16) else None


def check_output(out, ref, *, atol: float, rtol: float, task_id: str | None = None,
                 label: str = "trial", cancelling: bool = False) -> float:
    """Raise StageFailure if `out` does not match `ref`; return the max absolute error.
    `cancelling`: inputs whose sums cancel (inputs.Trial): atol is at least rtol times each
    output's root mean square."""
    outs, refs = as_tensors(out, "your"), as_tensors(ref, "reference")
    if len(outs) != len(refs):
        _fail("shape_mismatch", f"{label}: forward returned {len(outs)} tensors, expected {len(refs)}")
    worst = 0.0
    for o, r in zip(outs, refs):
        error, fused = _check_tensor(o, r, max(atol, _cancelling_floor(r, rtol, cancelling)), rtol,
                                     task_id, label)
        worst = max(worst, error)
        _check_normalization(o, task_id, label, fused)
    return worst


WIDE_MAX_ELEMENTS = 1 << 24  # below this, compare in float64; above, in the output's dtype


def _check_tensor(o: torch.Tensor, r: torch.Tensor, atol: float, rtol: float,
                  task_id: str | None, label: str) -> tuple[float, fused_compare.Comparison | None]:
    """(max absolute error, the one-pass comparison when it decided: it holds the output's
    least value and sum of squares for the normalisation checks)."""
    if o.shape != r.shape:
        _fail("shape_mismatch", f"{label}: output shape {tuple(o.shape)}, expected {tuple(r.shape)}")
    if o.dtype != r.dtype:
        _fail("dtype_mismatch", f"{label}: output dtype {o.dtype}, expected {r.dtype}")
    if o.device != r.device:
        _fail("output_mismatch", f"{label}: output on {o.device}, expected on {r.device}")
    if o.numel() == 0:
        return 0.0, None
    if not (o.is_floating_point() or o.is_complex()):
        # Indices, counts, masks: a tolerance would accept a neighbouring index as right.
        wrong = o != r
        if wrong.any():
            _explain_mismatch(o, r, wrong, 0.0, 0.0, label)
        return 0.0, None
    wide = o.numel() < WIDE_MAX_ELEMENTS and not o.is_complex()
    fused = fused_compare.compare(o, r, rtol) if not wide and fused_compare.applies(o, r) else None
    atol, rtol = tolerances(task_id, r, atol, rtol, fused.ref_peak if fused else None)
    if fused is not None and fused.excess <= atol:  # one pass; a failure gets the exact rule below
        return fused.diff, fused
    if wide:
        a, b = o.double(), r.double()
    elif o.dtype in (torch.float16, torch.bfloat16):  # as precise as the fused check that failed
        a, b = o.float(), r.float()
    else:
        a, b = o, r
    # Full-size outputs (GiB) stay in their dtype and use two buffers of the output's size.
    diff, excess = _excess(a, b, rtol)
    # |o - r| - rtol * |r| <= atol everywhere; NaN anywhere makes the max NaN and fails this fast
    # check; then the exact rule decides (equal infinities match, as in torch.isclose).
    if bool(excess.max() <= atol):
        return float(diff.max()), None
    threshold = torch.abs(b, out=excess).mul_(rtol).add_(atol)
    ok = diff <= threshold
    del threshold, excess
    ok &= torch.isfinite(b)
    equal = o == r
    ok |= equal
    if not bool(ok.all()):
        _explain_mismatch(o, r, ~ok, atol, rtol, label)
    return float(diff.masked_fill_(equal, 0.0).max()), None


def _explain_mismatch(o, r, bad, atol, rtol, label) -> None:
    bad_finite = torch.isfinite(r) & ~torch.isfinite(o)
    if bad_finite.any():
        idx = _first_index(bad_finite, o.shape)
        _fail("non_finite", f"{label}: output holds {int(bad_finite.sum())} non-finite values where "
              f"the reference is finite; first at index {idx}: got {o[idx].item()}, expected "
              f"{r[idx].item():.6g}")
    idx = _first_index(bad, o.shape)
    rule = (f"atol={atol:.3g}, rtol={rtol:.3g}" if o.is_floating_point() or o.is_complex()
            else "exact match (integer output)")
    _fail("output_mismatch", f"{label}: {int(bad.sum())} of {o.numel()} elements differ beyond "
          f"{rule}; first at index {idx}: got {o[idx].item():.6g}, expected {r[idx].item():.6g}")


def _first_index(mask: torch.Tensor, shape) -> tuple:
    flat = int(mask.reshape(-1).nonzero()[0, 0])
    return tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(shape)))


def _check_normalization(o: torch.Tensor, task_id: str | None, label: str,
                         fused: "fused_compare.Comparison | None" = None) -> None:
    """At most two passes over the output, no buffer of its size (it matched the reference
    already; this holds the shape of the answer, e.g. zeros under a loose absolute tolerance).
    `fused`: the comparison pass, when it decided (its least value and sum of squares serve)."""
    if o.numel() == 0 or not o.is_floating_point():
        return
    if task_id in SOFTMAX_TASKS:
        if (bool(o.amin() < 0) if fused is None else fused.out_min < 0):
            _fail("normalization", f"{label}: softmax output has negative entries")
        sums = o.sum(dim=-1, dtype=_accumulation_dtype(o))
        off = (sums.double() - 1.0).abs().max().item()
        if off > NORMALIZATION_TOL:
            _fail("normalization", f"{label}: softmax rows must sum to one; worst row is off by {off:.3g}")
    elif task_id in FROBENIUS_TASKS:
        norm = (torch.linalg.vector_norm(o, dtype=_accumulation_dtype(o)).item() if fused is None
                else fused.out_square_sum ** 0.5)
        if abs(norm - 1.0) > NORMALIZATION_TOL:
            _fail("normalization", f"{label}: output must have global L2 norm one, got {norm:.6g}")


def check_inputs_unchanged(inputs: list, saved: list, label: str) -> None:
    for i, (x, s) in enumerate(zip(inputs, saved)):
        if torch.is_tensor(x) and type(x) is not torch.Tensor:  # a swapped __class__ runs hooks
            raise StageFailure(CORRECTNESS, "tampering", f"{label}: input {i} is no longer a plain "
                               "torch.Tensor; do not change your inputs' type")
        if torch.is_tensor(x) and torch.is_tensor(s) and (
                x.has_names() or x.shape != s.shape or x.dtype != s.dtype):  # in place, unguarded
            _fail("input_mutated", f"{label}: forward changed input {i}'s shape, dtype or "
                  "dimension names in place; inputs are read-only")
        if torch.is_tensor(x) and not (torch.is_tensor(s) and fused_compare.identical(x, s)):
            _fail("input_mutated", f"{label}: forward wrote into input {i}; inputs are read-only, "
                  "write results to a tensor you allocate")


def clone_inputs(inputs: list) -> list:
    return [x.clone() if torch.is_tensor(x) else x for x in inputs]


def check_deterministic(first, second, *, atol: float, rtol: float, label: str) -> None:
    """Two runs on the same input must agree within tolerance: garbage that happens to pass once
    (uninitialised memory, races) rarely passes twice."""
    firsts, seconds = as_tensors(first, "your"), as_tensors(second, "your")
    if len(firsts) != len(seconds) or any(a.shape != b.shape for a, b in zip(firsts, seconds)):
        _fail("nondeterministic", f"{label}: two runs on the same input returned differently "
              "shaped results")
    if any(a.dtype != b.dtype or a.device != b.device for a, b in zip(firsts, seconds)):
        _fail("nondeterministic", f"{label}: two runs on the same input returned results of "
              "different dtypes or devices")
    for a, b in zip(firsts, seconds):
        if _within(a, b, atol, rtol):
            continue
        if a.is_floating_point() or a.is_complex():
            close = torch.isclose(a, b, atol=atol, rtol=rtol, equal_nan=True)  # NaN in both: agree
        else:
            close = a == b  # integer results: exactly
        if not bool(close.all()):
            idx = _first_index(~close, a.shape)
            _fail("nondeterministic", f"{label}: two runs on the same input disagree at index {idx} "
                  f"({a[idx].item():.6g} vs {b[idx].item():.6g}); read only memory you wrote")


def _within(a: torch.Tensor, b: torch.Tensor, atol: float, rtol: float) -> bool:
    """|a - b| <= atol + rtol * |b| everywhere (NaN anywhere: False), in few passes over memory."""
    if a.dtype != b.dtype or not a.is_floating_point():
        return bool(torch.equal(a, b))
    if a.numel() == 0:
        return True
    if a.numel() >= WIDE_MAX_ELEMENTS and fused_compare.applies(a, b):
        return fused_compare.max_diff_and_excess(a, b, rtol)[1] <= atol
    return bool(_excess(a, b, rtol)[1].max() <= atol)


def _excess(a: torch.Tensor, b: torch.Tensor, rtol: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(|a - b|, |a - b| - rtol * |b|) in two buffers of the tensors' size: within tolerance
    exactly where the second is at most atol (NaN never is)."""
    diff = torch.sub(a, b).abs()  # real for complex tensors too
    excess = b.abs()
    torch.sub(diff, excess, alpha=rtol, out=excess)
    return diff, excess


def pristine_state(model: torch.nn.Module) -> dict:
    """The reference's parameters and buffers, copied to host memory before any submission code
    runs: a device kernel cannot reach them there (a Triton kernel can write anywhere in the
    device memory it shares with the reference). Pinned where they come from a GPU: putting
    them back (every reference output after the submission's code ran) then copies at the
    link's speed rather than through pageable staging (a full-size MLP's 2.7 GB)."""
    return {name: _host_copy(t.detach()) for name, t in model.state_dict().items()}


def _host_copy(t: torch.Tensor) -> torch.Tensor:
    if t.device.type != "cuda":
        return t.to("cpu", copy=True)
    return torch.empty_like(t, device="cpu", pin_memory=True).copy_(t)


def restore(model: torch.nn.Module, state: dict) -> None:
    """Put the pristine parameters and buffers back, whatever a kernel wrote over them."""
    current = model.state_dict()
    for name, saved in state.items():
        if name in current:
            current[name].copy_(saved)


def reference_output(model: torch.nn.Module, inputs: list, model64: torch.nn.Module | None):
    """The reference's output; on CPU recomputed in float64 where it runs there (large fp32
    reductions drift on CPU), then cast back to the dtype the task returns."""
    out = model(*inputs)
    if model64 is None:
        return out
    try:
        precise = model64(*[x.double() if torch.is_tensor(x) and x.is_floating_point() else x
                            for x in inputs])
    except (RuntimeError, TypeError, NotImplementedError):
        return out
    outs, precs = as_tensors(out, "reference"), as_tensors(precise, "reference")
    cast = [p.to(o.dtype) if o.is_floating_point() else o for o, p in zip(outs, precs)]
    return cast[0] if torch.is_tensor(out) else type(out)(cast)


