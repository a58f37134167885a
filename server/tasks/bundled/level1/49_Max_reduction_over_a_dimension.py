import torch
import torch.nn as nn


class Model(nn.Module):
    """Max over one dimension (values only), which is removed."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=self.dim)[0]


batch_size = 16
dim1 = 64
dim2 = 63


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return [1]
