# task: level1/48_Mean_reduction_over_a_dimension
# expect: ok
# why: reductions written as tensor methods (`x.sum(axis=0)`, `.to(...)`), Triton's own
#      standard-library functions called on a block: on a GPU `tl.tensor.sum` is a JITFunction,
#      in the interpreter a wrapper around an InterpretedFunction, which the cpu evaluator's
#      compiler front end must see as the former (a false rejection once, probe 5's p38)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_middle_kernel(x_ptr, out_ptr, R, inner, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    outer = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    acc = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < R) & (cols[None, :] < inner)
        x = tl.load(x_ptr + outer * R * inner + rows[:, None] * inner + cols[None, :], mask=mask, other=0.0)
        acc += x.to(tl.float32).sum(axis=0)
    tl.store(out_ptr + outer * inner + cols, (acc / R).to(out_ptr.dtype.element_ty), mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        shape = list(x.shape)
        R = shape[self.dim]
        outer = 1
        for s in shape[:self.dim]:
            outer *= s
        inner = x.numel() // (outer * R)
        out = torch.empty(outer * inner, device=x.device, dtype=x.dtype)
        BLOCK_I = 64
        mean_middle_kernel[(outer, triton.cdiv(inner, BLOCK_I))](x, out, R, inner, BLOCK_R=32, BLOCK_I=BLOCK_I)
        return out.reshape(shape[:self.dim] + shape[self.dim + 1:])
