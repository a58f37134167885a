# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# expect_cpu: needs_gpu
# says: imports
# why: the extension calls at::relu (a library kernel) instead of launching its own: the dispatch guard sees aten::relu; the build gate now refuses the built library first: it imports at::_ops::relu
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
torch::Tensor relu(torch::Tensor x) { return at::relu(x); }
"""

ext = load_inline(name="kernel_env_aten_relu", cpp_sources=CPP_SOURCE, cuda_sources="",
                  functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x)
