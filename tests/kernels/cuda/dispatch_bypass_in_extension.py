# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# expect_cpu: needs_gpu
# says: imports
# why: the extension hides the Python dispatch keys before calling at::relu, so the dispatch guard sees nothing; kernel provenance sees aten's relu kernel; the build gate now refuses the built library first: it imports at::_ops::relu
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

torch::Tensor relu(torch::Tensor x) {
    c10::impl::ExcludeDispatchKeyGuard hidden(
        c10::DispatchKeySet({c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot}));
    return at::relu(x);
}
"""

ext = load_inline(name="kernel_env_hidden_relu", cpp_sources=CPP_SOURCE, functions=["relu"],
                  verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x)
