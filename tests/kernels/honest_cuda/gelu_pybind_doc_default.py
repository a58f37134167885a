# task: level1/26_GELU_
# language: cuda
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = r"""
#include <torch/extension.h>

torch::Tensor gelu_forward(torch::Tensor x, bool approximate);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.doc() = "Exact GELU implemented in CUDA";
    m.def("gelu_forward", &gelu_forward, "GELU forward", py::arg("x"), py::arg("approximate") = false);
}
"""

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n, bool approximate) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (approximate) {
        float inner = 0.7978845608028654f * (v + 0.044715f * v * v * v);
        y[i] = 0.5f * v * (1.f + tanhf(inner));
    } else {
        y[i] = 0.5f * v * (1.f + erff(v * 0.70710678118654752f));
    }
}

torch::Tensor gelu_forward(torch::Tensor x, bool approximate) {
    auto y = torch::empty_like(x);
    int64_t n = x.numel();
    gelu_kernel<<<(n + 511) / 512, 512>>>(x.data_ptr<float>(), y.data_ptr<float>(), n, approximate);
    return y;
}
"""

gelu_ext = load_inline(name="gelu_exact_ext", cpp_sources=cpp_source, cuda_sources=cuda_source, verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return gelu_ext.gelu_forward(x.contiguous(), approximate=False)
