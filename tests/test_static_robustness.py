"""Inputs that once crashed the static check (an internal error) or misread a file: each now gets
a clean verdict (red-team pass 21)."""

import pytest

from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check
from tests.conftest import KERNELS

RELU = (KERNELS / "legit" / "relu.py").read_text()


def test_a_byte_order_mark_is_read_past():
    assert static_check("\ufeff" + RELU, "triton").kernels


@pytest.mark.parametrize("annotation", ["+".join(["int"] * 30000), "int\\ud800", "x" * 600])
def test_odd_string_annotations_are_refused_cleanly(annotation):
    source = RELU.replace("import torch\n", f'import torch\n\nSIZE: "{annotation}" = 1\n', 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert refused.value.error_class == "format_violation" and "annotation" in refused.value.feedback


def test_a_null_byte_is_a_syntax_error():
    with pytest.raises(StageFailure) as refused:
        static_check(RELU + "\0", "triton")
    assert refused.value.error_class == "syntax_error"


@pytest.mark.parametrize("line", [
    "A = torch.Tensor(np.zeros(4, dtype=np.float32))", "A = torch.FloatTensor(np.zeros(4))",
    "A = torch.empty(0).new(np.zeros(4))", "W = (torch.FloatTensor,)[0]", "T = torch.Tensor\nW = [T]",
    "def f(x):\n    m = x.new\n    return m", "def f(t, a):\n    return torch.Tensor.new(t, a)",
])
def test_legacy_constructors_given_data_are_refused(line):
    """They make a tensor over a numpy array's memory (red-team pass 22), and no mode sees them."""
    source = RELU.replace("import torch\n", f"import numpy as np\nimport torch\n\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "legacy constructor" in refused.value.feedback


def test_legacy_constructors_with_a_size_and_tensor_types_pass():
    lines = ("from typing import Optional, Tuple\nPair = Tuple[torch.Tensor, torch.Tensor]\n"
             "W = torch.nn.Parameter(torch.Tensor(4, 8))\nB = torch.Tensor(3)\nT = torch.Tensor\n\n\n"
             "def g(x: Optional[torch.Tensor]) -> T:\n"
             "    assert isinstance(x, (torch.Tensor, float)) or type(x) is torch.Tensor\n    return x\n")
    assert static_check(RELU.replace("import torch\n", f"import torch\n{lines}", 1), "triton").kernels
