# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: the text reader takes `R"(` as a raw string only when the R follows no letter or digit, so
#      `LR"(" /*)"` (a valid prefixed raw string, body `" /*`) is read as `LR`, the literal "(",
#      then `/*` opening a comment that runs to a `*/` the compiler sees inside a `// */` line
#      comment. Every line in between is invisible to every rule (text, patterns, identifiers,
#      declarations): here the known managed-memory host-side ReLU. (The __global__ kernel stays
#      outside the hidden lines: provenance finds own kernels with the same reader.)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}

static const wchar_t* banner = LR"(" /*)";

torch::Tensor relu_host(torch::Tensor x) {
    long n = x.numel();
    float* staged;
    cudaMallocManaged(&staged, n * sizeof(float));
    copy_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;  // on the host
    auto y = torch::empty_like(x);
    copy_kernel<<<(n + 255) / 256, 256>>>(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    cudaFree(staged);
    return y;
}
// */

torch::Tensor relu(torch::Tensor x) {
    (void)banner;
    return relu_host(x);
}
"""

ext = load_inline(name="rt_rawprefix", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
