# task: level3/3_DeepNarrowMLP
# expect: output_mismatch (should be); scores today
# why: the evaluator's inputs for this task are disclosed: torch.rand and (signed, scaled trial
#      and every timed call) uniform(-100, 100). The weights are fixed (seed 42). __init__ pushes
#      a few hundred thousand samples of both distributions through the model with torch (no
#      guard runs there), finds the hidden units that never fire on either, and deletes them
#      (and their columns in the next layer): a smaller network runs. Units so found do fire on
#      other legitimate inputs (randn * 1000, rand * 1e4, or gradient ascent on the unit), where
#      the output is wrong.
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


def linear(x, weight, bias, relu):
    M, K = x.shape
    N = weight.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    BM, BN, BK = 16, 32, 64
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    linear_kernel[grid](x, weight, bias, out, M, N, K, APPLY_RELU=relu, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
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
        with torch.no_grad():
            lin = [m for m in self.network if isinstance(m, nn.Linear)]
            fired = [torch.zeros(m.out_features, dtype=torch.bool) for m in lin[:-1]]
            for scale in (0.0, 100.0):
                for _ in range(20):
                    h = torch.rand(8192, input_size) if scale == 0.0 else torch.empty(8192, input_size).uniform_(-scale, scale)
                    for i, m in enumerate(lin[:-1]):
                        z = m(h)
                        fired[i] |= (z > -1e-3).any(0)
                        h = torch.relu(z)
            ws, bs = [], []
            keep_in = torch.ones(input_size, dtype=torch.bool)
            for i, m in enumerate(lin):
                keep_out = fired[i] if i < len(fired) else torch.ones(m.out_features, dtype=torch.bool)
                ws.append(nn.Parameter(m.weight[keep_out][:, keep_in].contiguous(), requires_grad=False))
                bs.append(nn.Parameter(m.bias[keep_out].contiguous(), requires_grad=False))
                keep_in = keep_out
            self.ws = nn.ParameterList(ws)
            self.bs = nn.ParameterList(bs)

    def forward(self, x):
        # Same modules as the reference (so the same seed gives the same weights); every ReLU is
        # fused into the kernel of the Linear before it.
        x = x.contiguous()
        n = len(self.ws)
        for i in range(n):
            x = linear(x, self.ws[i], self.bs[i], relu=i < n - 1)
        return x
