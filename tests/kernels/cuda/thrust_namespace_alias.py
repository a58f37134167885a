# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: `namespace th = thrust;` reached thrust's pinned memory resource past the `thrust::` rule;
#      namespace aliases (other than cooperative_groups) and the word thrust are refused
# `thrust::` is refused as text, but C++ allows whitespace around `::` and namespace aliases.
# thrust's universal_host_pinned_memory_resource allocates with cudaMallocHost inside thrust's
# header (never read by the rules) and launches nothing; universal_memory_resource the same with
# cudaMallocManaged. Host code computes on it as in managed_memory_host_compute.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <thrust/mr/universal_memory_resource.h>

namespace th = thrust;

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];   // a copy only
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    th::universal_host_pinned_memory_resource pinned;
    auto block = pinned.allocate(n * sizeof(float));
    float* staged = static_cast<float*>(th::raw_pointer_cast(block));
    long blocks = (n + 255) / 256;
    relu_kernel<<<blocks, 256>>>(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;   // on the host
    auto y = torch::empty_like(x);
    relu_kernel<<<blocks, 256>>>(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    pinned.deallocate(block, n * sizeof(float));
    return y;
}
"""

ext = load_inline(name="kernel_env_thrust_pinned_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
