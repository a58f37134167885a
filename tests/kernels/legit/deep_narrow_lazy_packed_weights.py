# task: level3/3_DeepNarrowMLP
# expect: ok
# why: lazily packs the hidden layers' weights once, on the first forward, into one tensor with
#      torch.stack (a device-local copy), cached on self (None sentinel); the first and last layers
#      launched on their own; one kernel per hidden layer reads its slice of the packed tensor
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_rows_kernel(x_ptr, w_ptr, b_ptr, y_ptr, K, N, RELU: tl.constexpr,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    n = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        xv = tl.load(x_ptr + row * K + k, mask=k < K, other=0.0)
        w = tl.load(w_ptr + n[:, None] * K + k[None, :], mask=(n[:, None] < N) & (k[None, :] < K), other=0.0)
        acc += tl.sum(w * xv[None, :], axis=1)
    acc += tl.load(b_ptr + n, mask=n < N, other=0.0)
    if RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + row * N + n, acc, mask=n < N)


def _linear(x, w, b, relu):
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    linear_rows_kernel[(M,)](x, w, b, y, K, N, RELU=relu, BLOCK_K=min(128, triton.next_power_of_2(K)),
                             BLOCK_N=triton.next_power_of_2(N))
    return y


class ModelNew(nn.Module):
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
        self.packed = None

    def forward(self, x):
        linears = [m for m in self.network if isinstance(m, nn.Linear)]
        hidden = linears[1:-1]
        if self.packed is None:
            self.packed = (torch.stack([l.weight for l in hidden]), torch.stack([l.bias for l in hidden]))
        w_pack, b_pack = self.packed
        h = _linear(x.contiguous(), linears[0].weight, linears[0].bias, True)
        for i in range(len(hidden)):
            h = _linear(h, w_pack[i], b_pack[i], True)
        return _linear(h, linears[-1].weight, linears[-1].bias, False)
