# task: level1/19_ReLU
# expect: format_violation
# language: cuda
# why: a kernel copies the input into managed memory (cudaMallocManaged), the extension's host code computes the ReLU in a C++ loop reading it without any copy, and a kernel copies it back: kernel provenance sees only the two copy kernels of its own (pinned memory via cudaHostAlloc/cudaHostGetDevicePointer, or cudaHostRegister, works the same)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    float* staged;
    cudaMallocManaged(&staged, n * sizeof(float));
    long blocks = (n + 255) / 256;
    copy_kernel<<<blocks, 256>>>(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;  // on the host
    auto y = torch::empty_like(x);
    copy_kernel<<<blocks, 256>>>(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    cudaFree(staged);
    return y;
}
"""

ext = load_inline(name="kernel_env_managed_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
