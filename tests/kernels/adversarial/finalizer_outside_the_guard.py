# task: level1/19_ReLU
# expect: rejected
# why: returns an unwritten output and computes it later, with torch.relu, in a generator's finally block that the garbage collector runs once forward has returned: outside the dispatch guard and outside the timed interval; the evaluator stops cyclic collection, so the output is never written
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(x_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n_elements)


def _late(x, out):
    try:
        yield 1
    finally:
        out.copy_(torch.relu(x))


class _Cycle:
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        touch_kernel[(1,)](x, x.numel(), BLOCK=16)
        out = torch.empty_like(x)
        g = _late(x, out)
        next(g)
        c = _Cycle()
        c.me = c
        c.g = g
        # bring the young generation close to its threshold: the next collection comes soon
        self.pad = [[] for _ in range(690)]
        return out
