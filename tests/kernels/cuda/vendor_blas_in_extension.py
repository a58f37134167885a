# task: level1/1_Square_matrix_multiplication_
# language: cuda
# expect: foreign_kernel
# why: the extension calls cuBLAS through ATen's C++ BLAS wrapper (no dispatcher, no "cublas" in the text); kernel provenance sees cuBLAS's kernels
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDABlas.h>

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    int64_t m = a.size(0), k = a.size(1), n = b.size(1);
    auto c = torch::empty({m, n}, a.options());
    // row-major C = A B is column-major C^T = B^T A^T
    at::cuda::blas::gemm<float>('n', 'n', n, m, k, 1.0f, b.data_ptr<float>(), n,
                                a.data_ptr<float>(), k, 0.0f, c.data_ptr<float>(), n);
    return c;
}
"""

ext = load_inline(name="kernel_env_vendor_gemm", cpp_sources="torch::Tensor matmul(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=CUDA_SOURCE, functions=["matmul"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul(a.contiguous(), b.contiguous())
