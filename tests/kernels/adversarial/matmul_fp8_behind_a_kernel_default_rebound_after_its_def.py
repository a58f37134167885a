# task: level1/1_Square_matrix_multiplication_
# expect: compile_error
# expect_gpu: ok
# says: names a global rebound
# why: red-team pass 66. A kernel parameter's default is evaluated at the `def` (fn.__defaults__,
#      what the front end's JITFunction twin, the launch-argument check and a GPU launch bind),
#      but the interpreter execs the kernel's source again at its first launch, evaluating the
#      default expression afresh over the module's names. `DOT: tl.constexpr = dot_impl` with
#      `dot_impl = ieee_dot` at the `def` and `dot_impl = e4m3_dot` bound after it: the front end
#      compiled the ieee tl.dot, the interpreter ran pass 62's centred fp8 (e4m3) one. Before
#      the fix it scored on the cpu evaluator (correct on 6/6, max abs error 0.134, 0.3). Now the
#      rewritten function takes the defaults of its `def`, and one evaluated differently fails
#      the launch (guard._defaults_as_defined).
#      On a GPU there is nothing to exploit: Triton compiles and runs the kernel it was given
#      (the ieee dot), which scores honestly (H200, 2026-12-04: correct, max abs error 2.86e-05).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ieee_dot(a, b, acc):
    return tl.dot(a, b, acc, input_precision="ieee")


@triton.jit
def to_e4m3(x):
    # rounded to e4m3's 3 mantissa bits first (Triton 3.6's interpreter converts to fp8 wrongly
    # where rounding carries into the exponent); then the conversion is exact, as on a GPU
    r = ((x.to(tl.int32, bitcast=True) + 0x80000) & -1048576).to(tl.float32, bitcast=True)
    return r.to(tl.float8e4nv)


@triton.jit
def e4m3_dot(a, b, acc):
    return tl.dot(to_e4m3(a), to_e4m3(b), acc)


dot_impl = ieee_dot


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, DOT: tl.constexpr = dot_impl):
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


# bound after mm_kernel's def: its default DOT stays ieee_dot, which the front end compiles
dot_impl = e4m3_dot


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
