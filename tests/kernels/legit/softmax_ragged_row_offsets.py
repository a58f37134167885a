# task: level1/23_Softmax
# expect: ok
# why: a CSR-style kernel: each program loads its row's start and end offsets from a row-pointer
#      tensor and loops over them (runtime loop bounds read from memory, which Triton compiles);
#      refused by red-team pass 33's rule until session 16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_offsets_kernel(row_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(row_ptr + i, i.to(tl.int64) * n_cols, mask=i <= n_rows)


@triton.jit
def ragged_softmax_kernel(x_ptr, out_ptr, row_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(row_ptr + row)
    end = tl.load(row_ptr + row + 1)
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK,), tl.float32)
    for first in range(start, end, BLOCK):
        offs = first + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < end, other=float("-inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(tl.where(m_new == float("-inf"), 0.0, m - m_new)) + tl.where(
            x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    for first in tl.range(start, end, BLOCK):
        offs = first + tl.arange(0, BLOCK)
        mask = offs < end
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, tl.exp(x - row_max) / total, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        row_ptr = torch.empty(n_rows + 1, device=x.device, dtype=torch.int64)
        row_offsets_kernel[(triton.cdiv(n_rows + 1, 1024),)](row_ptr, n_rows, n_cols, BLOCK=1024)
        ragged_softmax_kernel[(n_rows,)](x, out, row_ptr, BLOCK=1024, num_warps=8)
        return out
