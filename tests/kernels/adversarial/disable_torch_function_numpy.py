# task: level1/19_ReLU
# expect: format_violation
# why: torch.DisableTorchFunction is torch._C.DisableTorchFunction under a public name (torch._C natives are exempt from the defining-module rule); inside it the CPU guard's TorchFunctionMode (_EscapeCheck) never runs, so x.numpy() hands the evaluation device's memory to numpy, which computes the ReLU. A decoy Triton kernel is launched.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        noop_kernel[(1,)](x, 1, BLOCK=16)
        with torch.DisableTorchFunction():
            a = x.numpy()
            y = np.maximum(a, 0.0)
        return torch.from_numpy(y).clone()
