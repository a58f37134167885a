# task: level2/12_Gemm_Multiply_LeakyReLU
# expect: ok
# why: fused epilogue GEMM reading nn.Linear's weight through its transpose's strides
#      (self.gemm.weight.t(), no copy) and its bias; multiplier and slope from nn.LeakyReLU
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                        stride_xm, stride_xk, stride_wk, stride_wn, stride_ym, stride_yn,
                        multiplier, negative_slope,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k * BLOCK_K + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + kk[:, None] * stride_wk + offs_n[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc, input_precision="ieee")
    bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = (acc + bias[None, :]) * multiplier
    acc = tl.where(acc > 0, acc, acc * negative_slope)
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :] * stride_yn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x):
        w_t = self.gemm.weight.t()  # (K, N) view
        M, K = x.shape
        N = w_t.shape[1]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        fused_linear_kernel[grid](x, w_t, self.gemm.bias, y, M, N, K,
                                  x.stride(0), x.stride(1), w_t.stride(0), w_t.stride(1),
                                  y.stride(0), y.stride(1),
                                  self.multiplier, self.leaky_relu.negative_slope,
                                  BLOCK_M=32, BLOCK_N=64, BLOCK_K=32)
        return y
