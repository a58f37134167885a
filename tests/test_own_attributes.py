"""Private attributes a submission may use: its own objects' (server/evaluation/own_attributes.py),
through the real static check."""

import pytest

from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check

PROGRAM = """
import torch
import torch.nn as nn
import triton
import triton.language as tl

OBJ = torch.nn.Linear(1, 1)  # some library object with private attributes of its own


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

{module}

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._block = 1024
        {init}

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), self._block),)](x, out, x.numel(), BLOCK=self._block)
        {forward}
        return out
"""


def check(module="", init="", forward=""):
    return static_check(PROGRAM.format(module=module, init=init, forward=forward), "triton")


HOLDER = "class H:\n    def __init__(self):\n        self._C = None\n\n    def get(self):\n        return self._C\n"


@pytest.mark.parametrize("module, init, forward", [
    ("class Act(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self._scale = 1.0\n\n"
     "    @property\n    def scale(self):\n        return self._scale\n\n"
     "    @scale.setter\n    def scale(self, v):\n        self._scale = v\n",
     "self.act = Act()\n        assert isinstance(self.act, (Act, nn.Module))", "s = self.act.scale"),
    ("", "self.register_buffer('_bias', torch.zeros(1))", "b = self._bias"),
    ("class Cfg:\n    _cache = {}\n\n    @classmethod\n    def block(cls, n):\n        if n not in cls._cache:\n"
     "            cls._cache[n] = triton.next_power_of_2(n)\n        return cls._cache[n]\n", "", "b = Cfg.block(8)"),
    ("", "", "f = lambda: self._block\n        b = f()"),
    ("class Base(nn.Module):\n    LIMIT = 4\n", "", "k = Base.LIMIT"),
    ("class Cfg:\n    _MAX_WARPS = 8\n", "", "k = Cfg._MAX_WARPS"),
    ("import enum\nimport functools\n\n\nclass Mode(enum.Enum):\n    A = 1\n\n\nclass Bad(Exception):\n    pass\n\n\n"
     "class Tiles:\n    def __init__(self):\n        self._n = 2\n\n    @functools.lru_cache(maxsize=None)\n"
     "    def blocks(self, k):\n        return self._n * k\n",
     "self.tiles = Tiles()\n        self.modes = [m for m in Mode] + [Mode['A'], Mode.A]",
     "try:\n            b = self.tiles.blocks(2)\n        except Bad:\n            raise Bad('no')"),
    ("import typing\n\n\nclass Act(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self._k = 2\n\n    @typing.final\n    def forward(self, x):\n        return self._k\n\n"
     "    @torch.autocast(device_type='cuda', enabled=False)\n    def other(self, x):\n        return self._k\n",
     "self.act = Act()", ""),
    ("from typing import NamedTuple\n\n\nclass Cfg(NamedTuple):\n    BLOCK: int = 64\n\n\n"
     "CFG = Cfg()._replace(BLOCK=128)\nKW = CFG._asdict()\nNAMES = Cfg._fields\n", "", ""),
    ("from torch.nn.modules.utils import _pair\nimport torch.nn.modules.utils as U\n\n\n"
     "K = _pair(3) + U._triple(1)\n", "", ""),
], ids=["property-and-setter", "registered-buffer", "classmethod-cache", "closure-over-self",
        "class-constant", "private-class-constant", "enums-exceptions-and-cached-methods",
        "final-and-autocast-methods", "named-tuple-api", "conv-tuple-helpers"])
def test_own_private_state_passes(module, init, forward):
    assert check(module, init, forward).kernels == ("copy_kernel",)


