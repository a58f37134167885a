# task: level1/1_Square_matrix_multiplication_
# expect: runtime_error
# expect_gpu: rejected
# why: the same on a GEMM: numpy's matmul computes from and into torch's memory
# Same as numpy_header_repointed_by_kernel.py, on a GEMM: the kernel writes three addresses into
# numpy array headers; numpy's matmul (BLAS) computes A @ B from and into torch's memory.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def swap_ptr(obj, new_addr, save_ptr, slot):
    hdr = (obj + 16).to(tl.pointer_type(tl.int64))
    tl.store(save_ptr + slot, tl.load(hdr))
    tl.store(hdr, new_addr.to(tl.int64))


@triton.jit
def put_back(obj, save_ptr, slot):
    tl.store((obj + 16).to(tl.pointer_type(tl.int64)), tl.load(save_ptr + slot))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.views = [np.zeros((128, 128), dtype=np.float32) for _ in range(3)]
        self.saved = torch.zeros(3, dtype=torch.int64)

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        C = torch.empty((A.shape[0], B.shape[1]), dtype=A.dtype, device=A.device)
        for slot, t in enumerate((A, B, C)):
            swap_ptr[(1,)](id(self.views[slot]), t, self.saved, slot)
        np.matmul(self.views[0], self.views[1], out=self.views[2])
        for slot in range(3):
            put_back[(1,)](id(self.views[slot]), self.saved, slot)
        return C
