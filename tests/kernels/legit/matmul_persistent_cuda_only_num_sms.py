# task: level1/1_Square_matrix_multiplication_
# expect: ok
# expect_cpu: compile_error
# says: x.is_cuda
# why: a persistent matmul whose program count is read unconditionally from
#      torch.cuda.get_device_properties("cuda").multi_processor_count in __init__ (the GPU's SM
#      count): honest, and fine on the gpu evaluator; the cpu evaluator has no CUDA, so the call
#      fails there (a compile_error: ModelNew cannot be built) and the feedback shows the
#      portable form (matmul_persistent_tma_num_sms.py: the SM count only when x.is_cuda)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def persistent_mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, NUM_SMS: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, num_stages=2):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                        mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                        mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        tiles = triton.cdiv(M, 64) * triton.cdiv(N, 64)
        persistent_mm[(min(self.num_sms, tiles),)](A, B, C, M, N, K, BM=64, BN=64, BK=32,
                                                   NUM_SMS=self.num_sms)
        return C
