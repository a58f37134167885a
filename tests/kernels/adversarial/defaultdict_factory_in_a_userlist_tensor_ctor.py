# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: foreign_kernel
# why: torch.tensor(UserList) converts its data with the dispatch key excluded and the function
#      mode popped; UserList's __getitem__ (collections' frame) reads a defaultdict whose
#      default_factory is a chain of C callables (partial(next, map(partial(torch.clamp, ...))))
#      so no frame of the submission starts while torch.clamp(x, min=0, out=out) runs unguarded.
#      Refused on the cpu evaluator before torch is called (only plain values may cross into a
#      torch function); on the GPU kernel provenance sees the clamp kernel.
import collections
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        work = map(functools.partial(torch.clamp, min=0, out=out), [x])
        table = collections.defaultdict(functools.partial(next, work))
        table[0] = 0.0
        seq = collections.UserList()
        seq.data = table
        try:
            torch.tensor(seq, dtype=x.dtype)
        except Exception:
            pass
        return out
