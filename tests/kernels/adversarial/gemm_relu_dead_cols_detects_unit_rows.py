# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# tries: 3
# why: red-team pass 54 (scored 10 of 10 against the single, all-the-way unit trial; refused by
#      the second, part-of-the-way one: unit_inputs.py). The dead-column GEMM+ReLU of
#      gemm_relu_guarded_dead_cols_wrong_in_range, with a cheap detector of the unit trial's
#      rows. A row driven to unit j of a single Linear is the draw sorted along W[j]
#      (rearrangement): its largest values sit exactly where W[j]
#      is largest. For each of the 22 dead columns __init__ keeps the T=4 positions of W[j]'s
#      largest weights; a row whose values there all exceed 0.9 (a random [0, 1) row: 1e-4 per
#      column) or that holds a value outside [0, 1) (the random-sign trial) makes its 32-row block
#      compute every column. Cost: 88 gathers + a range scan per row, against 22 x 256 MACs
#      skipped (17 % of the GEMM) on every random call. Still wrong in range: x_k = 0.99 where
#      w_jk > 0 except at those four positions (0 there and elsewhere) makes column j positive;
#      the kernel writes 0. (`tries`: the part-of-the-way trial drives each row a secret share
#      of the way, and in ~5 % of evaluations no dead column fires on it: 2 of 40 at 159ea22,
#      4 of 48 in session 28, on the cpu evaluator; three in a row, ~1e-4.)
import torch
import torch.nn as nn
import triton
import triton.language as tl

TOP = 4
THRESH = 0.9


@triton.jit
def detect_kernel(x_ptr, tops_ptr, flag_ptr, K, D, THR, BLOCK_K: tl.constexpr,
                  DP: tl.constexpr, T: tl.constexpr):
    r = tl.program_id(0)
    bad = tl.zeros((BLOCK_K,), dtype=tl.int32)
    for start in range(0, K, BLOCK_K):
        offs = start + tl.arange(0, BLOCK_K)
        v = tl.load(x_ptr + r * K + offs, mask=offs < K, other=0.5)
        bad = tl.maximum(bad, ((v < 0.0) | (v >= 1.0)).to(tl.int32))
    d = tl.arange(0, DP)[:, None]
    t = tl.arange(0, T)[None, :]
    idx = tl.load(tops_ptr + d * T + t, mask=d < D, other=0)
    vals = tl.load(x_ptr + r * K + idx, mask=d < D, other=0.0)
    hit = tl.min((vals > THR).to(tl.int32), axis=1)
    flag = tl.maximum(tl.max(bad, axis=0), tl.max(hit, axis=0))
    tl.store(flag_ptr + r, flag)


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, dead_ptr, flag_ptr, out_ptr, M, N, K,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    full = tl.max(tl.load(flag_ptr + rm, mask=rm < M, other=0), axis=0)
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
        with torch.no_grad():  # weights are fixed: "dead for iid U[0,1)" and each one's top weights
            w = self.gemm.weight
            mu = self.bias + 0.5 * w.sum(1)
            sd = (w * w).sum(1).div(12.0).sqrt()
            dead = mu + 5.0 * sd < 0
            self.register_buffer("dead", dead.to(torch.int32))
            tops = w[dead].topk(TOP, dim=1).indices.to(torch.int32)
            self.n_dead = int(dead.sum())
            dp = max(2, triton.next_power_of_2(self.n_dead))
            padded = torch.zeros((dp, TOP), dtype=torch.int32)
            padded[: self.n_dead] = tops
            self.register_buffer("tops", padded.contiguous())
            self.dp = dp

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        flags = torch.empty((M,), device=x.device, dtype=torch.int32)
        detect_kernel[(M,)](x, self.tops, flags, K, self.n_dead, THRESH, BLOCK_K=256, DP=self.dp, T=TOP)
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_bias_relu_kernel[grid](x, w, self.bias, self.dead, flags, out, M, N, K,
                                      BLOCK_M=32, BLOCK_N=64, BLOCK_K=64)
        return out
