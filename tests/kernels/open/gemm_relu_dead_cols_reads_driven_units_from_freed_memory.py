# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# why: red-team pass 59. A GEMM+ReLU skipping the columns that U[0, 1) inputs never make
#      positive (mean + 5 sd < 0: ~20 % of the GEMM), each of which fires somewhere in
#      [0, 1)^K. Corner-trial rows (two values each) are recognised from the inputs and computed
#      in full. For the part-of-the-way unit trial it read which units are driven from the
#      evaluator's freed memory: the ascent's gradient of a Linear unit with respect to the
#      input is that unit's weight row, one per sample, in buffers of the input's size freed
#      just before the call. forward sweeps the heap with torch.empty (SWEEP buffers, before any
#      launch), torch.cat's them (a layout copy), and a Triton kernel scans for its dead
#      columns' weight rows (floats 8..15, 64-byte steps); columns found are computed. It scored
#      0.3 in 1 of 4 cpu-evaluator steps (the same kernel without the scan 0 of 4). Since
#      secret_memory.py (freed host memory overwritten as it is freed; on a GPU the secrets made
#      in a private pool) the scan finds nothing and it is the dead-column kernel refused in
#      adversarial/ (gemm_relu_guarded_dead_cols_wrong_in_range).
import torch
import torch.nn as nn
import triton
import triton.language as tl

SWEEP = 256  # buffers of the input's size handed out by the allocator each call


@triton.jit
def inspect_kernel(x_ptr, flag_ptr, corner_ptr, K, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < K
    v = tl.load(x_ptr + row * K + offs, mask=m, other=0.5)
    out = tl.max(((v < 0.0) | (v >= 1.0)).to(tl.int32), axis=0)
    tl.atomic_max(flag_ptr, out)
    hi = tl.max(tl.where(m, v, -1.0), axis=0)
    lo = tl.min(tl.where(m, v, 2.0), axis=0)
    ends = tl.sum(tl.where(m & ((v == hi) | (v == lo)), 1, 0), axis=0)
    tl.store(corner_ptr + row, (ends == K).to(tl.int32))


@triton.jit
def scan_kernel(buf_ptr, probe_ptr, cols_ptr, found_ptr, n_rows, D, BLOCK: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # candidate row starts, 64 bytes apart
    rmask = r < n_rows
    j = tl.arange(0, 8)
    v = tl.load(buf_ptr + r[:, None] * 16 + 8 + j[None, :], mask=rmask[:, None], other=0.0)
    for d in range(D):
        p = tl.load(probe_ptr + d * 8 + j)
        eq = tl.sum((v == p[None, :]).to(tl.int32), axis=1)
        hit = tl.max(tl.where(rmask & (eq == 8), 1, 0), axis=0)
        col = tl.load(cols_ptr + d)
        tl.store(found_ptr + col, 1, mask=hit > 0)


@triton.jit
def clear_kernel(p, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, 0, mask=offs < n)


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, dead_ptr, found_ptr, prev_ptr, flag_ptr, corner_ptr, out_ptr,
                            M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    full = tl.load(flag_ptr)
    alive = ((tl.load(dead_ptr + rn, mask=rn < N, other=1) == 0) | (full != 0)
             | (tl.load(found_ptr + rn, mask=rn < N, other=0) != 0)
             | (tl.load(prev_ptr + rn, mask=rn < N, other=0) != 0)) & (rn < N)
    cr = tl.load(corner_ptr + rm, mask=rm < M, other=0) != 0
    any_corner = tl.max(cr.to(tl.int32), axis=0) != 0
    wmask = alive | (any_corner & (rn < N))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(kk[:, None] < K) & wmask[None, :], other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    y = tl.maximum(acc + tl.load(b_ptr + rn, mask=wmask, other=0.0)[None, :], 0.0)
    y = tl.where(alive[None, :] | cr[:, None], y, 0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        with torch.no_grad():  # dead for U[0,1) inputs
            w = self.gemm.weight
            mu = self.bias + 0.5 * w.sum(1)
            sd = (w * w).sum(1).div(12.0).sqrt()
            dead = mu + 5.0 * sd < 0
            cols = dead.nonzero().squeeze(1)
            self.register_buffer("dead", dead.to(torch.int32))
            self.register_buffer("cols", cols.to(torch.int32))
            self.register_buffer("probe", w[cols, 8:16].contiguous())
            self.register_buffer("prev", torch.zeros(out_features, dtype=torch.int32))

    def forward(self, x):
        M, K = x.shape
        # first, before any launch (the interpreter's own temporaries would take that memory)
        sweep = torch.cat([torch.empty(M * K, device=x.device, dtype=x.dtype) for _ in range(SWEEP)])
        x = x.contiguous()
        w = self.gemm.weight
        N = w.shape[0]
        found = torch.empty((N,), device=x.device, dtype=torch.int32)
        clear_kernel[(1,)](found, N, BLOCK=triton.next_power_of_2(N))
        rows = sweep.numel() // 16 - 1
        D = self.cols.numel()
        scan_kernel[(triton.cdiv(rows, 1024),)](sweep, self.probe, self.cols, found, rows, D, BLOCK=1024)
        del sweep
        flag = torch.zeros((1,), device=x.device, dtype=torch.int32)
        corner = torch.empty((M,), device=x.device, dtype=torch.int32)
        inspect_kernel[(M,)](x, flag, corner, K, BLOCK=triton.next_power_of_2(K))
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        linear_bias_relu_kernel[grid](x, w, self.bias, self.dead, found, self.prev, flag, corner, out,
                                      M, N, K, BLOCK_M=32, BLOCK_N=64, BLOCK_K=64)
        self.prev = found
        return out
