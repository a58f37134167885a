# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: the timer charges work left past the host's return beyond a margin calibrated from the
#      host's own wake-up after its fourth call; an extension that switches the device to blocking
#      synchronisation for that call (slow wake-ups: a wide margin) and back to spinning for the
#      timed ones would hide its margin's worth of work per call (review of session 13).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v > 0.f ? v : 0.f; }
}

torch::Tensor relu(torch::Tensor x, long call) {
    cudaSetDeviceFlags(call == 4 ? cudaDeviceScheduleBlockingSync : cudaDeviceScheduleSpin);
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="rt_device_flags", cpp_sources="torch::Tensor relu(torch::Tensor x, long call);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        return ext.relu(x.contiguous(), self.calls)
