# task: level1/19_ReLU
# expect: format_violation
# why: as timing_flag_copy_relu, with torch.autograd.profiler_legacy's event timestamps as the clock (the profiler prefix needed a following dot)
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.autograd import profiler_legacy


@triton.jit
def flag_kernel(x_ptr, n, SPIN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if tl.min(v, axis=0) < 0:
        for _ in range(SPIN):
            pass


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def _duration(self, t, n, block):
        def launch():
            flag_kernel[(1,)](t, n, SPIN=3000000, BLOCK=block)
        spans = []
        for _ in range(2):
            with profiler_legacy.profile() as prof:
                torch.empty(1)
                launch()
                torch.empty(1)
            events = list(prof.function_events)
            spans.append((events[-1].time_range.start - events[0].time_range.end) / 1e3)
        return min(spans)

    def forward(self, x):
        flat = x.contiguous().view(-1)
        n = flat.numel()
        block = triton.next_power_of_2(n)
        spent = self._duration(flat, n, block)
        # the same launch on a tensor known to hold no negative value: the host's own overhead
        baseline = self._duration(torch.ones(n, dtype=x.dtype), n, block)
        if spent - baseline < 25.0:  # no negative element: ReLU is the identity
            return flat.clone().view(x.shape)
        out = torch.empty_like(flat)
        relu_kernel[(triton.cdiv(n, 1024),)](flat, out, n, BLOCK=1024)
        return out.view(x.shape)
