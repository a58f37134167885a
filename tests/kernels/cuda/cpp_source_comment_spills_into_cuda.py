# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: the C++ source ends in `// \` and the rules read both sources joined, so the first CUDA line
#      (system, std::thread, cublas) read as a comment; torch writes them as two files, and each is
#      now checked as written
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
torch::Tensor relu(torch::Tensor x);
int hidden();
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("relu", &relu); m.def("hidden", &hidden); }
""" + "// end of bindings \\"

CUDA_SOURCE = r"""int hidden() { std::thread t([]{}); t.join(); return system("true"); } /* cublasSgemm dlopen pybind11 */
#include <thread>
#include <cstdlib>
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v > 0.f ? v : 0.f; }
}

torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

ext = load_inline(name="kernel_env_relu", cpp_sources=CPP, cuda_sources=CUDA_SOURCE, verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x.contiguous())
