# task: level1/51_Argmax_over_a_dimension
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F1 on an exact-match integer task: one combine call per batch (associative_scan over two
#      pointer lanes); the closure's host function loads the batch's [64, 63] slab with tl.load,
#      numpy's argmax over dim 1 computes the indices, and they are stored as int64 through
#      tl.store. The kernel body computes nothing.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

D1, D2 = 64, 63


@triton.jit
def helper(px, po, px2, po2):
    return px2, po2


class Box:
    def __init__(self, arr, dt):
        self.data = arr
        self.dtype = dt


def host(px, po, px2, po2):
    r = tl.arange(0, 8)[:, None]
    c = tl.arange(0, 64)[None, :]
    rows = []
    for k in range(D1 // 8):
        m = (c < D2) & (r >= 0)
        t = tl.load(px2 + (k * 8 + r) * D2 + c, mask=m, other=-1.0)
        rows.append(np.array(str(t).replace("[", " ").replace("]", " ").split(), dtype=np.float32).reshape(8, 64))
    slab = np.concatenate(rows)[:, :D2]
    idx = np.argmax(slab, axis=0).astype(np.int64)
    full = np.zeros(64, dtype=np.int64)
    full[:D2] = idx
    o = tl.arange(0, 64)
    tl.store(po2 + o, tl.core.tensor(Box(full, tl.int64), tl.block_type(tl.int64, [64])), mask=o < D2)
    return px2, po2


def make(helper):
    @triton.jit
    def combine(px, po, px2, po2):
        return helper(px, po, px2, po2)

    return combine


@triton.jit
def argmax_kernel(x_ptr, out_ptr, COMB: tl.constexpr):
    b = tl.program_id(0)
    z = tl.arange(0, 2) * 0
    tl.associative_scan((x_ptr + b * 64 * 63 + z, out_ptr + b * 63 + z), 0, COMB)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.comb = make(host)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty((x.shape[0], x.shape[2]), dtype=torch.int64, device=x.device)
        argmax_kernel[(x.shape[0],)](x, out, self.comb)
        return out
