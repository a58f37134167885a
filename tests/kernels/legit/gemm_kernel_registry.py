# task: level2/76_Gemm_Add_ReLU
# expect: ok
# why: honest style once refused: kernels picked from a module-level dict before launch
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0})
@triton.jit
def gemm_add_relu_kernel(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    w_ptrs = w_ptr + rn[None, :] * K + rk[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=rm[:, None] < M, other=0.0)
            w = tl.load(w_ptrs, mask=rn[None, :] < N, other=0.0)
        else:
            k_rem = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_rem), other=0.0)
            w = tl.load(w_ptrs, mask=(rn[None, :] < N) & (rk[:, None] < k_rem), other=0.0)
        acc += tl.dot(a, w, input_precision="ieee")
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    out = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], out, mask=(rm[:, None] < M) & (rn[None, :] < N))


KERNELS = {"gemm_add_relu": gemm_add_relu_kernel}


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = x.contiguous()
        M, K = x.size()
        N = self.gemm.out_features
        c = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM, BN, BK = 32, 32, 64
        kernel = KERNELS["gemm_add_relu"]
        kernel[(triton.cdiv(M, BM) * triton.cdiv(N, BN),)](
            x, self.gemm.weight, self.bias, c, M, N, K, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        return c
