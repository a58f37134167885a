# task: level3/1_MLP
# expect: ok
# why: weight (N, K) tile loaded as (BLOCK_N, BLOCK_K) and fed as tl.trans(w) to tl.dot; module
#      level `BLOCK_M = tl.constexpr(16)` used both in the body and on the host (grid and launch);
#      layers held in a plain Python list of (weight, bias) pairs pulled from the Sequential
import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_M = tl.constexpr(16)


@triton.jit
def linear_act_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                      RELU: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[:, None] * K + rk[None, :], mask=(rn[:, None] < N) & (rk[None, :] < K), other=0.0)
        acc = tl.dot(x, tl.trans(w), acc, input_precision="ieee")
    acc = acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super(ModelNew, self).__init__()
        layers = []
        current_input_size = input_size
        for size in layer_sizes:
            layers.append(nn.Linear(current_input_size, size))
            layers.append(nn.ReLU())
            current_input_size = size
        layers.append(nn.Linear(current_input_size, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        linears = [m for m in self.network if isinstance(m, nn.Linear)]
        h = x.contiguous()
        for i, lin in enumerate(linears):
            M, K = h.shape
            N = lin.weight.shape[0]
            out = torch.empty((M, N), device=h.device, dtype=h.dtype)
            grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, 32))
            linear_act_kernel[grid](h, lin.weight, lin.bias, out, M, N, K,
                                    RELU=i < len(linears) - 1, BLOCK_N=32, BLOCK_K=32)
            h = out
        return h
