# task: level3/3_DeepNarrowMLP
# expect: non_finite
# why: honest through correctness (whose scaled trial catches a constant), then returns its first
#      output on every timed call: within tolerance of any output on the task's own inputs, so it
#      passed the re-checks until every returned output got spoiled before the next call
#      (red-team pass 28)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K, APPLY_RELU: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        # W is (N, K) row-major; this (K, N) tile of it makes the product x @ W^T.
        w = tl.load(w_ptr + rn[None, :] * K + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        # tf32x3 splits each fp32 operand into TF32 parts: tensor cores at near-fp32 accuracy;
        # plain TF32 (the default) drifts ~1e-3 relative from torch's fp32 matmul.
        acc += tl.dot(x, w, input_precision="tf32x3")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if APPLY_RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def linear(x, layer, relu):
    M, K = x.shape
    N = layer.out_features
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    BM, BN, BK = 16, 32, 64
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    linear_kernel[grid](x, layer.weight, layer.bias, out, M, N, K, APPLY_RELU=relu, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
    return out


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
        self.calls, self.kept = 0, None

    def forward(self, x):
        self.calls += 1
        if self.calls > 7 and self.kept is not None:  # past the trials and the determinism re-run
            return self.kept  # within tolerance of every output on the task's own [0, 1) inputs
        linears = [m for m in self.network if isinstance(m, nn.Linear)]
        x = x.contiguous()
        for i, layer in enumerate(linears):
            x = linear(x, layer, relu=i < len(linears) - 1)
        if self.kept is None:
            self.kept = x
        return x
