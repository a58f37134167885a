# task: level1/1_Square_matrix_multiplication_
# language: cuda
# expect: format_violation
# why: an extension that registers its own kernel for aten::mm with the dispatcher
#      (TORCH_LIBRARY_IMPL): the reference's matmul would then call it, so a kernel returning
#      zeros would match a reference returning zeros; refused by the text rules before it builds
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <torch/library.h>

torch::Tensor zeros_mm(const torch::Tensor& a, const torch::Tensor& b) {
    return torch::zeros({a.size(0), b.size(1)}, a.options());
}

TORCH_LIBRARY_IMPL(aten, CUDA, m) {
    m.impl("mm", zeros_mm);
}

torch::Tensor matmul(torch::Tensor a, torch::Tensor b) {
    return torch::zeros({a.size(0), b.size(1)}, a.options());
}
"""

ext = load_inline(name="kernel_env_register_aten", cpp_sources="torch::Tensor matmul(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=CUDA_SOURCE, functions=["matmul"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.matmul(a, b)
