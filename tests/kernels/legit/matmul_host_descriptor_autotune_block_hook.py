# task: level1/1_Square_matrix_multiplication_
# expect: ok
# why: Triton's 09 tutorial form of an autotuned TMA matmul: host-side TensorDescriptors made
#      with a dummy block shape, and a triton.Config pre_hook that sets each descriptor's
#      block_shape from the config's block sizes (nargs["a_desc"].block_shape = [BM, BK]);
#      B read as B^T through a descriptor on a transposed copy, tl.dot(a, b.T)
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


def _set_block_shapes(nargs):
    BM, BN, BK = nargs["BM"], nargs["BN"], nargs["BK"]
    nargs["a_desc"].block_shape = [BM, BK]
    nargs["b_desc"].block_shape = [BN, BK]
    nargs["c_desc"].block_shape = [BM, BN]


@triton.autotune(
    configs=[triton.Config({"BM": 64, "BN": 64, "BK": 32}, num_warps=4, num_stages=3, pre_hook=_set_block_shapes),
             triton.Config({"BM": 32, "BN": 64, "BK": 64}, num_warps=4, num_stages=4, pre_hook=_set_block_shapes)],
    key=["M", "N", "K"],
)
@triton.jit
def tma_host_matmul(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK):
        a = a_desc.load([off_m, k])
        b = b_desc.load([off_n, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        Bt = B.t().contiguous()  # (N, K), K-major like the tutorial's b
        M, K = A.shape
        N = Bt.shape[0]
        C = torch.empty((M, N), device=A.device, dtype=torch.float32)
        dummy = [1, 1]
        a_desc = TensorDescriptor(A, A.shape, A.stride(), dummy)
        b_desc = TensorDescriptor(Bt, Bt.shape, Bt.stride(), dummy)
        c_desc = TensorDescriptor(C, C.shape, C.stride(), dummy)
        grid = lambda META: (triton.cdiv(M, META["BM"]), triton.cdiv(N, META["BN"]))
        tma_host_matmul[grid](a_desc, b_desc, c_desc, M, N, K)
        return C
