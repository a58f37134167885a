# task: level1/1_Square_matrix_multiplication_
# expect: narrow_precision
# why: red-team pass 63. An int8 tensor-core matmul (mma.sync m16n8k32, IMMA on sm_90) through
#      tl.inline_asm_elementwise with no 8-bit type in the TTIR: operands quantised to i32 and
#      packed four to a word by bit operations, and the instruction's type modifiers split off
#      by a PTX comment (`.s32/**/.s8.s8.s32`), which the assembler reads as a separator and a
#      line-by-line pattern did not. Exact float32 path on tiles with values outside [0, 1).
#      Emulated: 0.064-0.070 of the tolerance on random draws, 1.96x on A = B = 0.2031. Now the
#      text is read as the assembler reads it (comments dropped, modifiers joined), and on the
#      GPU the machine code (IMMA in nvdisasm's SASS) decides too.
import torch
import torch.nn as nn
import triton
import triton.language as tl



@triton.jit
def quant_kernel(x_ptr, q_ptr, sum_ptr, flag_ptr, K, KW, s_row, s_k, BW: tl.constexpr):
    # one row of A (or column of B): q[r, w] = bytes round((x[r, 4w+j] - 0.5) * 254), j = 0..3;
    # the exact sum of (x - 0.5) over the row; a flag when any element lies outside [0, 1)
    r = tl.program_id(0)
    total = tl.zeros((BW,), dtype=tl.float32)
    bad = tl.zeros((BW,), dtype=tl.int32)
    for w0 in range(0, KW, BW):
        w = w0 + tl.arange(0, BW)
        word = tl.zeros((BW,), dtype=tl.int32)
        for j in tl.static_range(4):
            k = 4 * w + j
            v = tl.load(x_ptr + r * s_row + k * s_k, mask=k < K, other=0.5)
            bad = tl.maximum(bad, ((v < 0.0) | (v >= 1.0)).to(tl.int32))
            x = v - 0.5
            total += x
            q = tl.where(x >= 0, x * 254.0 + 0.5, x * 254.0 - 0.5).to(tl.int32)
            word = word | ((q & 255) << (8 * j))
        tl.store(q_ptr + r * KW + w, word, mask=w < KW)
    tl.store(sum_ptr + r, tl.sum(total, 0))
    tl.store(flag_ptr + r, tl.max(bad, 0))


@triton.jit
def mma_step(a0, a1, a2, a3, b0, b1, c0, c1, c2, c3):
    return tl.inline_asm_elementwise(
        "mma.sync.aligned.m16n8k32.row.col.s32/**/.s8.s8.s32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};",
        "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r",
        (a0, a1, a2, a3, b0, b1, c0, c1, c2, c3),
        (tl.int32, tl.int32, tl.int32, tl.int32), True, 1)


