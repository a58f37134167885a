# task: level1/48_Mean_reduction_over_a_dimension
# language: cuda
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

HEADER = """
#include <torch/extension.h>
#include <cuda_runtime.h>
"""

KERNEL = """
__global__ void mean_dim_kernel(const float* __restrict__ x, float* __restrict__ y, int R, int inner, int total) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int o = idx / inner, i = idx % inner;
    const float* p = x + (size_t)o * R * inner + i;
    float s = 0.f;
    for (int r = 0; r < R; ++r) s += p[(size_t)r * inner];
    y[idx] = s / R;
}
"""

HOST = """
torch::Tensor mean_dim(torch::Tensor x, int64_t dim) {
    x = x.contiguous();
    if (dim < 0) dim += x.dim();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
    auto sizes = x.sizes().vec();
    int R = sizes[dim];
    sizes.erase(sizes.begin() + dim);
    auto y = torch::empty(sizes, x.options());
    int total = outer * inner;
    mean_dim_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), R, inner, total);
    return y;
}
"""

CUDA_SRC = "\n".join([HEADER, KERNEL, HOST])

mean_ext = load_inline(name="mean_dim_ext", cpp_sources="torch::Tensor mean_dim(torch::Tensor x, int64_t dim);",
                       cuda_sources=CUDA_SRC, functions=["mean_dim"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return mean_ext.mean_dim(x, self.dim)
