"""Dataclasses paste field names into the source of the methods they generate: while a submission
is evaluated every field name must be an identifier (red-team pass 68)."""

import dataclasses

import pytest

from server.evaluation import integrity


@pytest.fixture(autouse=True)
def checked():
    integrity.check_dataclass_field_names()


def test_a_field_name_that_is_code_is_refused():
    with pytest.raises(integrity.GeneratedCodeRefused, match="not a Python identifier"):
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
    assert integrity.check_dataclass_field_names() is None  # installed once
