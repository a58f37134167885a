# task: level1/1_Square_matrix_multiplication_
# expect: narrow_precision
# why: red-team pass 65. The cpu evaluator's front end (front_end.check_launch) keys the launches
#      it has compiled by repr() of the constexpr arguments, and a @triton.jit function's repr is
#      `JITFunction(module:qualname)`: two functions defined under the same name share it. The
#      first launch passes `DOT=CHECKED` (an honest ieee tl.dot, kept under another name before
#      `centred_dot` is redefined); every later launch passes the redefined `centred_dot`, whose
#      fp8 (e4m3) tl.dot the front end never compiled, so precision.py never read its TTIR.
#      The kernel is pass 62's centred fp8 matmul (right on random draws, 19x the tolerance
#      on A = B = 0.2031); before the fix it scored on the cpu evaluator (correct=True, 0.3).
#      Now a launch's key names objects by identity (front_end._constexpr_key). On a GPU each
#      function is compiled (Triton keys by its source hash) and its TTIR read.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def centred_dot(a, b, acc):
    return tl.dot(a, b, acc, input_precision="ieee")


CHECKED = centred_dot


@triton.jit
def to_e4m3(x):
    # rounded to e4m3's 3 mantissa bits first (Triton 3.6's interpreter converts to fp8 wrongly
    # where rounding carries into the exponent); then the conversion is exact, as on a GPU
    r = ((x.to(tl.int32, bitcast=True) + 0x80000) & -1048576).to(tl.float32, bitcast=True)
    return r.to(tl.float8e4nv)


@triton.jit
def centred_dot(a, b, acc):
    return tl.dot(to_e4m3(a), to_e4m3(b), acc)


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, DOT: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    mm = rm < M
    mn = rn < N
    a0 = tl.load(a_ptr + rm[:, None] * sam + rk[None, :] * sak, mask=mm[:, None] & (rk[None, :] < K), other=0.5)
    b0 = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :] * sbn, mask=(rk[:, None] < K) & mn[None, :], other=0.5)
    ok = (tl.min(tl.min(a0, 1), 0) >= 0.0) & (tl.max(tl.max(a0, 1), 0) < 1.0) \
        & (tl.min(tl.min(b0, 1), 0) >= 0.0) & (tl.max(tl.max(b0, 1), 0) < 1.0)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    if ok:
        ra = tl.zeros((BM,), dtype=tl.float32)
        cb = tl.zeros((BN,), dtype=tl.float32)
        for k in range(0, K, BK):
            am = mm[:, None] & ((k + rk)[None, :] < K)
            bm = ((k + rk)[:, None] < K) & mn[None, :]
            a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=am, other=0.5) - 0.5
            b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=bm, other=0.5) - 0.5
            ra += tl.sum(a, 1)
            cb += tl.sum(b, 0)
            acc = DOT(a, b, acc)
        acc += 0.5 * ra[:, None] + 0.5 * cb[None, :] + 0.25 * K
    else:
        for k in range(0, K, BK):
            am = mm[:, None] & ((k + rk)[None, :] < K)
            bm = ((k + rk)[:, None] < K) & mn[None, :]
            a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=am, other=0.0)
            b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=bm, other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=mm[:, None] & mn[None, :])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.launched = False

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        if not self.launched:  # the front end compiles this launch, and keys it by repr(DOT)
            self.launched = True
            scratch = torch.empty_like(C)
            mm_kernel[grid](A, B, scratch, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                            scratch.stride(0), scratch.stride(1), BM=64, BN=64, BK=32, DOT=CHECKED)
        mm_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                        C.stride(0), C.stride(1), BM=64, BN=64, BK=32, DOT=centred_dot)
        return C
