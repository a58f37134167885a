# task: level1/47_Sum_reduction_over_a_dimension
# expect: ok
# expect_cpu: forbidden_op
# says: the gpu evaluator allows it
# why: @triton.heuristics reading the input's alignment (args["x_ptr"].data_ptr() % 16) and
#      divisibility into constexpr flags; tl.multiple_of applied only when aligned
#      (session 44's honest sweep: on the cpu evaluator a raw pointer is host memory, refused
#      there with that said; the gpu evaluator scores it)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "ALIGNED": lambda a: a["x_ptr"].data_ptr() % 16 == 0 and a["C"] % 4 == 0,
    "BLOCK_R": lambda a: triton.next_power_of_2(a["R"]),
})
@triton.jit
def sum_dim1(x_ptr, out_ptr, R, C, BLOCK_C: tl.constexpr, BLOCK_R: tl.constexpr, ALIGNED: tl.constexpr):
    b = tl.program_id(0)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    r = tl.arange(0, BLOCK_R)
    base = b * R * C
    if ALIGNED:
        base = tl.multiple_of(base, 4)
    v = tl.load(x_ptr + base + r[:, None] * C + c[None, :], mask=(r[:, None] < R) & (c[None, :] < C), other=0.0)
    tl.store(out_ptr + b * C + c, tl.sum(v, axis=0), mask=c < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, 1, C), device=x.device, dtype=x.dtype)
        sum_dim1[(B, triton.cdiv(C, 32))](x, out, R, C, BLOCK_C=32)
        return out
