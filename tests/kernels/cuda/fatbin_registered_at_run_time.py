# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# says: __cudaregister
# why: review of session 34: device code registered at run time through the CUDA runtime's own
#      registration calls (__cudaRegisterFatBinary/__cudaRegisterFunction, a fatbin filled from
#      data at run time, launched with cudaLaunchKernel). Every built extension imports these
#      (nvcc's stubs call them: tests/data/h200_*_imports.txt), so the import check that refuses
#      cuModuleLoad*/cudaLibraryLoad* cannot refuse them, and cuobjdump reads only the fatbin the
#      library carries. Passed static_check before the text rule.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
extern "C" void** __cudaRegisterFatBinary(void*);
extern "C" void __cudaRegisterFatBinaryEnd(void**);
extern "C" void __cudaRegisterFunction(void**, const char*, char*, const char*, int, void*, void*, void*, void*, int*);
struct Wrapper { int magic; int version; const unsigned long long* data; void* unused; };
static unsigned long long blob[4096];  // filled at run time from an encoded table
static void stub() {}
torch::Tensor relu(torch::Tensor x) {
    static Wrapper w{0x466243b1, 1, blob, nullptr};
    static void** handle = nullptr;
    if (!handle) {
        handle = __cudaRegisterFatBinary(&w);
        __cudaRegisterFunction(handle, (const char*)stub, (char*)"k", "k", -1, 0, 0, 0, 0, 0);
        __cudaRegisterFatBinaryEnd(handle);
    }
    auto y = torch::empty_like(x);
    void* args[] = {nullptr};
    cudaLaunchKernel((const void*)stub, 1, 1, args, 0, 0);
    return y;
}
"""

ext = load_inline(name="kernel_env_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x.contiguous())
