# task: level2/76_Gemm_Add_ReLU
# expect: ok
# why: @triton.autotune with prune_configs_by={"early_config_prune": fn, "perf_model": None,
#      "top_k": None}, a triton.Config carrying a pre_hook, key=["M","N","K"]; weight consumed
#      as (N, K) through strides (no transpose copy), bias add + ReLU epilogue; torch.cuda.is_available
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _prune(configs, named_args, **kwargs):
    K = named_args["K"]
    kept = [c for c in configs if c.kwargs["BLOCK_K"] <= K]
    return kept or configs[:1]


def _noop_hook(nargs):
    pass


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}, num_warps=4, num_stages=2, pre_hook=_noop_hook),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 512}, num_warps=8, num_stages=3),
    ],
    key=["M", "N", "K"],
    prune_configs_by={"early_config_prune": _prune, "perf_model": None, "top_k": None},
)
@triton.jit
def gemm_bias_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                          stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + rm[:, None] * stride_xm + rk[None, :] * stride_xk
    w_ptrs = w_ptr + rn[None, :] * stride_wn + rk[:, None] * stride_wk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptrs, mask=(rm[:, None] < M) & (rk[None, :] + k < K), other=0.0)
        w = tl.load(w_ptrs, mask=(rn[None, :] < N) & (rk[:, None] + k < K), other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    acc = tl.maximum(acc + b[None, :], 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        if not x.is_contiguous():
            x = x.contiguous()
        w = self.gemm.weight
        M, K = x.shape
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        gemm_bias_relu_kernel[grid](x, w, self.bias, y, M, N, K,
                                    x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                    y.stride(0), y.stride(1))
        return y
