# task: level2/76_Gemm_Add_ReLU
# expect: output_mismatch
# why: red-team pass 86: the output columns that 20 000 torch.rand draws keep positive (23 of 128
#      at these weights), though in-range inputs drive them negative, are stored without the ReLU
#      clamp (every column clamped once a flag scan finds a negative input: the random-sign
#      trial). Scored 3 of 3 on the cpu evaluator: the unit trials only drove units up. Now the
#      samples a trial gives beyond the quiet units drive down the units the draw never clipped
#      (caught 3 of 3 at the unit trials). On this task it skipped no work; after ReLU -> Sum,
#      folding such columns would skip their share of the GEMM.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nonneg_flag_kernel(x_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    neg = tl.sum((x < 0.0).to(tl.int32), axis=0)
    tl.atomic_max(flag_ptr, neg)


@triton.jit
def linear_bias_relu_kernel(x_ptr, w_ptr, b_ptr, clamp_ptr, flag_ptr, out_ptr, M, N, K, stride_wk, stride_wn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, w, input_precision="ieee")
    y = acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    clamp = tl.load(clamp_ptr + rn, mask=rn < N, other=1.0)
    flag = tl.load(flag_ptr)
    clamp = tl.where(flag > 0, 1.0, clamp)
    y = tl.where(clamp[None, :] > 0.5, tl.maximum(y, 0.0), y)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        with torch.no_grad():
            draws = torch.rand(20000, in_features)
            pre = draws @ self.gemm.weight.t() + self.bias
            low = pre.min(0).values
            sd = pre.std(0)
            mean = pre.mean(0)
            corner_min = self.bias + self.gemm.weight.clamp(max=0).sum(1)
            always_on = (low > 0) & (mean - 6 * sd > 0) & (corner_min < 0)
            self.register_buffer("clamp", (~always_on).float())
        self.unclamped = int(always_on.sum())

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w_t = self.gemm.weight.t()
        N = w_t.shape[1]
        flag = torch.zeros(1, device=x.device, dtype=torch.int32)
        n = x.numel()
        nonneg_flag_kernel[(triton.cdiv(n, 1024),)](x, flag, n, BLOCK=1024)
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM, BN, BK = 32, 64, 64
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        linear_bias_relu_kernel[grid](x, w_t, self.bias, self.clamp, flag, out, M, N, K, w_t.stride(0), w_t.stride(1),
                                      BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        return out
