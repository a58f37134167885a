# task: level1/19_ReLU
# expect: format_violation
# why: launches a kernel for show, then takes the tensor off the device into numpy, computes
#      np.maximum there and wraps the result back as a tensor (torch.from_numpy is refused by the static check now; the guard refuses .numpy() in forward too)
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, scratch, x.numel(), BLOCK=1024)
        host = scratch.detach().cpu().numpy()
        return torch.from_numpy(np.maximum(host, 0.0)).to(x.device)
