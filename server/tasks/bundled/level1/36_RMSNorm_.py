import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS normalisation over the feature dimension (dim=1) of a (batch, features, *) tensor."""

    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms


batch_size = 4
features = 16
dim1 = 32
dim2 = 32


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [features]
