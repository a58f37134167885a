# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: at::native::empty_cpu(size, dtype, layout, device, /*pin_memory=*/true, fmt) - a direct
#      call of the CPU empty kernel past the dispatcher - makes a page-locked CPU tensor; a kernel
#      stages x into it, then aten's CPU relu (Python keys hidden, so no guard; no device kernel
#      for provenance) computes on the host; a kernel copies back. Nothing spells pinned.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

void stage(const float* src, float* dst, long n, cudaStream_t s);

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    c10::impl::ExcludeDispatchKeyGuard hidden(
        c10::DispatchKeySet({c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot}));
    auto h = at::native::empty_cpu({n}, at::kFloat, at::kStrided, at::Device(at::kCPU), true,
                                   c10::nullopt);
    auto stream = at::cuda::getCurrentCUDAStream();
    stage(x.data_ptr<float>(), h.data_ptr<float>(), n, stream);
    stream.synchronize();
    at::relu_(h);                   // aten's CPU kernel on the host: no device kernel
    auto y = torch::empty_like(x);
    stage(h.data_ptr<float>(), y.data_ptr<float>(), n, stream);
    return y;
}
"""

CUDA_SOURCE = r"""
#include <cuda_runtime.h>
__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
void stage(const float* src, float* dst, long n, cudaStream_t s) {
    copy_kernel<<<(n + 255) / 256, 256, 0, s>>>(src, dst, n);
}
"""

ext = load_inline(name="rt_native_empty_pin", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
