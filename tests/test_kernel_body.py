"""What a @triton.jit kernel body may read: Triton, jit functions, constants, its own locals and
a few builtins (server/evaluation/kernel_body.py). Through the real static check."""

import pytest

from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check

PROGRAM = """
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice
{module}

@triton.jit
def helper(v):
    return v


@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr{params}):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    {body}
    tl.store(out_ptr + offs, x, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        kernel[(1,)](x, out, x.numel(), BLOCK=1024)
        return out
"""


def check(body="", module="", params=""):
    return static_check(PROGRAM.format(body=body, module=module, params=params), "triton")


@pytest.mark.parametrize("module, body", [
    ("", "x = helper(x) * libdevice.exp(x)"),
    ("SCALE = tl.constexpr(2.0 * 1.5)\nALSO = SCALE", "x = x * SCALE * ALSO"),
    ("SCALE: tl.constexpr = tl.constexpr(2.0)", "x = x * SCALE"),
    ("SIZES = tl.constexpr((16, 32))\nLOG2E = tl.constexpr(1 / math.log(2))", "x = x * LOG2E + SIZES[0]"),
    ("DTYPE = tl.float32\nWIDTH = tl.constexpr(triton.next_power_of_2(100))", "x = x.to(DTYPE) + WIDTH"),
    ("", "x = x * math.pi"),
    ("", "for i in range(min(2, max(1, len((1, 2))))):\n        x = x + float(i)"),
    ("", "x = tl.where(x > 0, x, 0.0).to(tl.float32)"),
    # module constants that honest kernels spell with builtins or a dtype's limits
    ("NEG_INF = tl.constexpr(float(\"-inf\"))", "x = tl.maximum(x, NEG_INF)"),
    ("NEG_INF = tl.constexpr(-float(\"inf\"))\nBIG = tl.constexpr(int(1e6))", "x = tl.maximum(x, NEG_INF) + BIG"),
    ("EPS = tl.constexpr(torch.finfo(torch.float32).eps)\nTOP = tl.constexpr(torch.iinfo(torch.int32).max)",
     "x = x + EPS + TOP"),
    ("exp = tl.exp\nact = helper", "x = act(exp(x))"),
    # false-rejection probe 5: constants as engineers spell them, triton's constexpr functions
    ("LARGE = True\nBLOCK2 = tl.constexpr(2048 if LARGE else min(512, triton.next_power_of_2(300)))\n"
     "WARPS = {b: b // 256 for b in (256, 512)}\nact = helper if LARGE else helper",
     "x = act(x) + BLOCK2 + triton.cdiv(BLOCK, 2)"),
    ("", "x = x.to(out_ptr.dtype.element_ty) + x.shape[0] + x.dtype.primitive_bitwidth + BLOCK.value\n"
     "    t = x.T\n    y = tl.zeros_like(x).to(tl.pointer_type(tl.float16).element_ty)\n"
     "    y: tl.tensor = x"),
], ids=["jit-and-libdevice", "constant", "constexpr", "tuple-and-math", "triton-values",
        "math-module", "builtins", "methods-of-values", "float-inf-constexpr", "number-casts",
        "dtype-limits", "aliases-called", "probe-5-constants", "attributes-of-values"])
def test_honest_kernel_bodies_pass(module, body):
    assert check(body, module).kernels == ("helper", "kernel")


@pytest.mark.parametrize("module", [
    "SCALE = 2.0", "SCALE: tl.constexpr = 2.0", "SCALE = -float('inf')", "SCALE = (16, 32)",
    "SCALE = triton.next_power_of_2(100)", "SCALE = math.pi", "SCALE = torch.iinfo(torch.int32).max",
    "PLAIN = 2.0\nSCALE = PLAIN if True else tl.constexpr(1.0)",
])
def test_a_plain_module_value_read_in_a_kernel_is_refused_as_triton_compiler_refuses_it(module):
    """Triton's compiler reads only globals made with `tl.constexpr(...)` (and triton's objects,
    modules, jit functions); its interpreter reads any. The H200 run of session 16 failed
    `LOG2E: tl.constexpr = 1.44` with NameError."""
    with pytest.raises(StageFailure) as err:
        check("x = x * SCALE", module)
    assert "plain Python value" in err.value.feedback and "tl.constexpr(" in err.value.feedback


