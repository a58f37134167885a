"""A reference that is random in training mode (dropout) is evaluated in eval mode, both sides."""

from __future__ import annotations

from server.evaluators import CpuEvaluator
from tests.conftest import kernel_source

DROPOUT_RELU = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """ReLU after dropout: random in training mode, so no kernel could match it there."""

    def __init__(self, p):
        super().__init__()
        self.dropout = nn.Dropout(p)

    def forward(self, x):
        return torch.relu(self.dropout(x))


def get_inputs():
    return [torch.rand(16, 256) * 2 - 1]


def get_init_inputs():
    return [0.5]
'''


def test_dropout_reference_is_compared_in_eval_mode():
    relu = kernel_source("legit", "relu").replace("    def __init__(self):\n        super().__init__()",
                                                  "    def __init__(self, p):\n        super().__init__()")
    ev = CpuEvaluator()
    try:
        result = ev.evaluate(relu, DROPOUT_RELU, task_id="level2/99_Dropout_ReLU")
    finally:
        ev.close()
    assert result.stage == "scored" and result.correct, result.feedback


WARNING_RELU = '''import warnings

import torch
import torch.nn as nn


class Model(nn.Module):
    """ReLU that warns when built and on every call, as some KernelBench references do
    (nn.TransformerEncoder's nested-tensor notice, deprecated arguments)."""

    def __init__(self):
        super().__init__()
        warnings.warn("this reference warns when built", UserWarning)

    def forward(self, x):
        warnings.warn("this reference warns on every call", UserWarning)
        return torch.relu(x)


def get_inputs():
    return [torch.rand(16, 256) * 2 - 1]


def get_init_inputs():
    return []
'''


def test_a_submission_making_warnings_errors_cannot_break_the_reference():
    """`warnings.simplefilter("error")` in a submission made a warning reference raise inside the
    evaluator (internal_error: a free retry); the reference computes with warnings ignored."""
    relu = kernel_source("legit", "relu").replace("import torch\n", "import warnings\n\nimport torch\n", 1)
    relu += '\nwarnings.simplefilter("error")\n'
    ev = CpuEvaluator()
    try:
        result = ev.evaluate(relu, WARNING_RELU, task_id="level1/99_Warning_ReLU")
    finally:
        ev.close()
    assert result.stage == "scored" and result.correct, result.feedback
