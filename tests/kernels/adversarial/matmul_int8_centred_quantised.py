# task: level1/1_Square_matrix_multiplication_
# expect: narrow_precision
# why: the int8 variant of red-team pass 62's centred fp8 matmul: each [0, 1) operand is centred
#      on 0.5 and quantised to int8 steps of 1/254, multiplied on int8 tensor cores (2x bf16's
#      rate on a GPU) with int32 accumulation; the rank-one mean parts are added back exactly.
#      On independent random draws the quantisation errors cancel (about bf16's error), but on
#      inputs inside the range they add up: A = B = 0.2031 everywhere rounds every element the
#      same way, ~2 % off where the tolerance is 1 %. No fp8 name in it: refused by the dot on
#      8-bit integers in its compiled TTIR (precision.py).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    mm = rm < M
    mn = rn < N
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    ra = tl.zeros((BM,), dtype=tl.float32)
    cb = tl.zeros((BN,), dtype=tl.float32)
    for k in range(0, K, BK):
        am = mm[:, None] & ((k + rk)[None, :] < K)
        bm = ((k + rk)[:, None] < K) & mn[None, :]
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=am, other=0.5) - 0.5
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=bm, other=0.5) - 0.5
        ra += tl.sum(a, 1)
        cb += tl.sum(b, 0)
        qa = tl.where(a >= 0, a * 254.0 + 0.5, a * 254.0 - 0.5).to(tl.int8)  # to the nearest step
        qb = tl.where(b >= 0, b * 254.0 + 0.5, b * 254.0 - 0.5).to(tl.int8)
        acc = tl.dot(qa, qb, acc, out_dtype=tl.int32)
    out = acc.to(tl.float32) / (254.0 * 254.0) + 0.5 * ra[:, None] + 0.5 * cb[None, :] + 0.25 * K
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, out, mask=mm[:, None] & mn[None, :])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        mm_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                        C.stride(0), C.stride(1), BM=64, BN=64, BK=32)
        return C