@triton.jit
def gemm_kernel(a_ptr, b_ptr, aq_ptr, bq_ptr, ra_ptr, cb_ptr, fa_ptr, fb_ptr, c_ptr, M, N, K, KW):
    # one warp, one 16x8 tile; element i of a 32-wide block lives on lane i
    m0 = tl.program_id(0) * 16
    n0 = tl.program_id(1) * 8
    lane = tl.arange(0, 32)
    g = lane // 4
    t = lane % 4
    r0 = m0 + g
    r1 = r0 + 8
    cn = n0 + g
    c_lo = n0 + 2 * t
    c_hi = c_lo + 1
    bad = tl.maximum(tl.maximum(tl.load(fa_ptr + r0, mask=r0 < M, other=0), tl.load(fa_ptr + r1, mask=r1 < M, other=0)),
                     tl.load(fb_ptr + cn, mask=cn < N, other=0))
    if tl.max(bad, 0) > 0:
        # outside [0, 1): the exact float32 product
        d0 = tl.zeros((32,), dtype=tl.float32)
        d1 = tl.zeros((32,), dtype=tl.float32)
        d2 = tl.zeros((32,), dtype=tl.float32)
        d3 = tl.zeros((32,), dtype=tl.float32)
        for k in range(0, K):
            x0 = tl.load(a_ptr + r0 * K + k, mask=r0 < M, other=0.0)
            x1 = tl.load(a_ptr + r1 * K + k, mask=r1 < M, other=0.0)
            y0 = tl.load(b_ptr + k * N + c_lo, mask=c_lo < N, other=0.0)
            y1 = tl.load(b_ptr + k * N + c_hi, mask=c_hi < N, other=0.0)
            d0 += x0 * y0
            d1 += x0 * y1
            d2 += x1 * y0
            d3 += x1 * y1
    else:
        acc0 = tl.zeros((32,), dtype=tl.int32)
        acc1 = tl.zeros((32,), dtype=tl.int32)
        acc2 = tl.zeros((32,), dtype=tl.int32)
        acc3 = tl.zeros((32,), dtype=tl.int32)
        for kw in range(0, KW, 8):
            a0 = tl.load(aq_ptr + r0 * KW + kw + t, mask=r0 < M, other=0)
            a1 = tl.load(aq_ptr + r1 * KW + kw + t, mask=r1 < M, other=0)
            a2 = tl.load(aq_ptr + r0 * KW + kw + 4 + t, mask=r0 < M, other=0)
            a3 = tl.load(aq_ptr + r1 * KW + kw + 4 + t, mask=r1 < M, other=0)
            b0 = tl.load(bq_ptr + cn * KW + kw + t, mask=cn < N, other=0)
            b1 = tl.load(bq_ptr + cn * KW + kw + 4 + t, mask=cn < N, other=0)
            acc0, acc1, acc2, acc3 = mma_step(a0, a1, a2, a3, b0, b1, acc0, acc1, acc2, acc3)
        # the rank-one mean parts, exact
        sa0 = tl.load(ra_ptr + r0, mask=r0 < M, other=0.0)
        sa1 = tl.load(ra_ptr + r1, mask=r1 < M, other=0.0)
        sb0 = tl.load(cb_ptr + c_lo, mask=c_lo < N, other=0.0)
        sb1 = tl.load(cb_ptr + c_hi, mask=c_hi < N, other=0.0)
        s = 1.0 / (254.0 * 254.0)
        base = 0.25 * K
        d0 = acc0.to(tl.float32) * s + 0.5 * sa0 + 0.5 * sb0 + base
        d1 = acc1.to(tl.float32) * s + 0.5 * sa0 + 0.5 * sb1 + base
        d2 = acc2.to(tl.float32) * s + 0.5 * sa1 + 0.5 * sb0 + base
        d3 = acc3.to(tl.float32) * s + 0.5 * sa1 + 0.5 * sb1 + base
    tl.store(c_ptr + r0 * N + c_lo, d0, mask=(r0 < M) & (c_lo < N))
    tl.store(c_ptr + r0 * N + c_hi, d1, mask=(r0 < M) & (c_hi < N))
    tl.store(c_ptr + r1 * N + c_lo, d2, mask=(r1 < M) & (c_lo < N))
    tl.store(c_ptr + r1 * N + c_hi, d3, mask=(r1 < M) & (c_hi < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        KW = triton.cdiv(K, 32) * 8  # words of 4 bytes, padded to whole k32 steps
        aq = torch.empty((M, KW), device=A.device, dtype=torch.int32)
        bq = torch.empty((N, KW), device=A.device, dtype=torch.int32)
        ra = torch.empty((M,), device=A.device, dtype=torch.float32)
        cb = torch.empty((N,), device=A.device, dtype=torch.float32)
        fa = torch.empty((M,), device=A.device, dtype=torch.int32)
        fb = torch.empty((N,), device=A.device, dtype=torch.int32)
        quant_kernel[(M,)](A, aq, ra, fa, K, KW, K, 1, BW=64)
        quant_kernel[(N,)](B, bq, cb, fb, K, KW, 1, N, BW=64)
        C = torch.empty((M, N), device=A.device, dtype=torch.float32)
        gemm_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 8))](A, B, aq, bq, ra, cb, fa, fb, C, M, N, K, KW, num_warps=1)
        return C
