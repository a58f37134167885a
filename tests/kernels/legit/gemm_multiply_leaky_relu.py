# task: level2/12_Gemm_Multiply_LeakyReLU
# expect: ok
# why: one kernel for the whole layer: tl.dot over nn.Linear's weight, then bias, scale and
#      LeakyReLU in the epilogue while the tile is still in registers
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_scale_leaky_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K, multiplier, negative_slope,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        # The weight is (N, K) row-major; reading it as a (K, N) tile gives x @ W^T without a transpose.
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        # tf32x3 splits each fp32 operand into TF32 parts: tensor cores at near-fp32 accuracy;
        # plain TF32 (the default) drifts ~1e-3 relative from torch's fp32 matmul.
        acc += tl.dot(x, w, input_precision="tf32x3")
    y = (acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]) * multiplier
    y = tl.where(y >= 0, y, y * negative_slope)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.gemm.out_features
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM, BN, BK = 32, 64, 64
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        linear_scale_leaky_kernel[grid](x, self.gemm.weight, self.gemm.bias, out, M, N, K, self.multiplier,
                                        self.leaky_relu.negative_slope, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        return out
