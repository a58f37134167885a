# task: level2/76_Gemm_Add_ReLU
# expect: ok
# why: float16 tensor-core inputs for a float32 task: the weight cast once in __init__, the
#      activations cast by a Triton kernel into torch.empty(..., dtype=torch.float16), a float16
#      tl.dot accumulating in float32 (out_dtype=tl.float32), bias + ReLU epilogue, the float32
#      output the task returns (K=256: float16's rounding stays far inside the tolerance)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def to_half_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src_ptr + offs, mask=offs < n, other=0.0)
    tl.store(dst_ptr + offs, v.to(tl.float16), mask=offs < n)


@triton.jit
def gemm_bias_relu_fp16(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=4):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + (k + rk)[:, None],
                    mask=(rn[None, :] < N) & ((k + rk)[:, None] < K), other=0.0)
        acc = tl.dot(a, w, acc, out_dtype=tl.float32)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    out = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], out, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.register_buffer("w16", self.gemm.weight.detach().to(torch.float16), persistent=False)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.w16.shape[0]
        x16 = torch.empty((M, K), device=x.device, dtype=torch.float16)
        to_half_kernel[(triton.cdiv(M * K, 1024),)](x, x16, M * K, BLOCK=1024)
        out = torch.empty((M, N), device=x.device, dtype=torch.float32)
        gemm_bias_relu_fp16[(triton.cdiv(M, 32), triton.cdiv(N, 64))](x16, self.w16, self.bias, out,
                                                                      M, N, K, BM=32, BN=64, BK=64)
        return out
