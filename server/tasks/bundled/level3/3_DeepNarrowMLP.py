import torch
import torch.nn as nn


class Model(nn.Module):
    """Deep, narrow multi-layer perceptron: many Linear+ReLU layers, then a final Linear."""

    def __init__(self, input_size, hidden_layer_sizes, output_size):
        super().__init__()
        layers = []
        current_input_size = input_size
        for size in hidden_layer_sizes:
            layers.append(nn.Linear(current_input_size, size))
            layers.append(nn.ReLU())
            current_input_size = size
        layers.append(nn.Linear(current_input_size, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


batch_size = 16
input_size = 128
hidden_layer_sizes = [32] * 8
output_size = 64


def get_inputs():
    return [torch.rand(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_layer_sizes, output_size]
