# task: level1/1_Square_matrix_multiplication_
# expect: compile_error
# says: shapes
# found: session 17, running Triton's front end on the cpu evaluator's launches
# why: a tiled matmul whose `tl.dot` takes 8x8 tiles. Triton's interpreter multiplies them
#      (numpy), so the cpu evaluator scored it correct; Triton's compiler refuses a dot with
#      K < 16 for a GPU target ("Input shapes should have M >= 1, N >= 1 and K >= 16"), so the
#      kernel could never run on a GPU. Each interpreted launch now goes through the code
#      generator first (server/evaluation/front_end.py): refused on both evaluators alike.
import torch
import torch.nn as nn
import triton
import triton.language as tl


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
        BLOCK = 8
        matmul_kernel[(triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK))](A, B, C, N, BLOCK=BLOCK)
        return C
