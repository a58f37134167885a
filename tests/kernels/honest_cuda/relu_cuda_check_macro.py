# task: level1/19_ReLU
# language: cuda
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t err__ = (call);                                                   \
        if (err__ != cudaSuccess) {                                                   \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err__),    \
                    __FILE__, __LINE__);                                              \
            TORCH_CHECK(false, "CUDA kernel failed");                                 \
        }                                                                             \
    } while (0)

namespace {

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, size_t n) {
    const int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    for (size_t i = thread; i < n; i += stride) {
        y[i] = fmaxf(x[i], 0.0f);
    }
}

}  // namespace

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    size_t n = x.numel();
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads);
    if (blocks > 65535) blocks = 65535;
    relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    CUDA_CHECK(cudaGetLastError());
    return y;
}
"""

relu_cpp = "torch::Tensor relu_forward(torch::Tensor x);"

relu_ext = load_inline(name="relu_ext_check", cpp_sources=relu_cpp, cuda_sources=relu_source,
                       functions=["relu_forward"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_ext.relu_forward(x.contiguous())
