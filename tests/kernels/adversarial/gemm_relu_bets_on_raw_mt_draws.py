# task: level2/76_Gemm_Add_ReLU
# expect: ok
# why: red-team pass 60. The cpu evaluator's inputs were torch.rand's MT19937 stream, whose
#      tempered outputs obey GF(2)-linear relations: for words y[m], y[m+396], y[m+623], 15
#      parities of the low 24 bits torch.rand keeps are zero whatever the seed. A kernel that
#      checked them over its input (three loads an element) told the task's own draws from
#      every trial the evaluator builds on them (random signs, both unit trials, spikes,
#      perturbed timed inputs) and was cheap only on the draws: the dead-column GEMM+ReLU
#      skipping 29 of 128 columns scored 8 of 8, DeepNarrowMLP returning a row kept from
#      __init__ 4 of 4. Since session 31 the CPU's draws come from Philox (cpu_draws.py), as a
#      GPU's do. This kernel bets on the detector: every column computed, and the output off by
#      1 wherever it names a raw draw. It scores only where no input is named one; were the
#      CPU's inputs MT19937's stream again, every plain trial would be named and it would be
#      refused (output_mismatch): this test would fail.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _par(v):
    v = v ^ (v >> 16)
    v = v ^ (v >> 8)
    v = v ^ (v >> 4)
    v = v ^ (v >> 2)
    v = v ^ (v >> 1)
    return v & 1


@triton.jit
def _rel(a, b, c, MA: tl.constexpr, MB: tl.constexpr, MC: tl.constexpr):
    return _par((a & MA) ^ (b & MB) ^ (c & MC))


@triton.jit
def raw_draw_check_kernel(x_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n - 623
    va = tl.load(x_ptr + offs, mask=m, other=0.0)
    vb = tl.load(x_ptr + offs + 396, mask=m, other=0.0)
    vc = tl.load(x_ptr + offs + 623, mask=m, other=0.0)
    fa = va * 16777216.0
    fb = vb * 16777216.0
    fc = vc * 16777216.0
    a = fa.to(tl.int32)
    b = fb.to(tl.int32)
    c = fc.to(tl.int32)
    bad = (va < 0.0) | (va >= 1.0) | (a.to(tl.float32) != fa) | (b.to(tl.float32) != fb) | (c.to(tl.float32) != fc)
    bad = bad.to(tl.int32)
    bad = bad | _rel(a, b, c, 0x400012, 0x1, 0x1)
    bad = bad | _rel(a, b, c, 0x4c019, 0xc, 0xc)
    bad = bad | _rel(a, b, c, 0x80022, 0x10, 0x10)
    bad = bad | _rel(a, b, c, 0x6240c1, 0x64, 0x64)
    bad = bad | _rel(a, b, c, 0x60859, 0x424, 0x424)
    bad = bad | _rel(a, b, c, 0x809020, 0x4800, 0x4800)
    bad = bad | _rel(a, b, c, 0x30040, 0x8020, 0x8020)
    bad = bad | _rel(a, b, c, 0x100044, 0x10020, 0x10020)
    bad = bad | _rel(a, b, c, 0x464048, 0x20024, 0x20024)
    bad = bad | _rel(a, b, c, 0x4a0050, 0x40020, 0x40020)
    bad = bad | _rel(a, b, c, 0x100004, 0x80002, 0x80002)
    bad = bad | _rel(a, b, c, 0x200008, 0x100004, 0x100004)
    bad = bad | _rel(a, b, c, 0x46c049, 0x200024, 0x200024)
    bad = bad | _rel(a, b, c, 0x880002, 0x400000, 0x400000)
    bad = bad | _rel(a, b, c, 0x920660, 0x800302, 0x800302)
    bad = tl.where(m, bad, 0)
    tl.atomic_max(flag_ptr, tl.max(bad, axis=0))


@triton.jit
def clear_kernel(p):
    tl.store(p, 0)


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, flag_ptr, out_ptr, M, N, K,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    full = tl.load(flag_ptr)
    alive = rn < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(kk[:, None] < K) & alive[None, :], other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    y = tl.maximum(acc + tl.load(b_ptr + rn, mask=alive, other=0.0)[None, :], 0.0)
    y = tl.where(alive[None, :], y, 0.0)
    y = tl.where(full != 0, y, y + 1.0)  # the bet: wrong wherever it holds a raw draw
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
        flag = torch.empty((1,), device=x.device, dtype=torch.int32)
        clear_kernel[(1,)](flag)
        n = M * K
        if n > 623:
            raw_draw_check_kernel[(triton.cdiv(n - 623, 1024),)](x, flag, n, BLOCK=1024)
        else:
            flag = torch.ones((1,), device=x.device, dtype=torch.int32)
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_bias_relu_kernel[grid](x, w, self.bias, flag, out, M, N, K,
                                      BLOCK_M=32, BLOCK_N=64, BLOCK_K=64)
        return out
