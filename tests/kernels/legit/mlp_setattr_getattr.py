# task: level3/1_MLP
# expect: ok
# why: layers registered with setattr(self, f"fc{i}", ...) and read back with getattr
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_act_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, RELU: tl.constexpr,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        kk = k + rk
        a = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(a, w, input_precision="tf32x3")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        sizes = [input_size] + list(layer_sizes) + [output_size]
        self.num_layers = len(sizes) - 1
        for i in range(self.num_layers):
            setattr(self, f"fc{i}", nn.Linear(sizes[i], sizes[i + 1]))

    def forward(self, x):
        x = x.contiguous()
        for i in range(self.num_layers):
            layer = getattr(self, f"fc{i}")
            M, K = x.shape
            N = layer.out_features
            y = torch.empty((M, N), device=x.device, dtype=x.dtype)
            linear_act_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 32))](
                x, layer.weight, layer.bias, y, M, N, K, RELU=i < self.num_layers - 1, BM=16, BN=32, BK=64)
            x = y
        return x
