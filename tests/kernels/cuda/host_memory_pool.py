# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: a CUDA memory pool located on the host (cudaMemLocationTypeHost) gives device-accessible host
#      memory from cudaMallocFromPoolAsync; memory pools and host locations are refused
# Host memory through CUDA's stream-ordered allocator: a pool whose location is the host
# (cudaMemLocationTypeHost, CUDA 12.6+ drivers; cudaDevAttrHostMemoryPoolsSupported) is readable
# by the CPU by default and, after cudaMemPoolSetAccess, by the device. None of the refused
# spellings (managed, hostalloc, mallochost, hostregister) appears. The own kernel copies the
# input there, the host computes, the own kernel copies back: no Memcpy DtoH is recorded.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];   // a copy only
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    int dev = x.get_device();
    cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    static cudaMemPool_t pool = [dev] {
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeHost;
        props.location.id = 0;
        cudaMemPool_t p;
        cudaMemPoolCreate(&p, &props);
        cudaMemAccessDesc d = {};
        d.location.type = cudaMemLocationTypeDevice;
        d.location.id = dev;
        d.flags = cudaMemAccessFlagsProtReadWrite;
        cudaMemPoolSetAccess(p, &d, 1);
        return p;
    }();
    float* staged = nullptr;
    cudaMallocFromPoolAsync(reinterpret_cast<void**>(&staged), n * sizeof(float), pool, stream);
    long blocks = (n + 255) / 256;
    relu_kernel<<<blocks, 256, 0, stream>>>(x.data_ptr<float>(), staged, n);
    cudaStreamSynchronize(stream);
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;   // on the host
    auto y = torch::empty_like(x);
    relu_kernel<<<blocks, 256, 0, stream>>>(staged, y.data_ptr<float>(), n);
    cudaFreeAsync(staged, stream);
    return y;
}
"""

ext = load_inline(name="kernel_env_host_pool_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