@pytest.mark.parametrize("module, body, params, names", [
    ("HELPERS = {}", "x = HELPERS['relu'](x)", "", "HELPERS"),
    ("def relu(v):\n    return v\nalias = relu", "x = alias(x)", "", "alias"),
    ("class H:\n    pass\nBOX = (H(),)", "x = BOX[0].relu(x)", "", "BOX"),
    ("SIZES = [16, 32]", "x = x + SIZES[0]", "", "SIZES"),
    ("SCALE = 2.0\ndef rebind():\n    global SCALE\n    SCALE = object()", "x = x * SCALE", "", "SCALE"),
    ("range = lambda n: n", "for i in range(2):\n        x = x + i", "", "range"),
    ("import numpy as np", "x = np.maximum(x, 0)", "", "numpy"),
    ("", "x = x.handle", "", ".handle"),
    ("", "x = getattr(x, 'handle')", "", "getattr"),
    ("", "x = x + sum((1, 2))", "", "sum"),
    ("class H:\n    pass", "x = H.relu(x)", ", H=H()", "default"),
    ("import math as m\nm = {}\nK = m.get(1)", "x = x * K", "", "K"),
    # a block formats as its values' text in the interpreter: Python could compute on it
    ("", "text = f\"{x}\"", "", "formats a string"),
    ("", "text = \"%s\" % x", "", "formats a string"),
    ("", "text = \"{}\".format(x)", "", ".format"),
    ("", "v = tl.sum(x, 0)\n    parts = (v, v).count(v)", "", ".count"),
    # casts and dtype limits only of constants, with the real builtins and torch's own finfo
    ("float = lambda v: object()\nINF = float(\"inf\")", "x = x + INF", "", "INF"),
    ("import numpy as np\nPI = float(np.pi)", "x = x * PI", "", "PI"),
    ("W = torch.ones(2)\nEPS = torch.finfo(W.dtype).eps", "x = x + EPS", "", "EPS"),
    ("EPS = torch.finfo(torch.float32).dtype", "x = x + EPS", "", "EPS"),
    # a constexpr's value is a field: set anywhere, the name is no constant; never called
    ("ACT = tl.constexpr(1.0)\nACT.value = 2.0", "x = x * ACT", "", "ACT"),
    ("ACT = tl.constexpr(1.0)\nsetattr(ACT, 'value', 2.0)", "x = x * ACT", "", "ACT"),
    ("ACT = tl.constexpr(1.0)", "x = ACT(x)", "", "calls `ACT`, a constant"),
    # a class of the file's own named `torch` is not torch: its `finfo` runs the file's code
    ("class torch:\n    float32 = 1\n    class finfo:\n        def __init__(self, d):\n"
     "            self.eps = 1\nEPS = torch.finfo(torch.float32).eps", "x = x + EPS", "", "EPS"),
    # red-team pass 31: methods and functions read into locals, then called by name
    ("", "fmt = \"-\".join\n    t = fmt(x)", "", ".join"),  # (`.format` away from its call: name_rules)
    ("FMT = tl.constexpr(\"{}\")", "rep = FMT.replace\n    t = rep(\"[\", \" \")", "", ".replace"),
    ("", "fsum = math.fsum\n    t = fsum((1.0, 2.0))", "", "math.fsum"),
    ("", "y = tl.core.tensor(0, tl.float32)", "", "triton.language.core.tensor"),
    ("", "make = tl.core.tensor\n    y = make(0, tl.float32)", "", "triton.language.core.tensor"),
    ("FSUM = math.fsum", "t = FSUM((1.0, 2.0))", "", "math"),
    ("T = tl.core.tensor", "y = T(0, tl.float32)", "", "triton"),
    # red-team pass 36: answered at compile time by the compiler, at run time by the interpreter
    ("", "if isinstance(x, tl.tensor):\n        x = x * 0.0", "", "isinstance"),
], ids=["dict-entry", "alias", "container", "list", "global-statement", "rebound-builtin",
        "numpy", "handle", "getattr", "other-builtin", "default-argument",
        "constant-from-rebound-module", "f-string", "percent-format", "str-format",
        "method-of-a-python-value", "rebound-float", "cast-of-numpy", "finfo-of-a-tensor",
        "finfo-other-field", "finfo-of-a-fake-torch", "constexpr-value-set", "constexpr-setattr",
        "constant-called", "bound-method-read", "constant-method-read", "math-function-read",
        "tensor-constructed", "tensor-class-read", "math-function-alias", "tensor-class-alias",
        "isinstance"])
