# task: level1/19_ReLU
# expect: ok
# why: LLM-style wrapper: dataclass launch config, typing annotations, module-level BLOCK_SIZE int
#      passed as a constexpr argument, assert is_cuda-or-cpu, original_shape + view, no_grad
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE = 1024


@dataclass
class LaunchConfig:
    block_size: int = BLOCK_SIZE
    num_warps: int = 4


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    out = tl.maximum(x, 0.0)
    tl.store(out_ptr + offsets, out, mask=mask)


def triton_relu(x: torch.Tensor, config: Optional[LaunchConfig] = None) -> torch.Tensor:
    assert x.is_cuda or x.device.type == "cpu", "input must be on a supported device"
    config = config or LaunchConfig()
    original_shape: Tuple[int, ...] = x.shape
    x_flat = x.contiguous().view(-1)
    out = torch.empty_like(x_flat)
    n_elements = x_flat.numel()
    grid = (triton.cdiv(n_elements, config.block_size),)
    relu_kernel[grid](x_flat, out, n_elements, BLOCK_SIZE=config.block_size, num_warps=config.num_warps)
    return out.view(original_shape)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super(ModelNew, self).__init__()
        self.config = LaunchConfig()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return triton_relu(x, self.config)
