import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the trailing (features, dim1, dim2) dimensions, with learnable affine params."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


batch_size = 4
features = 8
dim1 = 32
dim2 = 32


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [(features, dim1, dim2)]
