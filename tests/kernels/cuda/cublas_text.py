# task: level1/1_Square_matrix_multiplication_
# language: cuda
# expect: format_violation
# why: naming cuBLAS in the CUDA source is refused by the static check, before anything builds
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <cublas_v2.h>
#include <ATen/cuda/CUDAContext.h>

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    int64_t m = a.size(0), k = a.size(1), n = b.size(1);
    auto c = torch::empty({m, n}, a.options());
    float one = 1.0f, zero = 0.0f;
    cublasSgemm(at::cuda::getCurrentCUDABlasHandle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one,
                b.data_ptr<float>(), n, a.data_ptr<float>(), k, &zero, c.data_ptr<float>(), n);
    return c;
}
"""

ext = load_inline(name="kernel_env_cublas", cpp_sources="torch::Tensor matmul(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=CUDA_SOURCE, functions=["matmul"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul(a, b)
