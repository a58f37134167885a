"""The construction guard: the submission's import and ModelNew's construction may not open host
views of tensor memory, while torch's own modules that need one for themselves still build.

Each case imports a real file standing in for the submission, through the loader the pipeline
uses, and builds its ModelNew as the pipeline does.
"""

from __future__ import annotations

import pytest
import torch

from server.evaluation.loading import build_models, load_candidate
from server.evaluation.stages import StageFailure

REFERENCE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)

def get_inputs():
    return [torch.rand(8, 8)]

def get_init_inputs():
    return []
"""


def _reference(tmp_path):
    from server.evaluation.loading import load_reference
    return load_reference(REFERENCE, str(tmp_path))


def _build(tmp_path, source: str, device: str):
    candidate, path = load_candidate(source, str(tmp_path), "triton", torch.device(device))
    return build_models(_reference(tmp_path), candidate, path, torch.device(device))[1]


NUMPY_VIEW_IN_INIT = """
import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = torch.zeros(8)
        self.view = self.buf.numpy()

    def forward(self, x):
        return x
"""

LSTM_WEIGHTS_IN_INIT = """
import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # its weights, for kernels of the submission's own; moving it flattens them
        self.lstm = nn.LSTM(16, 32, num_layers=2, batch_first=True).to({device!r})

    def forward(self, x):
        return x
"""


def test_a_numpy_view_made_in_init_is_refused(tmp_path):
    with pytest.raises(StageFailure) as failure:
        _build(tmp_path, NUMPY_VIEW_IN_INIT, "cpu")
    assert failure.value.error_class == "forbidden_op"
    assert "numpy" in failure.value.feedback and "building ModelNew" in failure.value.feedback


def test_a_storage_view_opened_at_import_is_refused(tmp_path):
    source = "import torch\nBUF = torch.zeros(4).untyped_storage()\n" + NUMPY_VIEW_IN_INIT
    with pytest.raises(StageFailure) as failure:
        load_candidate(source, str(tmp_path), "triton", torch.device("cpu"))
    assert failure.value.error_class == "forbidden_op"
    assert "untyped_storage" in failure.value.feedback
    assert "importing your module" in failure.value.feedback


def test_an_lstm_built_in_init_is_accepted_on_cpu(tmp_path):
    model = _build(tmp_path, LSTM_WEIGHTS_IN_INIT.format(device="cpu"), "cpu")
    assert isinstance(model.lstm, torch.nn.LSTM)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_an_lstm_moved_to_the_gpu_in_init_is_accepted(tmp_path):
    """On the GPU, moving an LSTM flattens its weights (cuDNN), which reads their data_ptr from
    torch's rnn module: that exit is torch's own, not the submission's."""
    model = _build(tmp_path, LSTM_WEIGHTS_IN_INIT.format(device="cuda"), "cuda")
    assert model.lstm.weight_ih_l0.is_cuda


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_an_lstm_built_on_cpu_and_moved_by_the_loader_is_accepted(tmp_path):
    model = _build(tmp_path, LSTM_WEIGHTS_IN_INIT.format(device="cpu"), "cuda")
    assert model.lstm.weight_hh_l1.is_cuda


CLAIMS_TO_BE_A_MODULE = """
import torch
import torch.nn as nn

READS = []

class Shell:
    @property
    def __class__(self):  # the static check refuses this; the loader must not rely on that
        READS.append(1)
        return ModelNew

class ModelNew(nn.Module):
    def to(self, *args, **kwargs):
        return Shell()

    def forward(self, x):
        return x
"""


def test_what_construction_returns_is_judged_by_its_type(tmp_path):
    """isinstance() reads `__class__`, which a class can define as a property: its getter ran
    after the construction guard had exited."""
    candidate, path = load_candidate(CLAIMS_TO_BE_A_MODULE, str(tmp_path), "triton", torch.device("cpu"))
    with pytest.raises(StageFailure) as failure:
        build_models(_reference(tmp_path), candidate, path, torch.device("cpu"))
    assert "did not build an nn.Module" in failure.value.feedback
    assert candidate.READS == []


def test_a_kernel_argument_claiming_to_be_a_dtype_is_refused(tmp_path):
    from server.evaluation.guard import _launch_arg_problem
    candidate, _ = load_candidate(CLAIMS_TO_BE_A_MODULE.replace("return ModelNew", "return torch.dtype"),
                                  str(tmp_path), "triton", torch.device("cpu"))
    assert _launch_arg_problem(candidate.Shell()) == "an object of type `Shell`"
    assert candidate.READS == []


LINEAR_REFERENCE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 32)

    def forward(self, x):
        return self.fc(x)

def get_inputs():
    return [torch.rand(8, 64)]

def get_init_inputs():
    return []
"""

LINEAR_CANDIDATE = """
import torch
import torch.nn as nn

BUILT_ON = []

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        BUILT_ON.append(torch.empty(1).device.type)
        self.fc = nn.Linear(64, 32)
        {extra}

    def forward(self, x):
        return self.fc(x)
"""

HOST_GENERATOR = "self.noise = torch.randn(4, generator=torch.Generator().manual_seed(0))"


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("extra, built_on", [("pass", ["cuda"]),
                                             (HOST_GENERATOR, ["cuda", "cpu"])])
def test_models_are_built_on_the_gpu_or_else_both_on_the_host(tmp_path, extra, built_on):
    """Parameters are initialised on the device (a 32768x32768 Linear took 7-11 s on the
    host); a constructor that cannot run there (a host generator meets the device's default)
    has both models built on the host, with the same weights either way."""
    from server.evaluation.loading import load_reference
    reference = load_reference(LINEAR_REFERENCE, str(tmp_path))
    source = LINEAR_CANDIDATE.format(extra=extra)
    candidate, path = load_candidate(source, str(tmp_path), "triton", torch.device("cuda"))
    ref_model, new_model, state = build_models(reference, candidate, path, torch.device("cuda"))
    assert candidate.BUILT_ON == built_on
    assert new_model.fc.weight.is_cuda and torch.equal(new_model.fc.weight, ref_model.fc.weight)
    assert torch.equal(state["fc.weight"], ref_model.fc.weight.cpu())
