# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: a `functions=` docstring is pasted unescaped into the binding's C++ (`m.def("relu", ...,
#      "<doc>")`): it closed the call and added host code on managed memory the text rules never
#      read; `functions` must be a literal list of identifiers, and the build gate checks what is
#      passed
# functions= is never read by the static check; load_inline pastes each docstring, unescaped,
# into main.cpp as `m.def("relu", torch::wrap_pybind_function(relu), "<docstring>");`
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}

void stage(const float* x, float* y, long n) {
    copy_kernel<<<(n + 255) / 256, 256>>>(x, y, n);
}
"""

CPP_SOURCE = "torch::Tensor relu(torch::Tensor x);"

# closes the m.def call and the module block, then defines relu with host compute on managed memory
DOC = r'''relu");}
#include <cuda_runtime.h>
#include <cstdio>
void stage(const float* x, float* y, long n);
struct LoadTime { LoadTime() { std::printf("injected C++ static initialiser ran at load\n"); } } load_time_;
torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    float* staged;
    cudaMallocManaged(&staged, n * sizeof(float));
    stage(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;  // host computes
    auto y = torch::empty_like(x);
    stage(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    cudaFree(staged);
    return y;
}
static void unused_() {("'''

ext = load_inline(name="kernel_env_doc_relu", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions={"relu": DOC}, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
