# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: launches on a non-blocking stream of its own, which may start before the timer's start event; stream creation in CUDA sources is refused before anything builds
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor relu(torch::Tensor x) {
    static cudaStream_t side = nullptr;
    if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, side>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="kernel_env_side_stream", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
