"""Inputs that once crashed the static check (an internal error) or misread a file: each now gets
a clean verdict (red-team pass 21)."""

import sys

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


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_an_encoding_declaration_behind_other_line_ends_is_found(newline):
    """Python's import ends lines at a lone `\\r`; tokenize.detect_encoding on a string's bytes
    did not, so `\\r# coding: utf-7\\r` hid the declaration (red-team pass 29). The text is
    checked, and imported, with `\\n` line ends."""
    source = newline + "# -*- coding: utf-7 -*-" + newline + RELU.replace("\n", newline)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "utf-7" in refused.value.feedback
    report = static_check(RELU.replace("\n", newline), "triton")
    assert "\r" not in report.source and report.kernels


def test_a_null_byte_is_a_syntax_error():
    with pytest.raises(StageFailure) as refused:
        static_check(RELU + "\0", "triton")
    assert refused.value.error_class == "syntax_error"


@pytest.mark.parametrize("line", [
    "A = torch.Tensor(np.zeros(4, dtype=np.float32))", "A = torch.FloatTensor(np.zeros(4))",
    "A = torch.empty(0).new(np.zeros(4))", "W = (torch.FloatTensor,)[0]", "T = torch.Tensor\nW = [T]",
    "def f(x):\n    m = x.new\n    return m", "def f(t, a):\n    return torch.Tensor.new(t, a)",
    "def f(n):\n    return torch.Tensor(n)",  # a bare name may be an array
    "def f(int):\n    return torch.Tensor(int(np.zeros(4)))",  # int rebound (a parameter)
    # the same classes named through another module (red-team pass 74: a method planted on one,
    # an item of a list, ran in the evaluator's checks right after each call)
    "A = torch.nn.functional.Tensor(np.zeros(4))", "KINDS = [torch.nn.functional.Tensor]",
    "import torch.nn.functional as F\nKINDS = [F.Tensor]", "W = [torch.nn.init.Tensor]",
])
def test_legacy_constructors_given_data_are_refused(line):
    """They make a tensor over a numpy array's memory (red-team pass 22), and no mode sees them."""
    source = RELU.replace("import torch\n", f"import numpy as np\nimport torch\n\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "legacy constructor" in refused.value.feedback


@pytest.mark.parametrize("line", [
    "import typing\nT = typing.Tuple[torch.FloatTensor]\nW = typing.get_args(T)[0]",
    "from typing import Optional\nW = Optional[torch.FloatTensor].__args__[0]",
])
def test_types_named_in_generics_do_not_come_back_out(line):
    """Generics may name the legacy types because nothing calls them there; `get_args` and
    `__args__` would hand the constructor back (review of session 13)."""
    source = RELU.replace("import torch\n", f"import torch\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "get_args" in refused.value.feedback or "__args__" in refused.value.feedback


def test_classic_sizes_and_typing_constructs_pass():
    """False-rejection probe 6: `torch.Tensor(int(n))` in a classic layer, and the tensor type in
    typing constructs other than a subscript."""
    lines = ("import typing\nfrom typing import Callable, TypeVar\n"
             "Launcher = Callable[[torch.Tensor, torch.Tensor], None]\nMaybe = torch.Tensor | None\n"
             "TT = TypeVar('TT', bound=torch.Tensor)\n\n\n"
             "def bias(n, shape):\n    return torch.Tensor(int(n)), torch.Tensor(len(shape) * 2 + 1)\n\n\n"
             "def h(v):\n    assert isinstance(v, torch.Tensor | None)\n"
             "    return typing.cast(torch.Tensor, v)\n")
    assert static_check(RELU.replace("import torch\n", f"import torch\n{lines}", 1), "triton").kernels


def test_legacy_constructors_with_a_size_and_tensor_types_pass():
    lines = ("from typing import Optional, Tuple\nPair = Tuple[torch.Tensor, torch.Tensor]\n"
             "W = torch.nn.Parameter(torch.Tensor(4, 8))\nB = torch.Tensor(3)\nT = torch.Tensor\n\n\n"
             "def g(x: Optional[torch.Tensor], y: torch.nn.functional.Tensor) -> T:\n"
             "    assert isinstance(x, (torch.Tensor, float)) or type(x) is torch.Tensor\n    return x\n")
    assert static_check(RELU.replace("import torch\n", f"import torch\n{lines}", 1), "triton").kernels


@pytest.mark.parametrize("line", [
    "import einops\nB = einops.einops.get_backend",
    "from einops.packing import get_backend",
    "import einops.tests.run_tests as run",
    "from einops.tests.run_tests import run",
    "import einops\nF = einops.einops.string.Formatter",
    "from einops import einops as inner",
    "from einops.layers.torch import Rearrange",
    "import einops\nA = einops.asnumpy",
    "import einops\nW = einops.parsing.warnings.warn",
    "import einops\nE = einops\nB = E.einops.get_backend",
])
def test_einops_beyond_its_functions_is_refused(line):
    """Only einops' functions are allowed, by exact name: its modules hand out numpy and torch
    as values (get_backend), a shell runner (its tests) and attribute lookups by any name
    (string.Formatter) (einops review, session 18)."""
    assert "of einops only" in refusal(line)


def test_einops_functions_pass():
    lines = ("import einops\nfrom einops import rearrange, repeat, reduce, einsum, pack, unpack\n"
             "from einops import parse_shape, EinopsError\nR = einops.rearrange\n")
    static_check(RELU.replace("import torch\n", f"import torch\n{lines}", 1), "triton")


@pytest.mark.parametrize("line", [
    "S = torch.cuda.memory_snapshot",
    "A = torch.cuda.memory_allocated",
    "from torch.cuda.memory import memory_stats",
    "import torch.cuda.memory as m",
    "F = torch.cuda.mem_get_info",
    "U = torch.cuda.utilization",
    "A = torch.accelerator.memory_allocated",
    "E = torch.cuda.empty_cache",
])
def test_the_allocators_and_the_devices_state_is_refused(line):
    """Live blocks' addresses locate the evaluator's buffers (with `x.data_ptr()`), memory in
    use tells its calls apart (red-team pass 43)."""
    assert "allocator" in refusal(line)


@pytest.mark.parametrize("line", [
    "from triton.language.extra.cuda import globaltimer",
    "from triton.language.extra.cuda import globaltimer as t",
    "import triton.language as tl\nG = tl.extra.cuda.globaltimer",
    "from triton.language.extra.hip import memrealtime",
])
def test_tritons_clock_functions_are_refused_by_any_name(line):
    """Their inline assembly is Triton's own, which the rule on assembly text never reads
    (red-team pass 42)."""
    assert "clock" in refusal(line)


def refusal(line: str) -> str:
    """The static check's feedback on the bundled ReLU kernel with `line` after its imports."""
    source = RELU.replace("import torch\n", f"import torch\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    return refused.value.feedback


@pytest.mark.parametrize("body", [
    '    __annotations__ = {"x,(1),self.x": int}',  # a dataclass's field names, pasted as code
    '    match {"x,(1),self.x": int}:\n        case {**__annotations__}:\n            pass',
    '    match int:\n        case __index__:\n            pass',  # a conversion hook
    '    match []:\n        case [*__iter__]:\n            pass',
])
def test_special_names_are_refused_however_a_class_body_binds_them(body):
    """A match capture binds a class attribute as an assignment does (red-team pass 68); and a
    class's `__annotations__` name its dataclass fields, which dataclasses paste into the source
    of the methods they generate."""
    source = RELU.replace("import torch\n", f"import torch\n\n\nclass Holder:\n{body}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert refused.value.error_class == "format_violation"
    assert "__annotations__" in refused.value.feedback or "__i" in refused.value.feedback


def test_annotated_dataclass_fields_pass():
    source = RELU.replace("import torch\n", "import dataclasses\n\nimport torch\n\n\n"
                          "@dataclasses.dataclass\nclass Config:\n    block: int = 1024\n"
                          "    warps: int = 4\n", 1)
    assert static_check(source, "triton").kernels


@pytest.mark.parametrize("line", [
    's = "{0.__class__}".format(x)',  # a field that reads an attribute
    's = "{0[key]}".format({"key": 1})',  # an item
    's = "{a:{b.real}}".format(a=1, b=2)',  # a nested field in a format spec
    't = "{0." + "real}"\n    s = t.format(x)',  # a template put together at run time
    's = str.format("{}", x)', 'f = "{}".format\n    s = f(x)',  # the method away from its literal
    's = "{}".format_map({})\n    s = getattr(s, "format")("{}")',
])
def test_format_templates_that_read_attributes_or_are_not_literals_are_refused(line):
    """`str.format` reads what its template's fields name (red-team pass 69: an exception's
    traceback walked into the evaluator's frames)."""
    source = RELU.replace("import torch\n", f"import torch\n\n\ndef helper(x):\n    {line}\n    return s\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "format" in refused.value.feedback


@pytest.mark.parametrize("line", [
    's = "{} {:>8.3f} {name!r}".format(1, 2.0, name=x)',
    's = "{:{width}}".format(x, width=4)',
    's = TEMPLATE.format(threads=256)',  # a module constant bound once to a plain template
    's = "%s and %(k)s" % (x,) if False else f"{x!r:>10}"',
])
def test_plain_format_templates_pass(line):
    source = RELU.replace("import torch\n", "import torch\n\nTEMPLATE = \"__global__ void k() {{ int t = {threads}; }}\"\n\n\n"
                          f"def helper(x):\n    {line}\n    return s\n", 1)
    assert static_check(source, "triton").kernels


def test_an_attribute_of_an_item_of_a_names_container_may_be_assigned():
    """`nargs["a_desc"].block_shape = [BM, BK]`, the autotune pre-hook of Triton's persistent
    matmul tutorial, is `d = nargs["a_desc"]; d.block_shape = ...`, which passed already
    (red-team pass 72)."""
    lines = ("\n\ndef hook(nargs):\n    nargs[\"a_desc\"].block_shape = [nargs[\"BM\"], 32]\n"
             "    nargs[\"descs\"][0].block_shape = [16]\n")
    static_check(RELU.replace("import torch\n", f"import torch\n{lines}", 1), "triton")


@pytest.mark.parametrize("line", [
    "import sys\n\n\ndef f(o):\n    sys.modules[\"torch\"].relu = o",  # an item of a module's
    "T = torch\n\n\ndef f(o):\n    T.nn.modules.__dict__[\"linear\"].Linear = o",
    "def f(o):\n    f()[0].relu = o",  # an item of something computed
    "def f(x, o):\n    type(x).__mro__[1].relu = o",
    "def f(nargs):\n    nargs[\"a_desc\"]._handle = 1",  # private and special names as before
    "def f(nargs):\n    nargs[\"a_desc\"].__class__ = int",
])
def test_attributes_of_items_of_modules_or_computed_objects_stay_refused(line):
    assert "monkeypatching" in refusal(line) or "is not allowed" in refusal(line)


@pytest.mark.parametrize("line", [
    "import enum\nG = enum.global_enum",
    "from enum import global_enum",
    "import re\nG = re.enum.global_enum",  # the enum module re imports
    "import enum\nG = getattr(enum, \"global_enum\")",
])
def test_enum_global_enum_is_refused_by_any_name(line):
    """It writes an enum's members into the globals of the module its class names (`module=`):
    red-team pass 75 shadowed the builtin `next` in contextlib's, which then ran at every `with`
    of a context manager the evaluator entered (kernel
    `relu_computed_by_next_planted_in_contextlib_by_global_enum`)."""
    assert "enum.global_enum" in refusal(line)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters are Python 3.12 syntax")
def test_a_kernel_with_type_parameters_is_refused_with_its_reason():
    """Triton finds a kernel's source by `def name(` and cannot compile `def k[T](`; the
    message says so (it blamed a decorator line). Python 3.12's generic helpers and classes,
    `type` aliases and comments inside f-strings elsewhere pass (red-team pass 75)."""
    with pytest.raises(StageFailure) as refused:
        static_check(RELU.replace("def relu_kernel(", "def relu_kernel[T]("), "triton")
    assert "type parameters" in refused.value.feedback
    honest = RELU.replace("class ModelNew(nn.Module)", "class ModelNew[T](nn.Module)").replace(
        "import torch\n", "import torch\n\ntype Size = int\n\n\ndef ident[T](v: T) -> T:\n"
        "    return v\n\n\nTAG = f\"{'relu' # a comment inside a field\n}\"\n", 1)
    assert static_check(honest, "triton").kernels


@pytest.mark.parametrize("line", [
    "import abc\nC = abc.ABCMeta(\"C\", (), {f\"_{'_del_'}_\": print})",
    "import abc\nM = abc.ABCMeta\nC = M(\"C\", (), {})",
    "import enum\nC = enum.EnumType(\"C\", (enum.Enum,), {})",
    "import dataclasses\nC = dataclasses.make_dataclass(\"C\", [], namespace={f\"_{'_index_'}_\": len})",
    "import dataclasses\nC = dataclasses.make_dataclass(\"C\", [], **{})",
])
def test_classes_made_from_a_namespace_dict_are_refused(line):
    """As `type(name, bases, namespace)` is: a dict's computed keys (`f"_{'_del_'}_"`) name
    special methods that no rule on class bodies reads (red-team pass 75)."""
    assert "namespace" in refusal(line)


def test_enums_and_dataclasses_made_by_call_pass():
    source = RELU.replace("import torch\n", "import dataclasses\nimport enum\n\nimport torch\n\n"
                          "Color = enum.Enum(\"Color\", [\"RED\", \"GREEN\"])\n"
                          "Point = dataclasses.make_dataclass(\"Point\", [\"x\", (\"y\", int)])\n", 1)
    assert static_check(source, "triton").kernels


@pytest.mark.parametrize("line", [
    "import triton.language as tl\nS = tl.semantic.TritonSemantic",
    "from triton.language.semantic import TritonSemantic",
    "import triton.language as tl\nK = tl.semantic.TritonSemantic.lang.knobs",
    "import numpy\nM = numpy.lib.mixins.NDArrayOperatorsMixin",
])
def test_a_library_class_holding_a_module_is_refused_by_any_name(line):
    """Handed to a parameter, such a class carries its module past every rule on dotted names:
    `S.lang.typing.stdlib_re.enum.bltns` was builtins (red-team pass 83)."""
    feedback = refusal(line)
    assert "holds the module" in feedback or "triton.knobs" in feedback or "numpy.lib" in feedback


def test_a_chain_through_a_class_is_named_by_the_module_it_reaches():
    from server.evaluation.name_rules import _canonical, _reaches_shadowed_module
    assert _canonical("triton.language.semantic.TritonSemantic.lang.knobs.runtime") == "triton.knobs.runtime"
    assert _reaches_shadowed_module(
        "triton.language.semantic.TritonSemantic.lang.typing.stdlib_re.enum.bltns") == "builtins"


@pytest.mark.parametrize("line, says", [
    ("def holder(x: 'enum.bltns'):\n    pass", "builtins"),  # names in strings judged as code
    ("import enum\ndef holder(x: 'enum'):\n    pass", "names the module"),
    ("try:\n    torch.nope\nexcept AttributeError as e:\n    M = e.obj", "`.obj`"),
    ("S = triton.cdiv.signature.from_callable", "inspect"),
    ("L = triton.language.extra.spec", "ModuleSpec"),
    ("F = triton.language.extra.module_finder", "FileFinder"),
])
def test_objects_that_hand_back_modules_or_run_code_are_refused(line, says):
    """Red-team pass 84: an AttributeError's `obj` (the module whose lookup failed), a
    Signature's `from_callable(..., eval_str=True)`, the import machinery's objects left in
    Triton's globals, and a string annotation naming what code may not: each led to builtins."""
    source = RELU.replace("import torch\n", "import torch\nimport enum\nimport triton\n", 1)
    source = source.replace("import triton\n", f"import triton\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert says in refused.value.feedback


def test_plain_string_annotations_and_own_obj_attributes_pass():
    source = RELU.replace("import torch\n", "import torch\nfrom typing import Optional\n"
                          "def helper(x: 'torch.Tensor', y: 'Optional[int]' = None) -> 'torch.Tensor':\n"
                          "    return x\n", 1)
    static_check(source, "triton")


@pytest.mark.parametrize("line, says", [
    ("import functools\nN = 'x__doc__'\n@functools.wraps(torch.relu, (), (N[1:],))\ndef h(): pass",
     "alone"),
    ("import functools\n@functools.wraps(torch.relu, updated=())\ndef h(): pass", "alone"),
    ("import functools\n@functools.wraps(triton.cdiv)\ndef h(): pass", "not of a function"),
    ("X = numpy.info", "numpy.info"),
])
def test_functools_wraps_copies_only_a_functions_default_attributes(line, says):
    """Red-team pass 85: wraps' `updated` (spelt by slicing) copied a library module's globals,
    builtins among them, into the submission's; a library instance wrapped hands over its dict.
    numpy.info imports any module a string names."""
    source = RELU.replace("import torch\n", "import torch\nimport numpy\nimport triton\n", 1)
    source = source.replace("import triton\n", f"import triton\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert says in refused.value.feedback


def test_functools_wraps_of_a_function_passes():
    source = RELU.replace("import torch\n", "import torch\nimport functools\n"
                          "def inner(x):\n    return x\n@functools.wraps(inner)\ndef outer(x):\n"
                          "    return inner(x)\n@functools.wraps(torch.relu)\ndef named(x):\n"
                          "    return x\n", 1)
    static_check(source, "triton")


@pytest.mark.parametrize("line, says", [
    ("F = numpy.ma.mrecords.fromtextfile", "files"),
    ("S = numpy.safe_eval", "introspection"),
    ("from triton.experimental.gluon.nvidia.hopper import TensorDescriptor", "generated"),
    ("J = torch.cuda.jiterator.create_jit_fn", "generated"),
])
def test_library_functions_that_read_files_or_evaluate_text_are_refused(line, says):
    """Red-team pass 89: numpy's text-file reader opens any file from numpy's frame; gluon's
    descriptors carry a layout whose repr Triton's launch path evaluates; the jiterator
    compiles CUDA text past CUDA mode's checks."""
    source = RELU.replace("import torch\n", "import torch\nimport numpy\nimport triton\n", 1)
    source = source.replace("import triton\n", f"import triton\n{line}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert says in refused.value.feedback


@pytest.mark.parametrize("spelling", ['"_" * 2 + "array_interface" + 2 * "_"',
                                      '("_" * 2) + "array_interface" + "__"'])
def test_a_special_name_spelled_with_repetition_is_read(spelling):
    """`"_" * 2` folds like `+` (red-team pass 90: a ParameterDict key spelled so)."""
    source = RELU.replace("import torch\n", f"import torch\n\nKEY = {spelling}\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert "'__array_interface__'" in refused.value.feedback
    assert static_check(RELU.replace("import torch\n", 'import torch\n\nSEP = "-" * 40\n', 1),
                        "triton").kernels