def test_kernel_bodies_reaching_python_objects_are_refused(module, body, params, names):
    with pytest.raises(StageFailure) as err:
        check(body, module, params)
    assert err.value.error_class == "format_violation"
    # `handle` is refused anywhere now (the interpreter's arrays), before the kernel rules
    assert names in err.value.feedback and ("kernel" in err.value.feedback or "handle" in names
                                            or "'handle'" in err.value.feedback)


@pytest.mark.parametrize("body", [
    "x = x * tl.math.exp(x)", "x = libdevice.exp(x)", "x = tl.extra.cuda.libdevice.fast_expf(x)",
    "x = tl.where(x > 0, x, tl.zeros_like(x)) * math.pi", "acc = tl.zeros((BLOCK,), dtype=tl.float32)",
    "x = tl.maximum(x, 0.0, propagate_nan=tl.PropagateNan.ALL)",  # an enum of the compiler's
])
def test_triton_languages_own_operations_types_and_constants_pass(body):
    check(body=body)


@pytest.mark.parametrize("body", [
    "call = tl.core.typing.operator.call",  # the stdlib, reached through triton.language's modules
    "spec = tl.extra.module_from_spec",
    "b = tl.core.ir.builder",  # where PropagateNan's class lives: the interpreter's machinery
    "x = x + triton.testing.do_bench(n)",  # triton's host helpers are not kernel operations
    # (triton.cdiv and triton.next_power_of_2 are: constexpr functions, probe 5)
])
def test_reads_that_leave_triton_language_are_refused(body):
    with pytest.raises(StageFailure) as failure:
        check(body=body)
    assert failure.value.error_class == "format_violation"


@pytest.mark.parametrize("module", [
    "if False:\n    import triton.language as getattr",
    "if False:\n    from triton import language as vars",
    "def unused():\n    import math as globals",
])
def test_no_import_may_take_a_builtins_name_even_in_dead_code(module):
    with pytest.raises(StageFailure) as failure:
        check(module=module)
    assert "name of a Python builtin" in failure.value.feedback


@pytest.mark.parametrize("module", ["interpreter_semantic = 0", "if False:\n    interpreter_builder = 1"])
def test_the_interpreters_own_names_are_refused(module):
    with pytest.raises(StageFailure) as failure:
        check(module=module)
    assert "Triton's interpreter binds" in failure.value.feedback


@pytest.mark.parametrize("module, body", [
    ("", "print(x)"),
    ("", "tl.device_print('v', x)"),
    ("", "tl.static_print(x)"),
    ("", "show = tl.device_print\n    show('v', x)"),
    ("show = tl.device_print", "show('v', x)"),
    ("from triton.language import device_print", "device_print('v', x)"),
    ("from triton.language import device_print as show", "show('v', x)"),
    ("shout = print", "shout(x)"),
])
def test_kernels_may_not_print_under_any_name(module, body):
    """In the interpreter printed values reach host code (redirect_stdout, numpy's formatter)."""
    with pytest.raises(StageFailure) as failure:
        check(body=body, module=module)
    assert failure.value.error_class == "format_violation"


@pytest.mark.parametrize("module", [
    "kernel.fn = helper",
    "setattr(kernel, 'fn', helper)",
    "kernel.cache = {}",
    "kernel.pre_hook = None",
    "del kernel.fn",
])
def test_kernels_are_launched_never_changed(module):
    """Assigning into a kernel object swapped what the interpreter ran for a function no rule
    had read (`kernel.rewritten_fn[kernel.fn] = body`)."""
    source = PROGRAM.format(body="", module="", params="") + "\n" + module + "\n"
    with pytest.raises(StageFailure) as failure:
        static_check(source, "triton")
    assert "is a kernel" in failure.value.feedback


