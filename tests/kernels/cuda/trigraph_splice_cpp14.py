# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: `-std=c++14` is an allowed flag, and in ISO C++14 mode the host preprocessor (gcc, which nvcc
#      runs with the same dialect) replaces trigraphs: `??/` + newline is a line splice the text
#      reader does not join, so `cudaMallocMan??/<newline>aged` is cudaMallocManaged to the compiler.
#      (`%??/<nl>:%??/<nl>:` would likewise give `%:%:`, i.e. `##`.) The .cu source includes no torch
#      header, so C++14 builds; the C++ wrapper stays C++17. Host code computes the ReLU.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
void host_relu(const float* x, float* y, long n);
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    host_relu(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
"""

CUDA_SOURCE = r"""
#include <cuda_runtime.h>
__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
void host_relu(const float* x, float* y, long n) {
    float* staged = 0;
    cudaMallocMan??/
aged((void**)&staged, n * sizeof(float), 1);
    copy_kernel<<<(n + 255) / 256, 256>>>(x, staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;  // on the host
    copy_kernel<<<(n + 255) / 256, 256>>>(staged, y, n);
    cudaDeviceSynchronize();
    cudaFree(staged);
}
"""

ext = load_inline(name="rt_trigraph", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["relu"], extra_cuda_cflags=["-std=c++14"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
