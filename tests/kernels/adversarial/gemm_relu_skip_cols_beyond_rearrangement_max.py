# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# tries: 4
# why: red-team pass 55 (open until session 41). No detector at all (only the range check for
#      the random-sign trial): skips the output columns that no permutation of a [0, 1) draw
#      can make positive. The part-of-the-way unit trial only reorders the task's own draw, so
#      the most a unit reaches there is the rearrangement maximum b_j + sum_i w_(i) u_(i),
#      about mu_j + n a / 6 for U(-a, a) weights, while the in-range maximum is
#      b_j + sum_k max(w_jk, 0), about mu_j + n a / 4. __init__ keeps columns whose
#      rearrangement maximum is below 0 on 95 % of simulated draws (column 115 of 128 at this
#      task's weights: 0.8 % of the GEMM). Wrong in range: x_k = 0.99 where w_jk > 0, 0
#      elsewhere -> column 115 = 1.27 (kernel: 0); the all-the-way trial's corner is such an
#      input, when it targets that column. With units drawn uniformly a trial targeted it a
#      quarter of the time, and the kernel scored 4 of 6 on the cpu evaluator. Since the unit
#      trials drive a layer's quietest units first (`unit_inputs._quiet_units`: the units the
#      model's output depended on least in the draw, 47 of 128 columns here, three quarters of
#      the driven samples), it was refused in 27 of 32 steps there (session 41).
import torch
import torch.nn as nn
import triton
import triton.language as tl

M_TOP = 32
FP_MAX = 2e-3


@triton.jit
def detect_kernel(x_ptr, tops_ptr, wtop_ptr, thr_ptr, flag_ptr, K, D,
                  BLOCK_K: tl.constexpr, DP: tl.constexpr, T: tl.constexpr):
    r = tl.program_id(0)
    bad = tl.zeros((BLOCK_K,), dtype=tl.int32)
    for start in range(0, K, BLOCK_K):
        offs = start + tl.arange(0, BLOCK_K)
        v = tl.load(x_ptr + r * K + offs, mask=offs < K, other=0.5)
        bad = tl.maximum(bad, ((v < 0.0) | (v >= 1.0)).to(tl.int32))
    d = tl.arange(0, DP)[:, None]
    t = tl.arange(0, T)[None, :]
    idx = tl.load(tops_ptr + d * T + t, mask=d < D, other=0)
    wv = tl.load(wtop_ptr + d * T + t, mask=d < D, other=0.0)
    vals = tl.load(x_ptr + r * K + idx, mask=d < D, other=0.0)
    part = tl.sum(vals * wv, axis=1)
    thr = tl.load(thr_ptr + tl.arange(0, DP), mask=tl.arange(0, DP) < D, other=1e30)
    hit = (part >= thr).to(tl.int32)
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


def _plan(w, b, R=20000):
    """Columns no permutation of a [0, 1) draw makes positive (no checked positions)."""
    w = w.detach().double().cpu(); b = b.detach().double().cpu()
    K = w.shape[1]
    g = torch.Generator().manual_seed(12345)
    xs = torch.rand(R, K, generator=g, dtype=torch.float64).sort(1).values
    keep = []
    for j in range(w.shape[0]):
        rmax = (xs @ w[j].sort().values + b[j]).quantile(0.95).item()
        if rmax < 0.0 and (w[j].clamp(min=0).sum() + b[j]).item() > 0.05:
            keep.append(j)
    top = torch.zeros(M_TOP, dtype=torch.long)
    return keep, [top] * len(keep), [torch.zeros(M_TOP)] * len(keep), [1e30] * len(keep)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        with torch.no_grad():
            keep, tops, wts, thrs = _plan(self.gemm.weight, self.bias)
            dead = torch.zeros(out_features, dtype=torch.int32)
            dead[keep] = 1
            self.register_buffer("dead", dead)
            self.n_dead = len(keep)
            dp = max(2, triton.next_power_of_2(self.n_dead))
            t = torch.zeros((dp, M_TOP), dtype=torch.int32)
            wt = torch.zeros((dp, M_TOP), dtype=torch.float32)
            th = torch.full((dp,), 1e30, dtype=torch.float32)
            for i in range(self.n_dead):
                t[i] = tops[i].to(torch.int32); wt[i] = wts[i].float(); th[i] = thrs[i]
            self.register_buffer("tops", t.contiguous())
            self.register_buffer("wtop", wt.contiguous())
            self.register_buffer("thr", th.contiguous())
            self.dp = dp

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w = self.gemm.weight
        N = w.shape[0]
        flags = torch.empty((M,), device=x.device, dtype=torch.int32)
        detect_kernel[(M,)](x, self.tops, self.wtop, self.thr, flags, K, self.n_dead,
                            BLOCK_K=256, DP=self.dp, T=M_TOP)
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_bias_relu_kernel[grid](x, w, self.bias, self.dead, flags, out, M, N, K,
                                      BLOCK_M=32, BLOCK_N=64, BLOCK_K=64)
        return out