@pytest.mark.parametrize("module", [
    "KERNELS = {'k': kernel}\nk = KERNELS['k']\nk.fn = helper",
    "KERNELS = [kernel]\nKERNELS[0].src = 'def kernel(): pass'",
    "KERNELS = [kernel]\nsetattr(KERNELS[0], 'fn', helper)",
    "box = [kernel]\nfor k in box:\n    del k.fn",
])
def test_a_kernels_body_is_not_swapped_through_an_alias(module):
    """A kernel reached through a container or another name is not among the names the read-only
    rule knows: its function and source may not be assigned on anything but `self` (red-team
    pass 72: `k = REG["k"]; k.fn = body` passed the static check)."""
    source = PROGRAM.format(body="", module="", params="") + "\n" + module + "\n"
    with pytest.raises(StageFailure) as failure:
        static_check(source, "triton")
    assert "a kernel object keeps its function there" in failure.value.feedback


@pytest.mark.parametrize("module", [
    "class Box:\n    def __init__(self, f):\n        self.fn = f\n\n"
    "functools.update_wrapper(kernel, Box(helper))",
    "from functools import update_wrapper as copy_onto\nKERNELS = [kernel]",
    "class Box:\n    def __init__(self, f):\n        self.fn = f\n\n"
    "KERNELS = [kernel]\nfunctools.wraps(Box(helper))(KERNELS[0])",
    "WRAP = functools.wraps",
])
def test_a_kernels_attributes_are_not_copied_onto_it(module):
    """functools.update_wrapper sets attributes by names no rule reads, `__dict__` included, on
    any object: red-team pass 73 gave a kernel the interpreter's `rewriter` of a
    `make_dataclass` instance that way, and the interpreter ran a numpy body (scored 0.3)."""
    source = PROGRAM.format(body="", module="", params="") + "\nimport functools\n" + module + "\n"
    with pytest.raises(StageFailure) as failure:
        static_check(source, "triton")
    assert "copies one object's attributes onto another" in failure.value.feedback


def test_functools_wraps_may_decorate_a_def():
    module = ("import functools\n\ndef logged(f):\n    @functools.wraps(f)\n"
              "    def inner(*args):\n        return f(*args)\n    return inner\n")
    static_check(PROGRAM.format(body="", module="", params="") + "\n" + module, "triton")


def test_a_module_may_keep_its_own_fn():
    """`self.fn = ...` in a module is its own attribute, not a kernel's."""
    source = PROGRAM.format(body="", module="", params="").replace(
        "class ModelNew(nn.Module):\n", "class ModelNew(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fn = None\n\n", 1)
    assert "self.fn = None" in source
    static_check(source, "triton")


@pytest.mark.parametrize("name", ["rewritten_fn", "rewriter", "pre_run_hooks", "add_pre_run_hook"])
def test_the_interpreters_machinery_is_out_of_reach(name):
    source = PROGRAM.format(body="", module="", params="") + f"\nX = kernel.{name}\n"
    with pytest.raises(StageFailure) as failure:
        static_check(source, "triton")
    assert "interpreter's own machinery" in failure.value.feedback


@pytest.mark.parametrize("module, says", [
    ("def swap(f):\n    return f\n\n@triton.jit\n@swap\ndef act(v):\n    return v", "innermost"),
    ("@functools.lru_cache\n@triton.jit\ndef act(v):\n    return v", "innermost"),
    ("@triton.jit\nasync def act(v):\n    return v", "plain `def`"),
])
def test_triton_jit_wraps_the_body_that_was_checked(module, says):
    """A decorator under @triton.jit would hand Triton a function other than the one the
    kernel rules read (review of session 11: it scored, launched or passed as a constexpr)."""
    with pytest.raises(StageFailure) as err:
        check(module="import functools\n" + module)
    assert says in err.value.feedback


def test_autotune_and_heuristics_may_sit_above_triton_jit():
    check(module="@triton.autotune(configs=[triton.Config({})], key=[])\n"
                 "@triton.heuristics({'EVEN': lambda a: True})\n@triton.jit\ndef act(v):\n    return v")


def test_star_imports_are_refused():
    """`fmax = 0` then `from numpy import *`: the rules saw a constant, the kernel got numpy."""
    with pytest.raises(StageFailure) as err:
        check(module="fmax = 0\nfrom numpy import *", body="x = fmax(x, 0.0)")
    assert "import *" in err.value.feedback


