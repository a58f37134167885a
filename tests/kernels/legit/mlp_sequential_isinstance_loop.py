# task: level3/1_MLP
# expect: ok
# why: keeps the reference's nn.Sequential; forward walks it, launching one fused linear(+ReLU)
#      kernel per nn.Linear and folding the following nn.ReLU into it (isinstance checks on the
#      modules, a look-ahead index); weights read with their own strides
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                  stride_xm, stride_wn, stride_ym,
                  APPLY_RELU: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        # W is (N, K): load a (BLOCK_K, BLOCK_N) tile of W^T
        w = tl.load(w_ptr + rn[None, :] * stride_wn + kk[:, None],
                    mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    if APPLY_RELU:
        acc = tl.maximum(acc, 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def triton_linear(x: torch.Tensor, layer: nn.Linear, relu: bool) -> torch.Tensor:
    M, K = x.shape
    N = layer.out_features
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    BM, BN, BK = 16, 32, 32
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    linear_kernel[grid](x, layer.weight, layer.bias, y, M, N, K,
                        x.stride(0), layer.weight.stride(0), y.stride(0),
                        APPLY_RELU=relu, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
    return y


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
        x = x.contiguous()
        modules = list(self.network)
        i = 0
        while i < len(modules):
            layer = modules[i]
            if isinstance(layer, nn.Linear):
                fuse = i + 1 < len(modules) and isinstance(modules[i + 1], nn.ReLU)
                x = triton_linear(x, layer, fuse)
                i += 2 if fuse else 1
            else:
                raise RuntimeError(f"unexpected layer {type(layer).__name__}")
        return x
