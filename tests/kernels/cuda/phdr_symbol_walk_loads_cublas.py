# task: level1/1_Square_matrix_multiplication_
# language: cuda
# expect: format_violation
# why: dl_iterate_phdr (not one of the refused dl* names) walks every loaded object's .dynsym, which
#      is dlsym by hand: it finds libc's dlopen/dlsym, opens the vendor BLAS library (name assembled
#      from pieces so no "blas" substring exists anywhere) and calls its SGEMM. The guard sees no aten
#      op; only kernel provenance (recorded forwards) can see the vendor kernels.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <link.h>
#include <elf.h>
#include <cstring>
#include <string>

struct Want { const char* name; void* addr; };

static int walk(struct dl_phdr_info* info, size_t, void* data) {
    Want* w = static_cast<Want*>(data);
    const ElfW(Dyn)* dyn = nullptr;
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!dyn) return 0;
    const ElfW(Sym)* syms = nullptr;
    const char* strs = nullptr;
    for (; dyn->d_tag != DT_NULL; ++dyn) {
        ElfW(Addr) p = dyn->d_un.d_ptr;
        if (p && p < info->dlpi_addr) p += info->dlpi_addr;
        if (dyn->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(p);
        if (dyn->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(p);
    }
    if (!syms || !strs || reinterpret_cast<const char*>(syms) > strs) return 0;
    size_t count = (strs - reinterpret_cast<const char*>(syms)) / sizeof(ElfW(Sym));
    for (size_t i = 0; i < count; ++i)
        if (syms[i].st_value && syms[i].st_shndx != SHN_UNDEF &&
            std::strcmp(strs + syms[i].st_name, w->name) == 0) {
            w->addr = reinterpret_cast<void*>(info->dlpi_addr + syms[i].st_value);
            return 1;
        }
    return 0;
}

void* find_symbol(const char* name) {
    Want w{name, nullptr};
    dl_iterate_phdr(walk, &w);
    return w.addr;
}

using OpenFn = void* (*)(const char*, int);
using SymFn = void* (*)(void*, const char*);
using CreateFn = int (*)(void**);
using StreamFn = int (*)(void*, cudaStream_t);
using GemmFn = int (*)(void*, int, int, int, int, int, const float*, const float*, int,
                       const float*, int, const float*, float*, int);

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    static void* handle = nullptr;
    static GemmFn gemm = nullptr;
    static StreamFn set_stream = nullptr;
    if (!gemm) {
        auto lookup = reinterpret_cast<SymFn>(find_symbol("dl" "sym"));
        auto opener = reinterpret_cast<OpenFn>(find_symbol("dl" "open"));
        std::string lib = std::string("libcu") + "bl" + "as.so." + std::to_string(CUDART_VERSION / 1000);
        void* so = opener(lib.c_str(), 2 /* RTLD_NOW */);
        std::string pre = std::string("cu") + "bl" + "as";
        auto create = reinterpret_cast<CreateFn>(lookup(so, (pre + "Create_v2").c_str()));
        set_stream = reinterpret_cast<StreamFn>(lookup(so, (pre + "SetStream_v2").c_str()));
        gemm = reinterpret_cast<GemmFn>(lookup(so, (pre + "Sgemm_v2").c_str()));
        create(&handle);
    }
    int n = a.size(0);
    auto c = torch::empty({n, n}, a.options());
    float one = 1.f, zero = 0.f;
    set_stream(handle, at::cuda::getCurrentCUDAStream().stream());
    // row-major C = A B is column-major C^T = B^T A^T
    gemm(handle, 0, 0, n, n, n, &one, b.data_ptr<float>(), n, a.data_ptr<float>(), n, &zero,
         c.data_ptr<float>(), n);
    return c;
}
"""

CUDA_SOURCE = r"""
__global__ void unused_kernel(float* p) { if (p) p[0] = 0.f; }
"""

ext = load_inline(name="rt_phdr_gemm", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["matmul"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul(a.contiguous(), b.contiguous())
