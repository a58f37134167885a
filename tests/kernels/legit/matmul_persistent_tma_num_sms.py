# task: level1/2_Standard_matrix_multiplication_
# expect: ok
# why: a persistent matmul (Triton's 09 tutorial style): one program per SM looping over output
#      tiles with tl.range(start, num_tiles, NUM_SMS, flatten=True, warp_specialize=...), grouped
#      tile order, device-side tensor descriptors with a module-level triton.set_allocator, NUM_SMS
#      from torch.cuda.get_device_properties(...).multi_processor_count where the input is on a
#      GPU and a fixed count elsewhere, a grid lambda of META
import torch
import torch.nn as nn
import triton
import triton.language as tl


def alloc_fn(size, alignment, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


triton.set_allocator(alloc_fn)


@triton.jit
def _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    group_size = GROUP_M * num_pid_n
    group_id = tile_id // group_size
    first_m = group_id * GROUP_M
    rows_in_group = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (tile_id % group_size) % rows_in_group
    pid_n = (tile_id % group_size) // rows_in_group
    return pid_m, pid_n


@triton.jit
def persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                             WARP_SPECIALIZE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BK)
    for tile_id in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True,
                            warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([ki * BK, pid_n * BN])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A, B = A.contiguous(), B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=torch.float32)
        if A.is_cuda:
            num_sms = torch.cuda.get_device_properties(A.device).multi_processor_count
        else:
            num_sms = 4
        grid = lambda META: (min(META["NUM_SMS"], triton.cdiv(M, META["BM"]) * triton.cdiv(N, META["BN"])),)
        persistent_matmul_kernel[grid](A, B, C, M, N, K, BM=32, BN=32, BK=32, GROUP_M=2,
                                       NUM_SMS=num_sms, WARP_SPECIALIZE=False, num_warps=4, num_stages=3)
        return C
