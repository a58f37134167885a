# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: `case CUDA_SOURCE:` rebinds the source name through a match capture, which the binding count
#      missed: the static check followed the name to a benign literal while load_inline built
#      another; every binding form now counts
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# the static check follows CUDA_SOURCE to its one assignment; a match capture pattern
# (`case CUDA_SOURCE:`) rebinds it, and binding_counts does not count MatchAs names
CUDA_SOURCE = r"""
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
"""

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

match REAL_SOURCE:
    case CUDA_SOURCE:
        pass

ext = load_inline(name="kernel_env_match_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