@pytest.mark.parametrize("module, forward, says", [
    ("def get(self):\n    return self._C\n", "get(OBJ)", "private attributes of objects other"),
    (HOLDER + "NATIVE = H.get(OBJ)\n", "", "may only be called"),
    (HOLDER + "K = H\nNATIVE = K.get(OBJ)\n", "", "may only be called"),
    (HOLDER + "NATIVE = getattr(H, 'get')(OBJ)\n", "", "may only be called"),
    (HOLDER + "\n    @classmethod\n    def grab(cls, obj):\n        return cls.get(obj)\n", "", "may only be called"),
    ("class H:\n    _C = None\n\n    @staticmethod\n    def get(self):\n        return self._C\n", "", "private"),
    ("class H:\n    _C = None\n\n    def get(self):\n        return (lambda self: self._C)(OBJ)\n", "", "private"),
    ("def deco(f):\n    return staticmethod(f)\n\n\nclass H:\n    _C = None\n\n    @deco\n    def get(self):\n"
     "        return self._C\n", "", "private"),
    ("class Outer:\n    class Inner:\n        def __init__(self):\n            self._C = None\n\n"
     "        def get(self):\n            return self._C\n\n\nNATIVE = Outer.Inner.get(OBJ)\n", "", "may only be called"),
    ("class H:\n    def __init__(self):\n        self._C = None\n\n    def get(self):\n        return self._C\n\n"
     "    stolen = staticmethod(get)\n\n\nNATIVE = H.stolen(OBJ)\n", "", "may only be called"),
    ("def property(f):\n    return staticmethod(f)\n\n\nclass H:\n    _C = None\n\n    @property\n"
     "    def get(self):\n        return self._C\n", "", "private"),
    ("", "m = self._modules", "private attributes of objects other"),
    (HOLDER + "\n    @classmethod\n    def run(self, obj):\n        return self.get(obj)\n", "",
     "may only be called"),  # a classmethod's first parameter is the class, whatever its name
    # red-team pass 39:
    ("import typing\n\n\nclass H(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self._C = None\n\n    @typing.final(staticmethod)\n    def get(self):\n"
     "        return self._C\n", "v = H().get(OBJ)", "private"),
    ("import functools\n\n\nclass H(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self._C = None\n\n    @functools.lru_cache(staticmethod)\n    def get(self):\n"
     "        return self._C\n", "v = H().get(OBJ)", "private"),
    (HOLDER + "\n    def __class_getitem__(self, obj):\n        return self.get(obj)\n", "",
     "may only be called"),
    (HOLDER + "\n    def __new__(k, obj=None):\n        return k.get(obj)\n", "", "may only be called"),
    ("import enum\n\n\nclass Mode(enum.Enum):\n    A = 1\n\n    def keep(self):\n        self._cdata = 0\n\n"
     "    def _missing_(self):\n        return self._cdata\n", "", "private"),
    ("class F(torch.autograd.Function):\n    def keep(self):\n        self._materialize_non_diff_grads = 1\n\n"
     "    def forward(self, x):\n        return self._materialize_non_diff_grads\n", "", "private"),
    ("class Fake:\n    setter = staticmethod\n\n\nclass H(nn.Module):\n    def __init__(self):\n"
     "        super().__init__()\n        self._C = None\n\n    @property\n    def p(self):\n"
     "        return 1\n\n    p = Fake()\n\n    @p.setter\n    def get(self):\n        return self._C\n",
     "", "private"),
    # red-team pass 40:
    ("class Mode(tl.core.Enum):\n    A = 1\n\n    def keep(self):\n        self._cdata = 0\n\n"
     "    def _missing_(self):\n        return self._cdata\n", "", "private"),
    ("import enum\n\n\nclass Base(enum.Enum):\n    A = 1\n\n\nclass Mode(Base):\n    def keep(self):\n"
     "        self._cdata = 0\n\n    def _missing_(self):\n        return self._cdata\n\n\n"
     "class Outer:\n    class Base(nn.Module):\n        pass\n", "", "private"),
    ("class H(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self._C = None\n\n"
     "    @property\n    def p(self):\n        return 1\n\n    if True:\n        class p:\n"
     "            setter = staticmethod\n\n    @p.setter\n    def get(self):\n        return self._C\n",
     "", "private"),
    ("import enum\n\n\nclass Mode(**{'metaclass': enum.EnumMeta}):\n    A = 1\n\n    def keep(self):\n"
     "        self._cdata = 0\n\n    def _missing_(self):\n        return self._cdata\n", "", "private"),
    ("import warnings\nW = getattr(warnings, 'sys')\n", "", "getattr(..., 'sys')"),
    ("from torch.nn.modules.utils import _ntuple\n", "", "private parts of modules"),
    # red-team pass 41: constants that are not there at run time, or shadow no base of their own
    ("class Sub(nn.Parameter):\n    _use_count: int\n", "v = Sub._use_count(x)", "private"),
    ("class Sub(nn.Parameter):\n    _use_count = 0\n    del _use_count\n", "v = Sub._use_count(x)",
     "private"),
    ("class H(nn.Module):\n    _forward_pre_hooks: dict\n\n    def get(self):\n"
     "        return self._forward_pre_hooks\n", "", "private"),
], ids=["function-with-a-self-parameter", "method-read-off-its-class", "class-under-another-name",
        "getattr-of-a-method", "classmethod-calls-a-method-through-cls", "staticmethod-self",
        "lambda-self-inside-a-method", "unknown-decorator", "nested-class-read-off-its-outer",
        "method-named-in-its-class-body", "decorator-name-rebound",
        "inherited-private-state", "classmethod-first-parameter-named-self",
        "decorator-call-with-a-callable", "cache-of-staticmethod", "class-getitem-self",
        "new-first-parameter", "enum-missing", "autograd-function-plain-forward",
        "setter-of-a-rebound-property", "enum-under-another-name", "base-named-twice",
        "setter-rebound-in-an-if-block", "metaclass-as-starred-keywords",
        "getattr-of-a-module-name", "other-private-helpers-of-a-module",
        "bare-annotation-constant", "deleted-constant", "bare-annotation-of-a-private-name"])
