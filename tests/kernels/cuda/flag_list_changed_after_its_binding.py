# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# expect_cpu: needs_gpu
# why: a list of build flags bound once to a literal gains `-D...=cudaMallocManaged` afterwards; the
#      build gate checks the flags load_inline is actually given (on the GPU; the cpu evaluator stops
#      at needs_gpu)
# extra_*flags must be a literal list (or a name bound once to one): the check reads the literal,
# and list methods change it afterwards. Here a -D macro spells the refused allocation for the
# source (`STAGE(&p, n)` is cudaMallocManaged(&p, n)), and a library is linked.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];   // a copy only
}

torch::Tensor relu(torch::Tensor x) {
    long n = x.numel();
    float* staged;
    STAGE(&staged, n * sizeof(float));
    long blocks = (n + 255) / 256;
    relu_kernel<<<blocks, 256>>>(x.data_ptr<float>(), staged, n);
    cudaDeviceSynchronize();
    for (long i = 0; i < n; ++i) staged[i] = staged[i] > 0.f ? staged[i] : 0.f;   // on the host
    auto y = torch::empty_like(x);
    relu_kernel<<<blocks, 256>>>(staged, y.data_ptr<float>(), n);
    cudaDeviceSynchronize();
    cudaFree(staged);
    return y;
}
"""

CUDA_FLAGS = ["-O3"]
LD_FLAGS = [""]
CUDA_FLAGS.append("-DSTAGE=cudaMallocManaged")
LD_FLAGS.append("-lcublas")

ext = load_inline(name="kernel_env_flags_relu", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], extra_cuda_cflags=CUDA_FLAGS,
                  extra_ldflags=LD_FLAGS, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
