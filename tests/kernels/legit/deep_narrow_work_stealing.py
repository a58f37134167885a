# task: level3/3_DeepNarrowMLP
# expect: ok
# why: persistent work-stealing programs take row tiles from an atomic counter in a while loop;
#      hidden layers as a tuple of tensors indexed under tl.static_range (false-rejection probe 9)
from typing import List

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_tile(h, w_ptr, b_ptr, N: tl.constexpr, K: tl.constexpr, RELU: tl.constexpr):
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    w = tl.load(w_ptr + n[:, None] * K + k[None, :])
    b = tl.load(b_ptr + n)
    out = tl.dot(h, tl.trans(w), input_precision="ieee") + b[None, :]
    if RELU:
        out = tl.maximum(out, 0.0)
    return out


@triton.jit
def deep_mlp_kernel(x_ptr, w_in, b_in, hidden_ws, hidden_bs, w_out, b_out, y_ptr, counter_ptr, M,
                    D_IN: tl.constexpr, H: tl.constexpr, D_OUT: tl.constexpr,
                    N_HIDDEN: tl.constexpr, BLOCK_M: tl.constexpr):
    n_tiles = tl.cdiv(M, BLOCK_M)
    tile = tl.atomic_add(counter_ptr, 1)
    while tile < n_tiles:
        rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)
        rmask = rows < M
        k = tl.arange(0, D_IN)
        x = tl.load(x_ptr + rows[:, None] * D_IN + k[None, :], mask=rmask[:, None], other=0.0)
        h = linear_tile(x, w_in, b_in, H, D_IN, True)
        for i in tl.static_range(N_HIDDEN):
            h = linear_tile(h, hidden_ws[i], hidden_bs[i], H, H, True)
        y = linear_tile(h, w_out, b_out, D_OUT, H, False)
        n = tl.arange(0, D_OUT)
        tl.store(y_ptr + rows[:, None] * D_OUT + n[None, :], y, mask=rmask[:, None])
        tile = tl.atomic_add(counter_ptr, 1)


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_layer_sizes: List[int], output_size: int):
        super().__init__()
        layers = []
        current = input_size
        for size in hidden_layer_sizes:
            layers.append(nn.Linear(current, size))
            layers.append(nn.ReLU())
            current = size
        layers.append(nn.Linear(current, output_size))
        self.network = nn.Sequential(*layers)
        self.linears = [m for m in self.network if isinstance(m, nn.Linear)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, d_in = x.shape
        first, *hidden, last = self.linears
        H = first.out_features
        y = torch.empty((M, last.out_features), device=x.device, dtype=torch.float32)
        hidden_ws = tuple(l.weight for l in hidden)
        hidden_bs = tuple(l.bias for l in hidden)
        BLOCK_M = 16
        counter = torch.zeros(1, device=x.device, dtype=torch.int32)
        deep_mlp_kernel[(min(triton.cdiv(M, BLOCK_M), 4),)](
            x, first.weight, first.bias, hidden_ws, hidden_bs, last.weight, last.bias, y, counter, M,
            D_IN=d_in, H=H, D_OUT=last.out_features, N_HIDDEN=len(hidden), BLOCK_M=BLOCK_M)
        return y