def test_foreign_private_attributes_are_refused(module, forward, says):
    with pytest.raises(StageFailure) as err:
        check(module, "", forward)
    assert err.value.error_class == "format_violation" and says in err.value.feedback


def test_own_attributes_may_carry_names_other_objects_attributes_refuse():
    """`self.buffer` that the file sets is only what it stored there; `.buffer` of anything
    else (a stream's raw bytes) stays refused, as do dunders on your own objects."""
    check(init="self.buffer = None\n        self.handle = 0",
          forward="if self.buffer is None:\n            self.buffer = torch.empty_like(x)")
    for init, forward, says in [
        ("self.out = None", "b = self.out.buffer", ".buffer"),
        ("", "b = OBJ.buffer", ".buffer"),
        ("", "b = self.raw", ".raw"),  # never set by the file: not its own
        ("self.dump = None", "self.dump(x)", ".dump"),  # a refused name not on the short list
    ]:
        with pytest.raises(StageFailure) as err:
            check(init=init, forward=forward)
        assert says in err.value.feedback



@pytest.mark.parametrize("module, says", [
    # set only in dead code: until then an inherited attribute answers (review of session 11)
    ("class BN(nn.BatchNorm2d):\n    @classmethod\n    def classes(cls):\n        if False:\n"
     "            cls.mro = None\n        return cls.mro()\n", ".mro"),
    ("import numpy as np\nclass A(np.ndarray):\n    def keep(self):\n        if False:\n"
     "            self.buffer = None\n        return self.buffer\n", ".buffer"),
])
def test_refused_names_on_classes_built_on_library_classes_stay_refused(module, says):
    with pytest.raises(StageFailure) as err:
        check(module=module)
    assert says in err.value.feedback



@pytest.mark.parametrize("forward", [
    "match x:\n            case self:\n                v = self._version",
    "try:\n            pass\n        except Exception as self:\n            v = self._traceback",
    # red-team pass 41: after the method's entry was checked on the real instance
    "@(lambda f: x)\n        def self():\n            pass\n        v = self._version",
    "class cls:\n            pass\n        v = self._version",
    "match [x]:\n            case [*self]:\n                v = self._version",
])
def test_self_rebound_by_a_pattern_or_a_handler_owns_nothing(forward):
    """`case self:` binds `self` with no assignment: `self._version` was then the input's
    (a name the file binds on its own `self` too, so only the rebinding can refuse it)."""
    with pytest.raises(StageFailure) as err:
        check(init="self._version = 0", forward=forward)
    assert "private" in err.value.feedback


MAKER = """
class Block(nn.Module):
    expansion = 2

    def __init__(self, width=1):
        super().__init__()
        self._width = width * self.expansion

    def get(self):
        return self._width


class Stack(nn.Module):
    def __init__(self, down=None, other=None):
        super().__init__()
        self.down = down() if down is not None else None

    def _make_layer(self, block, count):
        return [block(block.expansion) for _ in range(count)]
"""


