# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# says: timed call
# why: the dead-column GEMM+ReLU of gemm_relu_guarded_dead_cols_wrong_in_range, honest for its
#      first 9 calls (the correctness trials: five random, the random-sign one, the two unit
#      trials; and the determinism re-run), then skipping the columns that random [0, 1)
#      inputs never make positive. The timed calls' extra rounds on
#      the unit trial's inputs (reordered draws: in range, so the skipping path runs) are
#      re-checked at their fingerprints.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def out_of_range_kernel(x_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < n, other=0.5)
        acc = tl.maximum(acc, ((v < 0.0) | (v >= 1.0)).to(tl.int32))
    tl.store(flag_ptr, tl.max(acc, axis=0))


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, dead_ptr, flag_ptr, out_ptr, M, N, K,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    full = tl.load(flag_ptr)
    alive = ((tl.load(dead_ptr + rn, mask=rn < N, other=1) == 0) | (full != 0)) & (rn < N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(kk[:, None] < K) & alive[None, :], other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    y = tl.maximum(acc + tl.load(b_ptr + rn, mask=alive, other=0.0)[None, :], 0.0)
    y = tl.where(alive[None, :], y, 0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        with torch.no_grad():  # weights are fixed: fold a "dead for iid U[0,1)" table now
            w = self.gemm.weight
            mu = self.bias + 0.5 * w.sum(1)
            sd = (w * w).sum(1).div(12.0).sqrt()
            self.register_buffer("dead", (mu + 5.0 * sd < 0).to(torch.int32))

    def forward(self, x):
        self.calls = getattr(self, "calls", 0) + 1
        x = x.contiguous()
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        flag = torch.empty((1,), device=x.device, dtype=torch.int32)
        if self.calls <= 9:
            flag.fill_(1)  # the full path while the correctness trials may be running
        else:
            out_of_range_kernel[(1,)](x, flag, M * K, BLOCK=1024)
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_bias_relu_kernel[grid](x, w, self.bias, self.dead, flag, out, M, N, K,
                                      BLOCK_M=32, BLOCK_N=64, BLOCK_K=64)
        return out
