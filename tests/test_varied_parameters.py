"""The reference's constant parameters (a norm layer's weight 1 and bias 0) get the same random
values in both models before the trials (red-team pass 91)."""

import pytest
import torch
import torch.nn as nn

from server.evaluation.correctness import pristine_state
from server.evaluation.stages import StageFailure
from server.evaluation.varied_parameters import vary_constant_parameters


class Reference(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.ln = nn.LayerNorm(8)
        self.scale = nn.Parameter(torch.tensor(2.0))


def _built(cls):
    torch.manual_seed(0)
    return cls()


def test_constant_parameters_vary_alike_and_random_ones_stay():
    ref = _built(Reference)
    new = _built(Reference)
    state = pristine_state(ref)
    weight = ref.proj.weight.detach().clone()
    varied = vary_constant_parameters(ref, new, state, seed=1)
    assert sorted(varied) == ["ln.bias", "ln.weight", "scale"]
    assert torch.equal(ref.proj.weight, weight) and torch.equal(new.proj.weight, weight)
    for name in varied:
        a, b = ref.get_parameter(name), new.get_parameter(name)
        assert torch.equal(a, b) and torch.equal(state[name], a.detach())
    assert ref.ln.weight.detach().min() != ref.ln.weight.detach().max()  # no longer one value
    assert 0.5 <= float(ref.ln.weight.detach().min()) and float(ref.ln.weight.detach().max()) < 1.5
    assert -0.5 <= float(ref.ln.bias.detach().min()) and float(ref.ln.bias.detach().max()) < 0.5
    assert 1.0 <= float(ref.scale.detach()) < 3.0
    other = _built(Reference)
    vary_constant_parameters(other, _built(Reference), pristine_state(other), seed=2)
    assert not torch.equal(other.ln.weight, ref.ln.weight)  # the seed decides


class RenamedOwnParameters(nn.Module):
    """An honest kernel's own parameters under other names: found by shape and value."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.gamma = nn.Parameter(torch.ones(8))
        self.beta = nn.Parameter(torch.zeros(8))
        self.factor = nn.Parameter(torch.tensor(2.0))


def test_counterparts_are_found_by_shape_and_value():
    ref, new = _built(Reference), _built(RenamedOwnParameters)
    vary_constant_parameters(ref, new, pristine_state(ref), seed=3)
    assert torch.equal(new.gamma, ref.ln.weight) and torch.equal(new.beta, ref.ln.bias)
    assert torch.equal(new.factor, ref.scale)


class WithoutAffine(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.scale = nn.Parameter(torch.tensor(2.0))


def test_a_constant_parameter_left_out_is_refused():
    ref = _built(Reference)
    with pytest.raises(StageFailure) as refused:
        vary_constant_parameters(ref, _built(WithoutAffine), pristine_state(ref), seed=4)
    assert refused.value.error_class == "compile_error"
    assert "`ln.weight`" in refused.value.feedback and "no counterpart" in refused.value.feedback


def test_a_reference_without_constant_parameters_is_left_alone():
    ref, new = _built(lambda: nn.Linear(4, 4)), _built(lambda: nn.Linear(4, 4))
    assert vary_constant_parameters(ref, new, pristine_state(ref), seed=5) == []