@pytest.mark.parametrize("init", [
    "self.stack = Stack(down=Block if self._block > 0 else None)",
    "self.stack = Stack(Block)",
], ids=["swin-style-keyword", "positional"])
def test_a_class_passed_to_the_files_own_constructors_passes(init):
    """KernelBench's Swin Transformers pass `downsample=PatchMerging if ... else None` to a
    layer's constructor (kb_sweep: level 3 tasks 29 and 30)."""
    check(MAKER, init)


RESNET = MAKER + """

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        {body}

    def _make_layer(self, block, count):
        layers = [block(2)]
        width = 64 * block.expansion
        for _ in range(count):
            layers.append(block())
        return nn.Sequential(*layers)
"""


@pytest.mark.parametrize("body", [
    "self.layer1 = self._make_layer(Block, 2)\n        self.fc = nn.Linear(4 * Block.expansion, 1)",
    "block = Block\n        self.layer1 = self._make_layer(block, 2)\n        w = block.expansion",
    "self.layer1 = self._make_layer(count=2, block=Block)",
], ids=["resnet18", "resnet101-local-alias", "by-keyword"])
def test_kernelbenchs_resnet_idioms_pass(body):
    """KernelBench's ResNets pass their block class to a method of their own (kb_sweep: an
    honest copy of level 3 tasks 9 and 10 was refused)."""
    check(RESNET.format(body=body))


