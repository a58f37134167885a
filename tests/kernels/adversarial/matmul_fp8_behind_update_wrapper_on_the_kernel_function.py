# task: level1/1_Square_matrix_multiplication_
# expect: format_violation
# says: functools.update_wrapper
# why: red-team pass 66. Triton's interpreter takes a kernel's source with inspect.getsourcelines,
#      which follows `__wrapped__`; the front end's JITFunction twin is built over the function's
#      own code (no `__wrapped__`). `functools.update_wrapper(mm_kernel.fn, mm_fast.fn)` is a
#      call, not an assignment into the kernel (which the static check refuses), so `mm_kernel`
#      (an honest ieee tl.dot matmul) was compiled and read by precision.py while the
#      interpreter exec'd `mm_fast`'s source: pass 62's centred fp8 (e4m3) matmul, a @triton.jit
#      function never launched and so never compiled. Before the fix it scored on the cpu
#      evaluator (correct on 6/6, max abs error 0.151, 0.3). Now a @triton.jit function carrying
#      `__wrapped__` fails the launch (front_end._reads_its_own_source, in the front end and in
#      the interpreter's rewrite; test_front_end's
#      `test_a_kernel_function_that_wraps_another_fails_its_launch`), and since red-team pass 73
#      the static check refuses functools.update_wrapper itself (it set a kernel's `rewriter`).
#      On a GPU there was nothing to exploit: Triton compiles and runs the kernel it was given
#      (the ieee dot), which scored honestly (H200, 2026-12-04: correct, max abs error 0).
import functools
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def to_e4m3(x):
    # rounded to e4m3's 3 mantissa bits first (Triton 3.6's interpreter converts to fp8 wrongly
    # where rounding carries into the exponent); then the conversion is exact, as on a GPU
    r = ((x.to(tl.int32, bitcast=True) + 0x80000) & -1048576).to(tl.float32, bitcast=True)
    return r.to(tl.float8e4nv)


@triton.jit
def mm_fast(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
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
            acc = tl.dot(to_e4m3(a), to_e4m3(b), acc)
        acc += 0.5 * ra[:, None] + 0.5 * cb[None, :] + 0.25 * K
    else:
        for k in range(0, K, BK):
            am = mm[:, None] & ((k + rk)[None, :] < K)
            bm = ((k + rk)[:, None] < K) & mn[None, :]
            a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=am, other=0.0)
            b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=bm, other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=mm[:, None] & mn[None, :])


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
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        am = mm[:, None] & ((k + rk)[None, :] < K)
        bm = ((k + rk)[:, None] < K) & mn[None, :]
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=am, other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=bm, other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=mm[:, None] & mn[None, :])


functools.update_wrapper(mm_kernel.fn, mm_fast.fn)


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
