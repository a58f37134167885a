# task: level1/1_Square_matrix_multiplication_
# expect: ok
# why: a float32 TF32 matmul whose kernel, helper, parameters and locals have names that read like narrow formats (mma_s8, f8E4, e4m3, e5m2, e2m1, dp4a, u8, fp8, kind) and a hex constant 0xf8E3: names the source chose are not formats
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAGIC = tl.constexpr(0xf8E3)  # an integer constant, not a type


@triton.jit
def dp4a(a, b, acc):
    return acc + tl.dot(a, b)


@triton.jit
def mma_s8_f8E4_kernel(a_ptr, b_ptr, c_ptr, N, e4m3, u8, BLOCK: tl.constexpr, f8E4: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    rk = tl.arange(0, f8E4)
    s8 = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, N, f8E4):
        e5m2 = tl.load(a_ptr + rm[:, None] * N + (k + rk)[None, :],
                       mask=(rm[:, None] < N) & ((k + rk)[None, :] < N), other=0.0)
        e2m1 = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                       mask=((k + rk)[:, None] < N) & (rn[None, :] < N), other=0.0)
        s8 = dp4a(e5m2, e2m1, s8)
    fp8 = s8 * e4m3
    fp16 = fp8 + u8
    kind = (MAGIC & 0) + 0
    tl.store(c_ptr + rm[:, None] * N + rn[None, :] + kind, fp16,
             mask=(rm[:, None] < N) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A, B = A.contiguous(), B.contiguous()
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        BLOCK = 32
        mma_s8_f8E4_kernel[(triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK))](
            A, B, C, N, 1.0, 0.0, BLOCK=BLOCK, f8E4=32)
        return C
