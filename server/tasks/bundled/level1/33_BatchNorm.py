import torch
import torch.nn as nn


class Model(nn.Module):
    """BatchNorm2d over (batch_size, num_features, H, W); in training mode it uses batch statistics."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 4
features = 8
dim1 = 32
dim2 = 32


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [features]
