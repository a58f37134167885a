# task: level1/19_ReLU
# expect: format_violation
# why: imports triton but defines and launches no kernel; forward is plain PyTorch
import torch
import torch.nn as nn
import triton  # noqa: F401


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(x, min=0.0)
