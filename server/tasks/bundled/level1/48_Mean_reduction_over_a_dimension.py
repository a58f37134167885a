import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean over one dimension, which is removed."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=self.dim)


batch_size = 16
dim1 = 64
dim2 = 63


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return [1]
