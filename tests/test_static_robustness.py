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
