"""word_gather.word_reader: the integrity checks' version tags read in one numpy gather, the
same words the one-by-one ctypes reads give, and still new after a change put back."""

from __future__ import annotations

import ctypes
import types

from server.evaluation import integrity, module_globals
from server.evaluation.word_gather import word_reader


def test_the_gathered_words_are_the_ones_at_each_address():
    values = (ctypes.c_uint64 * 64)(*range(1000, 1064))
    base = ctypes.addressof(values)
    addresses = [base + 8 * k for k in (63, 0, 17, 17, 5)]  # any order, repeats allowed
    assert word_reader(addresses)() == [1063, 1000, 1017, 1017, 1005]
    assert word_reader(addresses, mask=~0xFF & 0xFFFFFFFFFFFFFFFF)() == [1024, 768, 768, 768, 768]
    small = (ctypes.c_uint32 * 8)(*range(7, 15))
    assert word_reader([ctypes.addressof(small) + 4 * k for k in (2, 7)], ctypes.c_uint32)() == [9, 14]
    values[17] = 1  # read now, not when the reader was made
    assert word_reader(addresses)()[2] == 1


def test_misaligned_addresses_get_no_reader_and_none_get_an_empty_one():
    values = (ctypes.c_uint64 * 4)()
    assert word_reader([ctypes.addressof(values), ctypes.addressof(values) + 4]) is None
    assert word_reader([])() == []
    assert word_reader([8, 8 + 8 * (1 << 61)]) is None  # past what an array type can describe


def test_the_version_tags_read_as_before_and_a_change_put_back_is_seen():
    watched = module_globals.ModuleGlobals()
    assert watched._gathered is not None
    one_by_one = [t & module_globals._MASK
                  for t in map(module_globals._VALUE, map(module_globals._UINT64_AT, watched.addresses))]
    assert watched._read() == one_by_one
    classes = integrity.ClassVersions({})
    assert classes._gathered is not None
    assert classes._read() == [ctypes.c_uint.from_address(a).value for a in classes.addresses]
    import json  # a watched standard-library module
    json.kernel_env_probe = 1
    del json.kernel_env_probe
    assert "json" in watched.changed()
    cls = classes.classes[0]
    assert isinstance(cls, type) and not isinstance(cls, types.ModuleType)
    setattr(cls, "kernel_env_probe", 1)
    delattr(cls, "kernel_env_probe")
    assert f"{cls.__module__}.{cls.__qualname__}" in classes.changed()


def test_the_bindings_compare_the_dicts_set_anew_and_the_evaluators_code():
    """integrity.Bindings: a namespace dict whose tag is new is compared by what it holds (a
    replaced function is a change; the same object put back is not, as before: the tags above
    see that); the evaluator's functions' code is compared at every check."""
    import torch.nn.functional as F

    from server.evaluation import word_gather

    bindings = integrity.Bindings({})
    assert bindings.tags is not None and bindings.unchanged()
    relu = F.relu
    F.relu = lambda x: x
    try:
        assert not bindings.unchanged()
    finally:
        F.relu = relu
    assert bindings.unchanged()
    code = word_gather.word_reader.__code__
    word_gather.word_reader.__code__ = (lambda addresses, ctype=None, mask=None: None).__code__
    try:
        assert not bindings.unchanged()
    finally:
        word_gather.word_reader.__code__ = code
    assert bindings.unchanged()
    defaults = word_gather.word_reader.__defaults__
    word_gather.word_reader.__defaults__ = (ctypes.c_uint32, None)
    try:
        assert not bindings.unchanged()
    finally:
        word_gather.word_reader.__defaults__ = defaults
    assert bindings.unchanged()
    assert bindings.code_reader is not None  # (CPython 3.11, 3.12: the fields are read directly)
