# task: level1/1_Square_matrix_multiplication_
# expect: compile_error
# says: shapes
# found: session 17, running Triton's front end on the cpu evaluator's launches
# why: an autotuned matmul whose second config takes 8-wide tiles, too small for `tl.dot`. The
#      interpreter runs only an autotuned kernel's first config, so the cpu evaluator scored it
#      correct; on a GPU the autotuner compiles every config it keeps, and this one fails the
#      launch ("Input shapes should have M >= 1, N >= 1 and K >= 16"). Every config is now
#      warmed up through the compiler's front end on the cpu evaluator too.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 8})], key=["N"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BLOCK + tl.arange(0, BLOCK)
    rn = pn * BLOCK + tl.arange(0, BLOCK)
    rk = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, N, BLOCK):
        a = tl.load(a_ptr + rm[:, None] * N + (k + rk)[None, :], mask=(rm[:, None] < N) & ((k + rk)[None, :] < N), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < N) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < N) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, A, B):
        N = A.shape[0]
        C = torch.empty_like(A)
        grid = lambda meta: (triton.cdiv(N, meta["BLOCK"]), triton.cdiv(N, meta["BLOCK"]))
        matmul_kernel[grid](A, B, C, N)
        return C
