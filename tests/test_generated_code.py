"""Dataclasses paste field names into the source of the methods they generate: while a submission
is evaluated every field name must be an identifier (red-team pass 68), and no library that sets
attributes by key may plant a special name (red-team pass 90)."""

import dataclasses
import subprocess
import sys
import textwrap

import pytest

from server.evaluation import integrity


@pytest.fixture(autouse=True)
def checked():
    integrity.check_dataclass_field_names()


def test_a_field_name_that_is_code_is_refused():
    with pytest.raises(integrity.GeneratedCodeRefused, match="not a plain Python identifier"):
        @dataclasses.dataclass
        class Box:
            __annotations__ = {"x,(1),self.x": int}


def test_a_base_field_renamed_in_place_is_refused():
    @dataclasses.dataclass
    class Base:
        x: int = 0

    field = dataclasses.fields(Base())[0]
    field.name = "x,(1),self.x"
    with pytest.raises(integrity.GeneratedCodeRefused):
        @dataclasses.dataclass
        class Sub(Base):
            pass
    field.name = "x"


def test_honest_dataclasses_pass():
    @dataclasses.dataclass(frozen=True)
    class Config:
        block: int = 1024
        sizes: tuple = dataclasses.field(default_factory=tuple)
        _: dataclasses.KW_ONLY
        warps: int = 4

    @dataclasses.dataclass(frozen=True, slots=True)
    class More(Config):
        stages: int = 3

    assert More(stages=2) == More(stages=2) and More().block == 1024

    @dataclasses.dataclass(frozen=True)
    class BoundMethodLike:  # Triton's BoundJITMethod, made at a first compile
        __self__: object
        __func__: object

    assert BoundMethodLike(1, 2).__func__ == 2
    assert integrity.check_dataclass_field_names() is None  # installed once


def test_a_special_field_name_is_refused():
    with pytest.raises(integrity.GeneratedCodeRefused, match="'__array_interface__'"):
        dataclasses.make_dataclass("Holder", [("__array_interface__", dict,
                                               dataclasses.field(default_factory=dict))])


SPECIAL_NAMES = textwrap.dedent("""
    import enum, numpy, torch
    from server.evaluation import integrity
    integrity.refuse_special_names_by_key()
    integrity.refuse_special_names_by_key()  # idempotent
    key = chr(95) * 2 + "array_interface" + chr(95) * 2
    interface = {"shape": (1,), "typestr": "<f8", "data": (0, False), "version": 3}
    refused = []
    for plant in (lambda: torch.nn.ParameterDict().__setitem__(key, interface),
                  lambda: torch.nn.ParameterDict().update({key: interface}),
                  lambda: setattr(torch.nn.Linear(2, 2), key, interface),
                  lambda: enum.Enum("Holder", [(key, interface)]),
                  lambda: enum.Enum("Holder", {key: interface}),
                  lambda: enum.Enum("Holder", "ok " + key),
                  lambda: setattr(torch.nn.Linear(2, 2), "_buffers", {key: interface})):
        try:
            plant()
        except integrity.SpecialNameRefused:
            refused.append(True)
    # a special name is not served from a module's own dicts (a dict that is a Module too)
    class DictModule(dict, torch.nn.Module):
        def __init__(self, items):
            dict.__init__(self, items)
            torch.nn.Module.__init__(self)
    holder = torch.nn.ModuleDict({key: DictModule(interface)})
    served = hasattr(holder, key)
    # what honest code does with the same libraries still works
    params = torch.nn.ParameterDict({"w0": torch.nn.Parameter(torch.ones(2))})
    params["scale"] = 2.0
    lin = torch.nn.Linear(2, 2)
    lin.block = 128
    colour = enum.Enum("Colour", "RED GREEN")
    torch.nn.utils.parametrize.register_parametrization(lin, "weight", torch.nn.Identity())
    lin.register_full_backward_hook(lambda *args: None)
    print(len(refused), served, params.scale, lin.block, colour.GREEN.value, type(lin).__name__)
""")


def test_special_names_set_by_key_are_refused_and_plain_ones_kept():
    out = subprocess.run([sys.executable, "-c", SPECIAL_NAMES], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["7", "False", "2.0", "128", "2", "ParametrizedLinear"]
