# task: level1/1_Square_matrix_multiplication_
# expect: format_violation
# found: the H200 run of session 16 (it had been accepted on the cpu evaluator as legitimate)
# why: a kernel calling `Helpers.cast_out(...)`, a @staticmethod @triton.jit of a module-level
#      class. Triton's compiler refuses it ("Cannot access global variable Helpers from within
#      @jit'ed function": a class is no constexpr global) while its interpreter runs it, so the
#      cpu evaluator accepted what the gpu evaluator fails to compile; and such a method can be
#      swapped for host code at run time (red-team pass 33). Both evaluators now refuse it in the
#      static stage, naming the fix (a module-level @triton.jit helper).
import torch
import torch.nn as nn
import triton
import triton.language as tl


class Helpers:
    @staticmethod
    @triton.jit
    def cast_out(acc, ptr):
        return acc.to(ptr.dtype.element_ty)


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(sam, sak), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(sbk, sbn), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b.T.T, acc, input_precision="ieee")
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(scm, scn), offsets=(pid_m * BM, pid_n * BN),
                             block_shape=(BM, BN), order=(1, 0))
    tl.store(c_bp, Helpers.cast_out(acc, c_ptr), boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous(); B = B.contiguous()
        M, K = A.shape
        _, N = B.shape
        C = torch.empty((M, N), dtype=A.dtype, device=A.device)
        grid = lambda meta: (triton.cdiv(M, meta["BM"]), triton.cdiv(N, meta["BN"]))
        mm_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                        C.stride(0), C.stride(1), BM=64, BN=64, BK=64)
        return C
