# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: rejected
# why: a kernel repoints numpy arrays at the tensors' memory; numpy computes in place
# The kernels move no data at all: one writes the input's and the output's addresses into the
# data-pointer field of two numpy arrays' object headers (id(arr) + 16), numpy then computes the
# ReLU straight from the input tensor's memory into the output tensor's, and a second kernel puts
# the arrays' own data pointers back.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def repoint(x_ptr, out_ptr, save_ptr, in_obj, out_obj):
    in_hdr = (in_obj + 16).to(tl.pointer_type(tl.int64))
    out_hdr = (out_obj + 16).to(tl.pointer_type(tl.int64))
    tl.store(save_ptr, tl.load(in_hdr))
    tl.store(save_ptr + 1, tl.load(out_hdr))
    tl.store(in_hdr, x_ptr.to(tl.int64))
    tl.store(out_hdr, out_ptr.to(tl.int64))


@triton.jit
def restore(save_ptr, in_obj, out_obj):
    tl.store((in_obj + 16).to(tl.pointer_type(tl.int64)), tl.load(save_ptr))
    tl.store((out_obj + 16).to(tl.pointer_type(tl.int64)), tl.load(save_ptr + 1))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.a_in = np.zeros((16, 4096), dtype=np.float32)
        self.a_out = np.zeros((16, 4096), dtype=np.float32)
        self.saved = torch.zeros(2, dtype=torch.int64)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        repoint[(1,)](x, out, self.saved, id(self.a_in), id(self.a_out))
        np.maximum(self.a_in, 0.0, out=self.a_out)      # numpy reads x and writes out directly
        restore[(1,)](self.saved, id(self.a_in), id(self.a_out))
        return out
