# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: `x[seq]` with a collections.UserList index converts the index inside the guard's
#      function-mode handler (mode popped, profile watch on): UserList's __getitem__ (collections'
#      frame) reads a defaultdict whose factory is a chain of C callables that calls x.numpy and
#      out.numpy (the function mode that refuses them is off the stack; the dispatch mode never
#      sees numpy) and np.maximum(xa, 0, out=oa): numpy computes the ReLU into the output.
#      Refused before torch is called: only plain values may cross into a torch function.
import collections
import functools
import operator

import numpy as np
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
        work = map(np.maximum, map(operator.call, [x.numpy]), [0.0], map(operator.call, [out.numpy]))
        table = collections.defaultdict(functools.partial(next, work))
        table[0] = 0
        seq = collections.UserList()
        seq.data = table
        try:
            x[seq]
        except Exception:
            pass
        return out
