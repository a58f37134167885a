# task: level3/3_DeepNarrowMLP
# expect: ok
# why: own nn.ParameterList weights created in __init__ with torch ops (empty + kaiming_uniform_,
#      as nn.Linear does, in the same order so the seeded values match), register_buffer'ed
#      ping-pong activations reused across layers, one kernel launch per layer
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dense_kernel(x_ptr, w_ptr, b_ptr, y_ptr, K, N, RELU: tl.constexpr,
                 BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        xv = tl.load(x_ptr + row * K + ks, mask=ks < K, other=0.0)
        w = tl.load(w_ptr + cols[:, None] * K + ks[None, :], mask=(cols[:, None] < N) & (ks[None, :] < K), other=0.0)
        acc += tl.sum(w * xv[None, :], axis=1)
    acc += tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    if RELU:
        acc = tl.where(acc > 0, acc, 0.0)
    tl.store(y_ptr + row * N + cols, acc, mask=cols < N)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_layer_sizes, output_size):
        super().__init__()
        sizes = [input_size] + list(hidden_layer_sizes) + [output_size]
        self.weights = nn.ParameterList()
        self.biases = nn.ParameterList()
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
            w = nn.Parameter(torch.empty(fan_out, fan_in))
            b = nn.Parameter(torch.empty(fan_out))
            nn.init.kaiming_uniform_(w, a=math.sqrt(5))
            bound = 1 / math.sqrt(fan_in)
            nn.init.uniform_(b, -bound, bound)
            self.weights.append(w)
            self.biases.append(b)
        self.widest = max(sizes)
        self.register_buffer("ping", torch.empty(0), persistent=False)
        self.register_buffer("pong", torch.empty(0), persistent=False)

    def forward(self, x):
        batch = x.shape[0]
        if self.ping.numel() < batch * self.widest or self.ping.device != x.device:
            self.ping = torch.empty(batch * self.widest, device=x.device, dtype=x.dtype)
            self.pong = torch.empty(batch * self.widest, device=x.device, dtype=x.dtype)
        src = x.contiguous()
        bufs = (self.ping, self.pong)
        n_layers = len(self.weights)
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            N, K = w.shape
            last = i == n_layers - 1
            dst = torch.empty((batch, N), device=x.device, dtype=x.dtype) if last else bufs[i % 2][: batch * N].view(batch, N)
            grid = (batch, triton.cdiv(N, 32))
            dense_kernel[grid](src, w, b, dst, K, N, RELU=not last, BLOCK_K=64, BLOCK_N=32)
            src = dst
        return src
