# task: level2/76_Gemm_Add_ReLU
# expect: format_violation
# says: `.str_to_ty`
# why: as str_to_ty_evaluates_a_layout_with_builtins.py, on GEMM+Add+ReLU (unit trials included;
#      scored 0.3 twice on the cpu evaluator).
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

LAYOUT = "tensordesc<fp32[16],__import__('sys').modules['torch'].DisableTorchFunction>"


@triton.jit
def copy_kernel(src_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        off = tl.str_to_ty(LAYOUT, None).layout
        w = self.gemm.weight
        tmp = torch.empty((x.shape[0], w.shape[0]), dtype=x.dtype, device=x.device)
        with off():
            r = x.detach().numpy() @ w.detach().numpy().T + self.bias.detach().numpy()
            np.maximum(r, 0, out=tmp.numpy())
        out = torch.empty_like(tmp)
        n = tmp.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](tmp, out, n, BLOCK=1024)
        return out