def test_kernels_may_live_in_a_class_as_static_methods():
    check(module="class Kernels:\n    @staticmethod\n    @triton.jit\n    def k(v):\n        return v")


@pytest.mark.parametrize("module", [
    "def make(act):\n    @triton.jit\n    def combine(a, b):\n        return act(a, b)\n    return combine",
    "def make(act):\n    class K:\n        @staticmethod\n        @triton.jit\n        def combine(a, b):\n"
    "            return act(a, b)\n    return None",
    "class M(nn.Module):\n    def forward(self, x):\n        @triton.jit\n        def k(v):\n            return v\n"
    "        return x",
], ids=["factory", "class-in-a-factory", "inside-forward"])
def test_kernels_defined_inside_functions_are_refused(module):
    """Red-team pass 31: a nested kernel's free names are closure cells (a host function handed
    to tl.reduce as its combine ran on the block's values in the interpreter)."""
    with pytest.raises(StageFailure) as err:
        check(module=module)
    assert "inside a function" in err.value.feedback


@pytest.mark.parametrize("body, says", [
    ("v = [int(tl.load(x_ptr + j)) for j in range(4)]", "list comprehension"),
    ("v = int(tl.load(x_ptr))", "`int(...)` of a run-time value"),
    ("v = len(range(tl.load(x_ptr)))", "`len(...)` of a run-time value"),
    ("v = range(tl.load(x_ptr))", "`range(...)` other than"),
    ("v = float(tl.sum(x, 0))", "`float(...)` of a run-time value"),
    ("v = bool(n)", "`bool(...)` of a run-time value"),
    ("for acc in [0.0]:\n        acc += 1.0", "a `for` loop over something other"),
    ("bits = {0: 1}", "a dict"),
    ("f = lambda v: v\n    x = f(x)", "a lambda"),
    ("t = sum(v for v in (1, 2))", "a generator"),
    ("for i in range(4):\n        i = tl.load(x_ptr)\n        v = int(i)", "`int(...)` of a run-time value"),
    ("BLOCK = tl.load(x_ptr)\n    v = int(BLOCK)", "run-time value"),
    # red-team pass 33: a loop index, a lookup or a growing tuple holding the data as Python numbers
    ("v = tl.load(x_ptr)\n    for b in tl.static_range(v, v + 1):\n        x = x + b", "`tl.static_range` over bounds not known"),
    ("v = tl.load(x_ptr)\n    for b in range(v, v + 1):\n        x = x + (0, 1)[b]", "an index not known at compile time"),
    ("w = tl.load(x_ptr) + 1\n    for b in tl.range(0, w):\n        x = x + (0, 1)[b]", "an index not known at compile time"),
    ("t = (0, 1, 2)[tl.load(x_ptr)]", "an index not known at compile time"),
    ("v = helper(tl.load(x_ptr))\n    for b in range(v, v + 1):\n        x = x + (0, 1)[b]", "an index not known at compile time"),
    # a branch or a loop on a loaded value: what it assigns holds the value's bits
    ("v = tl.load(x_ptr)\n    if v & 1:\n        b = 1\n    else:\n        b = 0\n    x = x + (0, 1)[b]",
     "an index not known at compile time"),
    ("c = 0\n    for _ in range(0, tl.load(x_ptr)):\n        c += 1\n    x = x + (0, 1)[c]", "an index not known at compile time"),
    ("c = 0\n    v = tl.load(x_ptr)\n    while c < v:\n        c += 1\n    x = x + (0, 1)[c]", "an index not known at compile time"),
    # red-team pass 34: syntax Triton does not compile, run-time values where it needs constants
    ("for k in range(2):\n        if tl.load(x_ptr) > 0:\n            break", "`Break` syntax"),
    ("for k in range(2):\n        continue", "`Continue` syntax"),
    ("try:\n        k = 1\n    except Exception:\n        k = 0", "`Try` syntax"),
    ("v = tl.load(x_ptr)\n    x = x + 2.0 ** v", "`**` of a run-time value"),
    ("v = tl.load(x_ptr)\n    z = tl.zeros((v,), tl.float32)", "argument 1 of `triton.language.zeros`"),
    ("v = tl.load(x_ptr)\n    z = tl.arange(0, v)", "argument 2 of `triton.language.arange`"),
    ("tl.static_assert(tl.load(x_ptr) > 0)", "argument 1 of `triton.language.static_assert`"),
    ("for k in tl.static_range(0, tl.load(x_ptr)):\n        x = x + k", "`tl.static_range`"),
    ("for k in range(n):\n        return", "`return` inside a loop"),
    # a name bound under a run-time branch in a loop, read past its block, holds any of its values
    ("k = 0\n    for j in range(4):\n        if tl.load(x_ptr) > j:\n            k = j\n"
     "    x = x + (1.0, 2.0, 3.0, 4.0)[k]", "an index not known at compile time"),
    ("for j in range(4):\n        if tl.load(x_ptr) > j:\n            k = j\n"
     "    x = x + (1.0, 2.0, 3.0, 4.0)[k]", "an index not known at compile time"),
    ("for j in range(4):\n        if tl.load(x_ptr) > j:\n            for i in tl.static_range(j, j + 1):\n"
     "                x = x + 1\n    x = x + (1.0, 2.0, 3.0, 4.0)[i]", "an index not known at compile time"),
    ("acc = ()\n    acc = acc + (1,)", "a tuple grown"),
    ("acc = (1,)\n    acc = (*acc, 2)", "a tuple grown"),
    ("for xf, wf in ((1, 2),):\n        x = x + xf", "a `for` loop over something other"),
    ("v = int(tl.constexpr(tl.load(x_ptr)).value)", "of a run-time value"),
])
def test_python_values_the_compiler_refuses_are_refused(body, says):
    """Red-team pass 32: int()/len(range())/bool tests read a block's bits into Python numbers in
    the interpreter, comprehensions and lists held them, and Python computed a convolution."""
    with pytest.raises(StageFailure) as err:
        check(body)
    assert says in err.value.feedback and "compiler refuses" in err.value.feedback


