# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# found: red-team pass 48 (session 20; scored 0.3 on the cpu evaluator before)
# why: the task's inputs come from torch.rand, in [0, 1): from the weights alone, a kernel found
#      the output columns whose pre-activation stays below zero for such inputs (mean + 5
#      standard deviations), wrote 0 there and skipped their dot products (~17 % of the GEMM,
#      paid as speed on a GPU); every trial of the task's own inputs passed. Tasks without a
#      family of extra inputs now get one trial of their own inputs with random signs where
#      the reference is finite and stable on them (the profile's `signed_trial`). The unit
#      trials (session 26) catch it too, so which trial names it depends on the trials' secret
#      order (session 27).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dead_cols_kernel(w_ptr, b_ptr, dead_ptr, N, K, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    s = tl.zeros((BLOCK_N,), dtype=tl.float32)
    q = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        w = tl.load(w_ptr + rn[:, None] * K + kk[None, :], mask=(rn[:, None] < N) & (kk[None, :] < K), other=0.0)
        s += tl.sum(w, axis=1)
        q += tl.sum(w * w, axis=1)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    mu = b + 0.5 * s            # E[x.w + b] for x ~ U[0,1)^K
    sd = tl.sqrt(q / 12.0)      # its standard deviation
    tl.store(dead_ptr + rn, (mu + 5.0 * sd < 0.0).to(tl.int32), mask=rn < N)


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, dead_ptr, out_ptr, M, N, K, stride_wk, stride_wn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    alive = (tl.load(dead_ptr + rn, mask=rn < N, other=1) == 0) & (rn < N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & alive[None, :], other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    y = tl.maximum(acc + tl.load(b_ptr + rn, mask=alive, other=0.0)[None, :], 0.0)
    y = tl.where(alive[None, :], y, 0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        dead = torch.empty((N,), device=x.device, dtype=torch.int32)
        dead_cols_kernel[(triton.cdiv(N, 64),)](w, self.bias, dead, N, K, BLOCK_N=64, BLOCK_K=64)
        w_t = w.t()
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM, BN, BK = 32, 64, 64
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        linear_bias_relu_kernel[grid](x, w_t, self.bias, dead, out, M, N, K, w_t.stride(0), w_t.stride(1),
                                      BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        return out
