# task: level2/12_Gemm_Multiply_LeakyReLU
# expect: ok
# why: tl.dot(a, b, acc=acc, input_precision="tf32x3", out_dtype=tl.float32) with every argument
#      by keyword, the weight read as (N, K) through a block pointer and transposed with .T,
#      multiplier and slope as kernel scalars, LeakyReLU by tl.where in the epilogue, a
#      @triton.heuristics EVEN_K flag that drops the K mask
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BK"] == 0})
@triton.jit
def gemm_mul_leaky_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, multiplier, slope,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, EVEN_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_blk = tl.make_block_ptr(x_ptr, shape=(M, K), strides=(K, 1), offsets=(pid_m * BM, 0),
                              block_shape=(BM, BK), order=(1, 0))
    w_blk = tl.make_block_ptr(w_ptr, shape=(N, K), strides=(K, 1), offsets=(pid_n * BN, 0),
                              block_shape=(BN, BK), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in tl.range(0, K, BK, num_stages=3):
        if EVEN_K:
            a = tl.load(x_blk, boundary_check=(0,), padding_option="zero")
            w = tl.load(w_blk, boundary_check=(0,), padding_option="zero")
        else:
            a = tl.load(x_blk, boundary_check=(0, 1), padding_option="zero")
            w = tl.load(w_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, w.T, acc=acc, input_precision="tf32x3", out_dtype=tl.float32)
        x_blk = tl.advance(x_blk, (0, BK))
        w_blk = tl.advance(w_blk, (0, BK))
    rn = pid_n * BN + tl.arange(0, BN)
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    y = (acc + bias[None, :]) * multiplier
    y = tl.where(y >= 0, y, y * slope)
    y_blk = tl.make_block_ptr(y_ptr, shape=(M, N), strides=(N, 1), offsets=(pid_m * BM, pid_n * BN),
                              block_shape=(BM, BN), order=(1, 0))
    tl.store(y_blk, y, boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.gemm.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        grid = lambda META: (triton.cdiv(M, META["BM"]), triton.cdiv(N, META["BN"]))
        gemm_mul_leaky_kernel[grid](x, self.gemm.weight, self.gemm.bias, y, M, N, K,
                                    float(self.multiplier), float(self.negative_slope),
                                    BM=32, BN=64, BK=64)
        return y
