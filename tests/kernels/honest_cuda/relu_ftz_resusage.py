# task: level1/19_ReLU
# language: cuda
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>

__global__ void relu_vec4(const float4* __restrict__ in, float4* __restrict__ out, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
        out[i] = v;
    }
}

__global__ void relu_scalar(const float* __restrict__ in, float* __restrict__ out, int start, int n) {
    int i = start + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.f);
}

torch::Tensor relu_cuda(torch::Tensor x) {
    auto out = torch::empty_like(x);
    int n = x.numel();
    int n4 = n / 4;
    if (n4) relu_vec4<<<(n4 + 255) / 256, 256>>>((const float4*)x.data_ptr<float>(), (float4*)out.data_ptr<float>(), n4);
    if (n % 4) relu_scalar<<<1, 4>>>(x.data_ptr<float>(), out.data_ptr<float>(), n4 * 4, n);
    return out;
}
"""

relu_mod = load_inline(name="relu_vec4_ftz", cpp_sources="torch::Tensor relu_cuda(torch::Tensor x);",
                       cuda_sources=src, functions=["relu_cuda"],
                       extra_cuda_cflags=["-O3", "-ftz=true", "-res-usage"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu_mod.relu_cuda(x.contiguous())
