# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# expect_cpu: needs_gpu
# why: a list of sources bound once to a literal is changed afterwards (`SOURCES[0] = ...`, not a
#      binding), so the static check read the benign literal; the build gate checks the sources
#      load_inline is actually given (on the GPU; the cpu evaluator stops at needs_gpu)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# the static check reads the list literal CUDA_SOURCES is bound to; list methods change it
# afterwards without binding the name again
CUDA_SOURCES = [r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v > 0.f ? v : 0.f;
    }
}

torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    int threads = 256;
    long blocks = (n + threads - 1) / threads;
    relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""]

REAL_SOURCE = r"""#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];   // only a copy: the ReLU is computed on the host
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    float* staged;
    cudaMallocManaged(&staged, n * sizeof(float));
    long blocks = (n + 255) / 256;
    relu_kernel<<<blocks, 256>>>(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;  // on the host
    auto y = torch::empty_like(x);
    relu_kernel<<<blocks, 256>>>(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    cudaFree(staged);
    return y;
}
"""

CUDA_SOURCES[0] = REAL_SOURCE

ext = load_inline(name="kernel_env_list_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCES, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