def test_compile_time_conversions_lists_as_shapes_and_loops_pass():
    check("acc = tl.zeros([BLOCK], dtype=tl.float32) + float('-inf') + int(BLOCK) + len(x.shape)\n"
          "    lo = float(x.dtype.primitive_bitwidth) + int(LIMIT)\n"
          "    for i in range(0, n, BLOCK):\n        acc = acc + i\n"
          "    y = tl.reshape(acc, [BLOCK]) + tl.full(shape=[BLOCK], value=0.0, dtype=tl.float32)\n"
          "    shape = [BLOCK]\n    z = tl.zeros(shape, dtype=tl.float32)\n"
          "    for j in range(0, n):\n        k = tl.load(x_ptr + j)\n        z = z + k",
          module="LIMIT = tl.constexpr(4)")


JIT_HELPERS = ("@triton.jit\ndef takes_constexpr(v, FACTOR: tl.constexpr):\n    return v * FACTOR\n\n\n"
               "@triton.jit\ndef pick(t, i):\n    return t[i]\n")


@pytest.mark.parametrize("body, says", [
    ("x = takes_constexpr(x, tl.load(x_ptr))", "a constexpr parameter of `takes_constexpr`"),
    ("x = x + pick((1.0, 2.0), tl.load(x_ptr) > 0)", "an index not known at compile time"),
])
def test_a_helper_gets_compile_time_values_only_where_the_compiler_needs_them(body, says):
    """Red-team pass 34: a loaded value as a helper's constexpr (int() and tuple indices on it
    inside), or as the index a helper's tuple lookup takes."""
    with pytest.raises(StageFailure) as err:
        check(body, module=JIT_HELPERS)
    assert says in err.value.feedback


@pytest.mark.parametrize("body", [
    "if tl.load(x_ptr) > 0:\n        BLOCK = 2",
    "while tl.load(x_ptr) > 0:\n        BLOCK += 1",
])
def test_a_compile_time_parameter_rebound_under_run_time_flow_is_refused(body):
    """Red-team pass 35: Triton's compiler drops such an update; the interpreter kept it."""
    with pytest.raises(StageFailure, match="rebinds its compile-time parameter `BLOCK`"):
        check(body)


def test_builtins_triton_does_not_know_are_refused():
    with pytest.raises(StageFailure, match="`abs`, which is not triton.language"):
        check("x = abs(x)")


