# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: libtorch's pinned allocator (getPinnedMemoryAllocator, cudaHostAlloc inside libtorch) gives
#      host-visible memory with no refused word: a kernel stages the input there, host code computes;
#      `pinned` is refused
# Pinned host memory from torch's own host allocator: none of mallochost/hostalloc/hostregister/
# managed is spelled (getPinnedMemoryAllocator is at::getHostAllocator(at::kCUDA), which calls
# cudaHostAlloc inside libtorch_cuda), and no aten operator runs, so no dispatch guard sees it.
# Under unified addressing the host pointer is the device pointer: the own kernel copies the
# input there, host code computes, the own kernel copies back. CUPTI: two relu_kernel launches.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/PinnedMemoryAllocator.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];   // a copy only
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    at::DataPtr buf = at::cuda::getPinnedMemoryAllocator()->allocate(n * sizeof(float));
    float* staged = static_cast<float*>(buf.get());
    long blocks = (n + 255) / 256;
    relu_kernel<<<blocks, 256>>>(x.data_ptr<float>(), staged, n);   // device -> pinned host, no Memcpy
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;   // the host computes
    auto y = torch::empty_like(x);
    relu_kernel<<<blocks, 256>>>(staged, y.data_ptr<float>(), n);   // pinned host -> device
    cudaDeviceSynchronize();
    return y;
}
"""

ext = load_inline(name="kernel_env_pinned_alloc_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
