# task: level2/12_Gemm_Multiply_LeakyReLU
# expect: ok
# why: pre-transposes the Linear weight once in __init__ into a register_buffer
#      (self.gemm.weight.detach().t().contiguous()), so the kernel reads (K, N) row-major; bias and
#      multiplier fused; tl.dot with out_dtype=tl.float32
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemm_epilogue_kernel(x_ptr, wt_ptr, b_ptr, y_ptr, M, N, K, multiplier, slope,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(wt_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, out_dtype=tl.float32, input_precision="ieee")
    acc = (acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]) * multiplier
    acc = tl.where(acc >= 0, acc, acc * slope)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope
        self.register_buffer("weight_t", self.gemm.weight.detach().t().contiguous())

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.weight_t.shape[1]
        y = torch.empty(M, N, device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        gemm_epilogue_kernel[grid](x, self.weight_t, self.gemm.bias, y, M, N, K,
                                   float(self.multiplier), float(self.negative_slope),
                                   BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        return y