def test_compile_time_values_reach_helpers_and_local_constexprs():
    """A helper indexes a tuple by a parameter every call passes a constant (Triton specialises
    it), a local `X: tl.constexpr = ...` bounds a static loop, and a static loop's index inside
    a ragged loop indexes a tuple (false-rejection probe 9, red-team pass 34's h01)."""
    check(module=JIT_HELPERS, body="x = x + pick((1.0, 2.0), 1) + takes_constexpr(x, BLOCK // 2)\n"
          "    HALF: tl.constexpr = BLOCK // 2\n    shape = [HALF, 2]\n"
          "    z = tl.reshape(tl.zeros(shape, tl.float32), [BLOCK])\n"
          "    for i in tl.static_range(HALF // HALF):\n        x = x + z + (1.0, 2.0)[i]\n"
          "    for k in range(tl.load(x_ptr), n):\n"
          "        for j in tl.static_range(2):\n            x = x + (1.0, 2.0)[j] + k")


def test_compile_time_names_bound_more_than_once_or_under_run_time_loops_pass():
    """False-rejection probe 10: a static loop index reused by two loops, a constexpr local bound
    in both branches of a compile-time test, a static loop inside a run-time loop, f-strings of
    compile-time values, math on constants, the length of a tuple argument, a shape grown from
    a shape."""
    check("for i in tl.static_range(2):\n        x = x + (1.0, 2.0)[i]\n"
          "    for i in tl.static_range(2):\n        x = x + (3.0, 4.0)[i]\n"
          "    if BLOCK > 64:\n        SUB: tl.constexpr = 64\n    else:\n        SUB: tl.constexpr = 32\n"
          "    tl.static_assert(BLOCK % SUB == 0, f\"BLOCK={BLOCK} SUB={SUB}\")\n"
          "    while n > 0:\n        for j in tl.static_range(2):\n            x = x + (1.0, 2.0)[j]\n"
          "        n = n - 1\n"
          "    x = x * math.sqrt(2.0 / math.pi)\n"
          "    y = tl.reshape(x, (1,) + x.shape)\n    z = tl.zeros((len(SHAPE),), tl.float32)",
          params=", SHAPE")


def test_a_ragged_loop_over_bounds_read_from_memory_passes():
    """CSR rows: bounds loaded per program compile on a GPU (runtime loop bounds)."""
    check("start = tl.load(x_ptr + n)\n    end = tl.load(x_ptr + n + 1)\n"
          "    acc = tl.zeros([1], dtype=tl.float32)\n"
          "    for k in range(start, end):\n        acc += tl.load(out_ptr + k)\n"
          "    for k in tl.range(start, end, 2):\n        acc += tl.load(out_ptr + k)\n"
          "    if end > start:\n        acc = acc * 2\n    tl.store(out_ptr + tl.arange(0, 1), acc)")


HELPERS = "class H:\n    @staticmethod\n    @triton.jit\n    def f(v):\n        return v\n"


@pytest.mark.parametrize("module, body", [
    (HELPERS, "x = H.f(x)"),  # Triton's compiler: NameError, `H` is no constexpr global
    (HELPERS + "    C = 1\n", "x = x + H.C"),
    (HELPERS + "H.f = len", "x = H.f(x)"),  # set from outside: no longer the jit function
    (HELPERS.replace("class H:", "class H(nn.Module):"), "x = H.f(x)"),  # inherited lookups
    (HELPERS + "    f = len\n", "x = H.f(x)"),  # rebound in its class body
    (HELPERS, "g = H.f\n    x = g(x)"),  # read, not called
    (HELPERS + "\n    @classmethod\n    def install(cls):\n        cls.f = len\n", "x = H.f(x)"),
    (HELPERS + "\n    def __class_getitem__(cls, i):\n        cls.f = len\n", "x = H.f(x)"),
])
def test_a_class_attribute_is_refused_in_a_kernel_as_triton_compiler_refuses_it(module, body):
    """Triton's compiler refuses `Helpers.f(...)` (a global that is no constexpr; the H200 run of
    session 16) though its interpreter runs it; red-team pass 33 swapped such a method at run
    time (`cls.conv = host`)."""
    with pytest.raises(StageFailure, match="neither a module nor a constexpr|not triton.language"):
        check(body, module)