@pytest.mark.parametrize("module", [
    HOLDER + "\n\ndef take(h):\n    return h.get(OBJ)\n\n\nNATIVE = take(H)\n",  # a method of it
    HOLDER + "\n\ndef keep(h):\n    return h\n\n\nNATIVE = keep(H).get(OBJ)\n",  # handed back
    HOLDER + "\n\nclass Box(nn.Module):\n    def __init__(self, h):\n        super().__init__()\n"
    "        self.h = h\n\n\nNATIVE = Box(H).h.get(OBJ)\n",  # stored
    HOLDER + "\n\ndef take(h):\n    h = h\n    return h.get(OBJ)\n\n\nNATIVE = take(H)\n",  # rebound
    HOLDER + "\n\ndef take(h):\n    return h\n\n\nA = [take(H)]\n",
    "import functools\n" + HOLDER + "\n\nNATIVE = functools.partial(H)\n",  # into a library
    "from typing import NamedTuple\n" + HOLDER + "\n\nclass Box(NamedTuple):\n    h: object\n\n"
    "    def __init__(self, h):\n        pass\n\n\nNATIVE = Box(H).h.get(OBJ)\n",  # kept as a field
    HOLDER + "\n\nclass U(nn.Module):\n    def m(self, h):\n        return 1\n\n\n"
    "NATIVE = OBJ.m(H)\n",  # not `self.m`: any object's `m`
    HOLDER + "\n\nclass U(nn.Module):\n    def m(self, h):\n        return 1\n\n"
    "    def n(self):\n        self.m = print\n        return self.m(H)\n",  # `self.m` stored
    HOLDER + "\n\ndef take(h, *rest):\n    return 1\n\n\nNATIVE = take(1, H)\n",  # into *rest
    HOLDER + "\n\ndef take(**kw):\n    return 1\n\n\nNATIVE = take(h=H)\n",  # into **kw
    HOLDER + "\n\nK = H if True else None\nNATIVE = K.get(OBJ)\n",  # a conditional's alias
    MAKER + "\n\nNATIVE = Stack()._make_layer(Block, 2)\n",  # not `self.`: any object's method
    HOLDER + "\n\nclass Box(nn.Module):\n    def __init__(self, k):\n        super().__init__()\n\n"
    "    if True:\n        def __init__(self, k):\n            nn.Module.__init__(self)\n"
    "            self.k = k\n\n\nNATIVE = Box(H).k.get(OBJ)\n",  # the `__init__` that runs (pass 40)
    # red-team pass 37 on the first version of the flows:
    HOLDER + "\n\nclass K(H if True else nn.Module):\n    pass\n\n\nNATIVE = K.get(OBJ)\n",
    HOLDER + "\n\nB = H\n\n\nclass K(B):\n    pass\n\n\nNATIVE = K.get(OBJ)\n",
    HOLDER + "\n\ndef deco(c):\n    return lambda *a: a\n\n\n@deco\nclass Box(nn.Module):\n"
    "    def __init__(self, k):\n        super().__init__()\n\n\nNATIVE = Box(H)[0].get(OBJ)\n",
    HOLDER + "\n\ndef keep(self, k):\n    nn.Module.__init__(self)\n    self.k = k\n\n\n"
    "class Box(nn.Module):\n    def __init__(self, k):\n        super().__init__()\n\n"
    "    __init__ = keep\n\n\nNATIVE = Box(H).k.get(OBJ)\n",
    HOLDER + "\n\nclass Dummy(nn.Module):\n    def setdefault(self, key, k):\n        return None\n\n\n"
    "class Box(dict):\n    def grab(self):\n        self.setdefault('k', H)\n        return self['k'].get(OBJ)\n",
    HOLDER + "\n\nclass U(nn.Module):\n    def pick(self, k=None):\n        return self\n\n"
    "    @classmethod\n    def grab(self):\n        return self.pick(H)\n",
    # red-team pass 38:
    "import typing\nT = typing.TypeVar('T')\n\n\nclass Base(nn.Module, typing.Generic[T]):\n"
    "    def __init__(self):\n        super().__init__()\n        self._C = None\n\n"
    "    def get(self):\n        return self._C\n\n\nclass K(Base[int]):\n    pass\n\n\n"
    "NATIVE = K.get(OBJ)\n",
    HOLDER + "\n\ndef unwrap(c):\n    return c.get\n\n\n@unwrap\nclass K(H):\n    pass\n\n\n"
    "NATIVE = K(OBJ)\n",
    HOLDER + "\n\nclass K(H):\n    pass\n\n\nNATIVE = super(K, K).get(OBJ)\n",
    HOLDER + "\n\nclass K(H):\n    @classmethod\n    def run(cls, obj):\n        return super().get(obj)\n",
    HOLDER + "\n\nclass Base(nn.Module):\n    def __init_subclass__(cls, block=None):\n"
    "        cls.blk = block\n\n\nclass Sub(Base, block=H):\n    pass\n",
    HOLDER + "\n\nclass Sub(H):\n    pass\n\n\nclass Sub(nn.Module):\n    pass\n\n\n"
    "NATIVE = Sub.get(OBJ)\n",
    HOLDER + "\n\nclass Base(nn.Module):\n    width = 1\n\n\nclass K(Base):\n"
    "    def width(self):\n        return self._w\n\n\ndef take(b):\n    return b.width(OBJ)\n\n\n"
    "NATIVE = take(K)\n",
    HOLDER + "\n\nclass U(nn.Module):\n    def pick(self, k):\n        return 1\n\n"
    "    def grab(self):\n        return self.pick(H)\n\n\nclass Mixin:\n    def pick(self, k):\n"
    "        return k\n\n\nclass Sub(Mixin, U):\n    pass\n",
], ids=["method-of-the-parameter", "returned", "stored-on-an-instance", "parameter-rebound",
        "in-a-list", "library-call", "namedtuple-field", "other-objects-method",
        "stored-method-name", "star-args", "star-kwargs", "conditional-alias",
        "another-objects-make-layer", "init-redefined-in-an-if-block", "base-through-a-conditional", "base-through-an-alias",
        "class-decorator", "init-rebound-in-the-body", "same-name-in-another-class",
        "classmethod-pick", "generic-base", "class-decorator-of-the-file", "super-of-the-class",
        "super-in-a-classmethod", "class-keyword", "two-classes-of-one-name",
        "method-over-a-base-constant", "mixin-method-first"])
def test_a_class_passed_where_it_escapes_the_rules_is_refused(module):
    with pytest.raises(StageFailure) as err:
        check(module)
    assert "may only be called" in err.value.feedback


@pytest.mark.parametrize("module, forward", [
    ("class Double(torch.autograd.Function):\n    _BLOCK = 1024\n", "v = Double._BLOCK"),
    ("from dataclasses import dataclass\n\n\n@dataclass(slots=False)\nclass Cfg:\n    n: int = 4\n\n"
     "    def block(self):\n        self._b = self.n * 256\n        return self._b\n", "v = Cfg().block()"),
    ("use_globaltimer = False\n", "v = use_globaltimer"),
])
def test_honest_constants_and_names_pass(module, forward):
    """A private constant of a class built on a library class, a dataclass that is not
    remade, a name that only contains a clock function's (wrongly refused for a while in
    session 19: a review)."""
    check(module, "", forward)
