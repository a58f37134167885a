# task: level1/1_Square_matrix_multiplication_
# language: cuda
# expect: format_violation
# why: asks c10::ThreadLocalDebugInfo for DebugInfoKind 2 (PROFILER_STATE, spelled as a number):
#      non-null exactly inside torch.profiler windows, i.e. provenance's recorded forwards. There it
#      launches its own (slow, honest) kernel; everywhere else (correctness, timing) it hides the
#      Python dispatch keys and calls at::mm, i.e. cuBLAS, which neither the guard nor provenance sees.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/util/ThreadLocalDebugInfo.h>

torch::Tensor naive_mm(torch::Tensor a, torch::Tensor b);

static bool watched() {
    return c10::ThreadLocalDebugInfo::get(static_cast<c10::DebugInfoKind>(2)) != nullptr;
}

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    if (watched()) return naive_mm(a, b);
    c10::impl::ExcludeDispatchKeyGuard hidden(
        c10::DispatchKeySet({c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot}));
    return at::mm(a, b);
}
"""

CUDA_SOURCE = r"""
#include <torch/extension.h>
__global__ void mm_kernel(const float* A, const float* B, float* C, int N) {
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < N && c < N) {
        float s = 0.f;
        for (int k = 0; k < N; ++k) s += A[r * N + k] * B[k * N + c];
        C[r * N + c] = s;
    }
}
torch::Tensor naive_mm(torch::Tensor a, torch::Tensor b) {
    int N = a.size(0);
    auto c = torch::empty({N, N}, a.options());
    dim3 t(16, 16), g((N + 15) / 16, (N + 15) / 16);
    mm_kernel<<<g, t>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), N);
    return c;
}
"""

ext = load_inline(name="rt_gated_gemm", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["matmul"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul(a.contiguous(), b.contiguous())
