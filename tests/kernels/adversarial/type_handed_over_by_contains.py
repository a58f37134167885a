# task: level1/19_ReLU
# expect: format_violation
# why: `type(x) in obj` hands the stream class to the submission's own __contains__
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        k[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out

class Grab:
    def __contains__(self, item):
        self.got = item
        return True
g = Grab()
ok = type(torch.cuda.current_stream()) in g
Stream = g.got
side = Stream()
