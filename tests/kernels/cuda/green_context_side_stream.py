# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: at::cuda::GreenContext::create(n, 0)->Stream() is a stream of its own (libtorch calls
#      cuGreenCtxStreamCreate with CU_STREAM_NON_BLOCKING inside): launches there are not ordered
#      after the timer's start event, so work can run during the lead. No refused word.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAGreenContext.h>
#include <ATen/cuda/CUDAEvent.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v > 0.f ? v : 0.f; }
}

static std::unique_ptr<at::cuda::GreenContext> ctx;

torch::Tensor relu(torch::Tensor x) {
    if (!ctx) {
        ctx = at::cuda::GreenContext::create(64, 0);   // a multiple of Hopper's SM granularity
    }
    at::cuda::CUDAStream side_stream = ctx->Stream();
    cudaStream_t side = side_stream.stream();
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, side>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    at::cuda::CUDAEvent done;                       // the end is ordered, the start is not
    done.record(side_stream);
    done.block(at::cuda::getCurrentCUDAStream());
    return y;
}
"""

ext = load_inline(name="rt_green_stream", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
