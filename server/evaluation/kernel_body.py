"""Rules for the body of a `@triton.jit` kernel (Triton mode's static check).

On a GPU a kernel body is compiled: it can use only triton.language, other jit functions and
constants. Triton's interpreter (the cpu evaluator) runs the body as Python instead, with the
dispatch guard paused while it converts values, so anything else a body reaches (a helper
function, a module-level object and its methods, the interpreter's numpy arrays) would compute
unchecked. The rules therefore allow, for every name a body reads that it does not bind itself,
only what the compiler would accept too."""

from __future__ import annotations

import ast
import collections
import dataclasses
import functools
import importlib
import types

from .source_names import dotted, nodes, root
from .stages import STATIC_CHECK, StageFailure

# What the Triton compiler itself accepts by name in a kernel body.
# The builtins Triton's compiler knows (its builtin_namespace), less getattr/hasattr/print.
KERNEL_BUILTINS = frozenset({"range", "min", "max", "len", "int", "float", "list"})
# Answered at compile time by Triton's compiler (which compiles only the branch it picks) and at
# run time by its interpreter, about different kinds of values (a constexpr parameter is a
# tl.constexpr to one and a Python number to the other; a conditional expression on a run-time
# value a tensor to one and a Python number to the other): the interpreter ran the branch the
# compiler never compiled (red-team pass 36)
KERNEL_DIVERGENT_BUILTINS = frozenset({"isinstance"})
# Printing from a kernel: in the interpreter the values become host text, which a submission can
# capture (redirect_stdout, numpy's print formatter) and compute on in Python.
KERNEL_PRINTS = ("device_print", "static_print")
# Attribute access by name inside a kernel: the GPU compiler has no use for it, the interpreter
# hands over its numpy arrays through it.
KERNEL_REFUSED_BUILTINS = frozenset({"getattr", "hasattr", "setattr", "delattr", "vars", "dir", "type"})
KERNEL_MODULES = ("triton", "triton.language", "math")  # imports a kernel may read
# triton's constexpr functions, made to be called in kernels on constexprs
KERNEL_TRITON_FUNCTIONS = frozenset({"triton.cdiv", "triton.next_power_of_2"})
# triton.language's re-exports of its compiler's enums, by value (the enum class lives in
# triton._C, whose other names are the interpreter's machinery): false-rejection probe 11
KERNEL_TRITON_ENUM_VALUES = frozenset({"triton.language.PropagateNan.ALL",
                                       "triton.language.PropagateNan.NONE"})
_INTERPRETER_ARRAYS = ("handle", "data")


def _fail(feedback: str):
    raise StageFailure(STATIC_CHECK, "format_violation", feedback)


def kernel_globals(tree: ast.Module, aliases: dict[str, str],
                   jitted: list[ast.FunctionDef]) -> tuple[set[str], set[str], set[str]]:
    """Names a kernel may read besides its own: Triton (and math) imports, jit functions,
    constants, and the builtins in KERNEL_BUILTINS. A module-level name is allowed only if every
    module-level binding of it is one of these (so rebinding `tl` or `range` takes it away); a
    function is judged by its own decorators, not by its name (a plain `def` of a kernel's name
    after the kernel is the plain function at run time). Returns the allowed names and, among
    them, the constants (never called in a kernel: `tl.constexpr`'s value is a field the file
    could set to a function; a name whose attributes or items the file sets is no constant), and
    the plain ones, bound to a value not made by `tl.constexpr(...)` (a number, `math.pi`),
    which a kernel may not read."""
    jitted_ids = {id(fn) for fn in jitted}
    bindings: dict[str, list] = {}  # name -> [True | False | the assigned value]
    torch_imports: dict[str, list] = {}  # name -> [whether each binding is `import torch`]

    def bind(name: str, allowed, is_torch: bool = False):
        bindings.setdefault(name, []).append(allowed)
        torch_imports.setdefault(name, []).append(is_torch)

    for node in _module_scope(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                name = a.asname or a.name.split(".")[0]
                module = aliases.get(name, "")
                is_torch = isinstance(node, ast.Import) and (a.name == "torch" or (
                    not a.asname and a.name.split(".")[0] == "torch"))
                bind(name, module in KERNEL_MODULES or module.startswith("triton.language."), is_torch)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, id(node) in jitted_ids)
        elif isinstance(node, ast.Global):
            for name in node.names:
                bind(name, False)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name_node in nodes(target):
                    if isinstance(name_node, ast.Name):
                        bind(name_node.id, node.value if node.value is not None and
                             _plain_target(target) else False)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id, False)  # loop and with targets, walrus, del, ...
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and getattr(node, "name", None):
            bind(node.name, False)
    allowed: set[str] = set()
    for name in _mutated_names(tree):  # `ACT.value = host_relu`: no constant
        bind(name, False)
    builtins = KERNEL_BUILTINS - bindings.keys()  # `float("inf")`: the builtin, not rebound
    torch_names = frozenset(name for name, kinds in torch_imports.items() if all(kinds))
    while True:  # constants may be built from other constants: grow to a fixed point
        grown = {name for name, values in bindings.items()
                 if all(v is True or (isinstance(v, ast.AST)
                                      and _constant(v, aliases, allowed | builtins, torch_names))
                        for v in values)}
        if grown == allowed:
            # values, not aliases: `exp = tl.exp`, `act = relu` or `act = a if C else b` may be called
            constants = {name for name in allowed if any(
                isinstance(v, ast.AST) and not _alias(v) for v in bindings[name])}
            # Triton's compiler reads only globals made by `tl.constexpr(...)` (not `X = 2.0`,
            # nor `X: tl.constexpr = 2.0`); its interpreter reads any
            plain: set[str] = set()
            while True:
                grown_plain = {name for name in allowed if any(
                    isinstance(v, ast.AST) and not _triton_object(v, aliases, allowed - plain)
                    for v in bindings[name])}
                if grown_plain == plain:
                    return allowed | builtins, constants, plain
                plain = grown_plain
        allowed = grown


def _fail_class_global(fn: ast.FunctionDef, node: ast.AST, name: str) -> None:
    """Triton's compiler refuses a global that is not a constexpr (`Helpers.f(...)`, raising
    NameError), while its interpreter runs it: the cpu evaluator refuses it too."""
    _fail(f"line {node.lineno}: the kernel `{fn.name}` reads an attribute of `{name}`, a global "
          "that is neither a module nor a constexpr, which Triton's compiler refuses (a class's "
          "`@staticmethod @triton.jit` helper included, though the interpreter would run it); "
          "make the helper a module-level @triton.jit function")


def _triton_object(node: ast.AST, aliases: dict[str, str], names: set[str]) -> bool:
    """What Triton's compiler lets a kernel read from a global: a `tl.constexpr(...)`, an object
    of triton's (`tl.float32`, `tl.exp`), a module, a jit function, or another such global
    (`names`); not a plain number, string or tuple (`X = 2.0`, `math.pi`, `torch.iinfo(...).max`)."""
    if isinstance(node, ast.IfExp):
        return _triton_object(node.body, aliases, names) and _triton_object(node.orelse, aliases, names)
    if isinstance(node, ast.Call):
        return dotted(node.func, aliases) == "triton.language.constexpr"
    if isinstance(node, ast.Name) and node.id not in aliases:
        return node.id in names
    return (dotted(node, aliases) or "").startswith("triton.")


def _alias(node: ast.AST) -> bool:
    if isinstance(node, ast.IfExp):
        return _alias(node.body) and _alias(node.orelse)
    return isinstance(node, (ast.Name, ast.Attribute))


def _mutated_names(tree: ast.Module) -> set[str]:
    """Names whose attributes or items are set or deleted anywhere (`ACT.value = f`,
    `setattr(ACT, ...)`)."""
    names = set()
    for node in nodes(tree):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(root(node))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            names.add(root(node.args[0]))
    return names - {None}


def _module_scope(tree: ast.Module):
    """Nodes that bind module-level names: not inside function, lambda or class bodies (those
    bind their own locals), but a `global` statement anywhere rebinds a module name."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            outer = [*getattr(node, "decorator_list", []), *getattr(node, "bases", [])]
            if not isinstance(node, ast.ClassDef):
                outer += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
            stack.extend(outer)
            stack.extend(n for n in nodes(node) if isinstance(n, ast.Global))
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if node.value is not None:
                stack.append(node.value)
            continue  # targets are judged with their value
        if isinstance(node, ast.comprehension):  # its target is the comprehension's own
            stack.extend([node.iter, *node.ifs])
            continue
        stack.extend(ast.iter_child_nodes(node))


def _plain_target(target: ast.AST) -> bool:
    return isinstance(target, ast.Name) or (
        isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts))


NUMBER_CASTS = ("float", "int", "min", "max", "abs", "round")  # float("-inf"), min(8192, N): numbers
DTYPE_INFO = ("torch.finfo", "torch.iinfo")  # torch.finfo(torch.float32).eps: a plain number
DTYPE_INFO_FIELDS = frozenset({"eps", "max", "min", "tiny", "smallest_normal", "resolution", "bits"})
TORCH_DTYPES = frozenset(f"torch.{name}" for name in (
    "float16", "float32", "float64", "bfloat16", "half", "float", "double", "int8", "int16",
    "int32", "int64", "uint8", "short", "int", "long", "float8_e4m3fn", "float8_e5m2"))


def _constant(node: ast.AST, aliases: dict[str, str], constants: set[str],
              torch_names: frozenset = frozenset()) -> bool:
    """A value built from literals, other constants and Triton's own (`tl.float32`,
    `tl.constexpr(64)`, `triton.next_power_of_2(1000)`, `math.log(2)`), `float`/`int` of them
    (`float("-inf")`) and a dtype's limits (`torch.finfo(torch.float32).eps`, where `torch` is
    bound only by `import torch`: a class of the file's own named `torch` is not torch)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in NUMBER_CASTS:
        return node.func.id in constants and not node.keywords and all(
            _constant(a, aliases, constants, torch_names) for a in node.args)
    if (isinstance(node, ast.Attribute) and node.attr in DTYPE_INFO_FIELDS
            and _dtype_info(node.value, aliases, torch_names)):
        return True
    if isinstance(node, ast.Name):
        return node.id in constants
    if isinstance(node, ast.Tuple):  # not lists: module code could append to one later
        return all(_constant(e, aliases, constants, torch_names) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand, aliases, constants, torch_names)
    if isinstance(node, ast.IfExp):  # `2048 if LARGE else 512`, `gelu_tanh if APPROX else gelu_erf`
        return all(_constant(n, aliases, constants, torch_names) for n in (node.test, node.body, node.orelse))
    if isinstance(node, ast.Compare):
        return all(_constant(n, aliases, constants, torch_names) for n in (node.left, *node.comparators))
    if isinstance(node, ast.BinOp):
        return (_constant(node.left, aliases, constants, torch_names)
                and _constant(node.right, aliases, constants, torch_names))
    if isinstance(node, ast.Attribute) and node.attr in KERNEL_PRINTS:
        return False  # a printer, not a constant
    if isinstance(node, (ast.Attribute, ast.Call)):
        target = node.func if isinstance(node, ast.Call) else node
        if root(target) not in constants or (dotted(target, aliases) or "").split(".")[0] not in (
                "triton", "math"):
            return False  # read from an allowed import, not a rebound or shadowed name
        if isinstance(node, ast.Attribute) and _host_callable(dotted(node, aliases) or ""):
            return False  # `FSUM = math.fsum`, `T = tl.core.tensor`: called in a kernel, host code
        return not isinstance(node, ast.Call) or (
            not node.keywords and all(_constant(a, aliases, constants, torch_names) for a in node.args))
    return False


def _dtype_info(node: ast.AST, aliases: dict[str, str], torch_names: frozenset) -> bool:
    """`torch.finfo(torch.float32)` or `torch.iinfo(torch.int32)`, spelt out, on names bound
    only by `import torch`."""
    return (isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1
            and root(node.func) in torch_names and root(node.args[0]) in torch_names
            and dotted(node.func, aliases) in DTYPE_INFO and dotted(node.args[0], aliases) in TORCH_DTYPES)


def check_kernel(fn: ast.FunctionDef, aliases: dict[str, str], allowed_globals: set[str],
                 constants: set[str] = frozenset(), jit: JitFunctions | None = None,
                 plain: set[str] = frozenset()) -> None:
    """A kernel reads only its own locals, allowed globals and the safe builtins; its parameters'
    defaults are constants (a default is passed without the launch-argument check)."""
    for default in (*fn.args.defaults, *(d for d in fn.args.kw_defaults if d is not None)):
        if not _constant(default, aliases, allowed_globals):
            _fail(f"line {default.lineno}: a default of the kernel `{fn.name}`'s parameters is not "
                  "a constant; kernel parameters default to literals or Triton constants")
    local = {a.arg for a in nodes(fn.args) if isinstance(a, ast.arg)} | {
        n.id for n in nodes(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    # Only the body: decorator arguments (autotune configs, heuristics) run on the host at
    # import or launch time, like any other module-level code, and are checked as such.
    body = [node for stmt in fn.body for node in nodes(stmt)]
    inner = {id(n.value) for n in body if isinstance(n, ast.Attribute)}
    jit = jit or JitFunctions({}, {fn.name: _annotated_constexprs(fn)})
    static_names = _static_names(fn, body, jit.static.get(fn.name, frozenset()), allowed_globals,
                                 aliases)
    _check_python_values(fn, body, local, static_names, aliases, jit)
    for node in body:
        if (isinstance(node, ast.Attribute) and id(node) not in inner and root(node) not in local
                and root(node) in aliases):
            name = dotted(node, aliases) or ""
            if not _within_triton_language(name):
                _fail(f"line {node.lineno}: the kernel `{fn.name}` reads `{name}`, which leads out "
                      "of triton.language; a kernel may use triton.language's own operations, "
                      "types and constants (and math's)")
    for node in body:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base, name = root(node.func), dotted(node.func, aliases) or ""
            if (base is not None and base not in local and not name.startswith("triton.language")
                    and name not in KERNEL_TRITON_FUNCTIONS and name not in allowed_globals
                    and not (name.startswith("math.") and _static(node, static_names))):
                # (`math.sqrt(2.0 / math.pi)`: Triton's compiler runs it on compile-time values)
                if base not in aliases:
                    _fail_class_global(fn, node, base)
                _fail(f"line {node.lineno}: the kernel `{fn.name}` calls `{name or base}`, which is "
                      "not triton.language; kernels may call only @triton.jit functions, "
                      "triton.language and methods of their own values")
        if _prints(node, aliases, local):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` prints; in Triton's interpreter "
                  "printed values reach host code, so kernels may not print (debug locally)")
        if isinstance(node, ast.Attribute) and node.attr in _INTERPRETER_ARRAYS:
            _fail(f"line {node.lineno}: `.{node.attr}` inside the kernel `{fn.name}` reaches the "
                  "interpreter's arrays; use triton.language operations")
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load) or node.id in local:
            continue
        if node.id in plain:
            _fail(f"line {node.lineno}: the kernel `{fn.name}` reads the module-level `{node.id}`, "
                  "a plain Python value: Triton's compiler reads only globals made with "
                  f"`tl.constexpr(...)` (write `{node.id} = tl.constexpr(...)`; an annotation "
                  f"`{node.id}: tl.constexpr = ...` is not enough), or pass it as an argument")
        if node.id in constants and any(isinstance(p, ast.Call) and p.func is node for p in body):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` calls `{node.id}`, a constant: a "
                  "kernel may call only @triton.jit functions, triton.language and the builtins")
        if node.id in KERNEL_DIVERGENT_BUILTINS and node.id not in allowed_globals:
            _fail(f"line {node.lineno}: `{node.id}` inside the kernel `{fn.name}`: Triton's compiler "
                  "answers it at compile time and its interpreter at run time, about different "
                  "kinds of values, so the two would run different branches; branch on "
                  "`tl.constexpr` parameters' values or on dtypes (`x.dtype == tl.float16`) instead")
        if node.id in KERNEL_REFUSED_BUILTINS and node.id not in allowed_globals:
            _fail(f"line {node.lineno}: `{node.id}` inside the kernel `{fn.name}` reaches the "
                  "interpreter's objects (`getattr(x, 'handle')`); use triton.language operations")
        if node.id not in allowed_globals and id(node) in inner and node.id not in aliases:
            _fail_class_global(fn, node, node.id)
        if node.id not in allowed_globals:
            module = aliases.get(node.id, "").split(".")[0]
            what = f"the module `{module}`" if module else f"`{node.id}`"
            _fail(f"line {node.lineno}: the kernel `{fn.name}` uses {what}, which is not "
                  "triton.language, a @triton.jit function or a module-level constant (a name "
                  "bound once, to `tl.constexpr(...)` of literals, other constants, float()/int(), "
                  "math, triton and torch.finfo/iinfo(dtype) limits); a kernel body may use only "
                  "those, its own parameters and locals, and the builtins Triton's compiler knows: "
                  f"{', '.join(sorted(KERNEL_BUILTINS))}")
    called = {id(n.func) for n in body if isinstance(n, ast.Call)}
    # a local's annotation (`pid: tl.tensor = ...`) is never evaluated
    tested = {id(a) for n in body if isinstance(n, ast.AnnAssign) for a in nodes(n.annotation)}
    for node in body:
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        base = root(node)
        if base is None or base in local or base not in aliases:  # off a value or a constant
            if node.attr not in _value_names():
                _fail(f"line {node.lineno}: the kernel `{fn.name}` reads `.{node.attr}`, which is "
                      "not an attribute of Triton's values (tensors, tensor descriptors, dtypes, "
                      "constants): in the interpreter it would hand host Python a method of a "
                      "string or number to run on a block's values")
        elif id(node) not in inner and base in aliases:
            name = dotted(node, aliases) or ""
            if name.startswith("math.") and id(node) not in called and callable(_resolved(name)):
                _fail(f"line {node.lineno}: the kernel `{fn.name}` reads the function `{name}`; "
                      "math's functions do not run in kernels (use tl.math or libdevice), only "
                      "its constants may be read")
            if _constructs_values(name) and id(node) not in tested:
                _fail(f"line {node.lineno}: the kernel `{fn.name}` reads `{name}`, a class of "
                      "Triton's values, other than in an annotation; a kernel makes its values "
                      "with triton.language's operations")
    for node in body:  # after the rules above, whose messages say more about a global's call
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and (root(node.func) is None or root(node.func) in local)
                and node.func.attr not in _value_methods()):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` calls `.{node.func.attr}(...)`, which "
                  "is not a method of Triton's values (tensors, tensor descriptors, dtypes): in "
                  "the interpreter it would run as Python on host objects (a block's text, a list)")
        if (isinstance(node, ast.JoinedStr) and not _static(node, static_names)) or (
                isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` formats a string; in Triton's "
                  "interpreter a block formats as its values' text, which Python could then "
                  "compute on (messages of kernel assertions are string literals, or f-strings of "
                  "compile-time values)")
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            _fail(f"line {node.lineno}: `{'global' if isinstance(node, ast.Global) else 'nonlocal'}` "
                  f"inside the kernel `{fn.name}`: a kernel's results leave through the tensors it "
                  "stores to, not through names of the host's")
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` assigns into an object "
                  "(`obj.attr = ...`, `obj[i] = ...`); a kernel's results leave through the tensors "
                  "it stores to (`tl.store`)")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.keywords
                and node.func.id in KERNEL_BUILTINS and node.func.id not in local):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` calls `{node.func.id}` with keyword "
                  "arguments; builtins in a kernel take positional arguments only (in the "
                  "interpreter `max(..., key=f)` calls f on a block's values as Python)")
        if isinstance(node, ast.Call) and not isinstance(node.func, (ast.Name, ast.Attribute)):
            _fail(f"line {node.lineno}: the kernel `{fn.name}` calls a computed value (`f[0](...)`, "
                  "`f()(...)`); kernels call functions by name: @triton.jit functions, "
                  "triton.language and methods of their own values")


# Python containers a kernel body may not build: Triton's compiler has none of them (a list only
# as a shape argument), and in the interpreter they hold host numbers across a kernel's steps.
_CONTAINERS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.Dict,
               ast.Set)
# Builtins that turn a value into a Python number: on a GPU, of compile-time values only.
_CONVERSIONS = ("int", "float", "bool", "len")
# The syntax Triton's code generator compiles (its visit_* methods, and what they read inside
# the nodes they visit); anything else (`break`, `continue`, `try`, `raise`, `del`, walrus,
# `global`, ...) it refuses as an unsupported AST node, while the interpreter runs it as Python.
_COMPILED_SYNTAX = (
    ast.AnnAssign, ast.Assert, ast.Assign, ast.AugAssign, ast.Expr, ast.For, ast.If, ast.Pass,
    ast.Return, ast.While, ast.With, ast.withitem, ast.Attribute, ast.BinOp, ast.BoolOp, ast.Call,
    ast.Compare, ast.Constant, ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.List,
    ast.ListComp, ast.comprehension, ast.Name, ast.Slice, ast.Subscript, ast.Tuple, ast.UnaryOp,
    ast.keyword, ast.Starred, ast.Dict, ast.Set, ast.SetComp, ast.DictComp, ast.GeneratorExp,
    ast.Lambda, ast.arguments, ast.arg, ast.operator, ast.boolop, ast.cmpop, ast.unaryop,
    ast.expr_context)  # (the containers and Starred get messages of their own below)
# triton.language functions whose arguments at these positions (or keywords) size, shape or
# index a block's dimensions, or are checked at compile time: compile-time values on a GPU (a
# block sized by a loaded value had its data read back through `.shape`; a failing
# static_assert on a loaded value was a bit of it). `None` as a position: every positional
# from 1 on.
_COMPILE_TIME_ARGUMENTS = {
    "static_assert": ({0, 1}, {"cond", "msg"}),
    "zeros": ({0}, {"shape"}), "full": ({0}, {"shape"}), "arange": ({0, 1}, {"start", "end"}),
    "reshape": (None, {"shape"}), "view": (None, {"shape"}), "broadcast_to": (None, {"shape"}),
    "permute": (None, {"dims"}), "trans": (None, {"dims"}), "expand_dims": ({1}, {"axis"}),
    **dict.fromkeys(("sum", "max", "min", "argmax", "argmin", "reduce", "cumsum", "cumprod",
                     "xor_sum", "associative_scan", "sort", "flip"), ({1}, {"axis", "dim"})),
}
# Attributes of a value known when a kernel compiles (its shape, its dtype and theirs).
_STATIC_ATTRIBUTES = frozenset({"shape", "dtype", "type", "numel", "element_ty", "name", "value",
                                "primitive_bitwidth", "itemsize", "scalar", "int_bitwidth",
                                "fp_mantissa_width", "block_shape"})


def _check_python_values(fn: ast.FunctionDef, body: list, local: set[str], static_names: set[str],
                         aliases: dict[str, str], jit: JitFunctions) -> None:
    """What Triton's compiler would refuse and its interpreter runs as Python on a block's values
    (red-team passes 32-35: `int(tl.load(p))`, `len(range(v))`, a loop over `range(v, v + 1)`,
    `1 if v else 0`, a `break` on a loaded value or a loaded value passed as a helper's constexpr
    read the input's bits into Python numbers, comprehensions and tuples kept them, and Python
    computed a convolution): syntax the code generator has no visitor for (`break`, `try`, ...);
    comprehensions, lambdas, dicts and sets; lists other than a call's (shape) argument or
    compile-time numbers; `for` loops other than over range/tl.range/tl.static_range into a
    name; `range(...)` elsewhere; `return` inside a loop; `**` and tuples grown by `+`, `*` or
    unpacking, of run-time values; a compile-time parameter rebound under run-time control
    flow; and run-time values where the compiler needs compile-time ones (_static_names): every
    subscript, shapes, sizes and axes, tl.static_range's bounds, tl.static_assert,
    int/float/bool/len, tl.constexpr, and a jit function's constexpr parameters. A loop over
    bounds read from memory (ragged, CSR) compiles, and is allowed: its index is a run-time
    value."""
    loops = {id(n.iter) for n in body if isinstance(n, ast.For)}
    arguments = {id(a) for n in body if isinstance(n, ast.Call)
                 for a in (*n.args, *(k.value for k in n.keywords))}
    shapes = {id(n.value) for n in body if isinstance(n, ast.Assign) and isinstance(n.value, ast.List)
              and _static(n.value, static_names)}  # `shape = [BLOCK, 1]`: compile-time numbers
    bindings: dict[str, list[tuple[bool, bool, set[int]]]] = {}
    _collect_bindings(fn.body, True, static_names, aliases, bindings)
    for name in sorted(jit.static.get(fn.name, frozenset())):
        if any(not context for _, context, _ in bindings.get(name, ())):
            _fail(f"line {fn.lineno}: the kernel `{fn.name}` rebinds its compile-time parameter "
                  f"`{name}` under a branch or loop on run-time values: Triton's compiler drops "
                  "that update (the interpreter would keep it as a Python number); use a local")
    for node in body:
        what = None
        if (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
                and dotted(node.iter.func, aliases) == "triton.language.static_range"
                and not all(_static(a, static_names)
                            for a in (*node.iter.args, *(k.value for k in node.iter.keywords)))):
            what = "a `tl.static_range` over bounds not known at compile time"
        elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
              and not _static(node.slice, static_names)):
            what = "an index not known at compile time (a tuple's item, a block's None/slices)"
        elif not isinstance(node, _COMPILED_SYNTAX):
            what = f"`{type(node).__name__}` syntax (`{ast.unparse(node).split(chr(10))[0][:40]}`)"
        elif isinstance(node, ast.Call) and (bad := _run_time_shape(node, static_names, aliases)):
            what = f"a run-time value as {bad}"
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)
              and not _static(node, static_names)):
            what = "`**` of a run-time value (Triton's values have no power operator)"
        elif isinstance(node, (ast.For, ast.While)) and any(isinstance(n, ast.Return) for n in nodes(node)):
            what = "`return` inside a loop"
        elif ((isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult))
               and (isinstance(node.left, ast.Tuple) or isinstance(node.right, ast.Tuple))) or (
                isinstance(node, ast.Tuple) and any(isinstance(e, ast.Starred) for e in node.elts))
              ) and not _static(node, static_names):  # `(1,) + x.shape` is a compile-time shape
            what = "a tuple grown by `+`, `*` or `*unpacking`"
        elif isinstance(node, ast.For) and not (
                isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Call)
                and dotted(node.iter.func, aliases) in _LOOPS):
            what = "a `for` loop over something other than range/tl.range/tl.static_range"
        elif (isinstance(node, ast.Call) and dotted(node.func, aliases) == "triton.language.constexpr"
              and not all(_static(a, static_names) for a in node.args)):
            what = "`tl.constexpr(...)` of a run-time value"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                bad := _run_time_constexpr(node, jit, static_names)):
            what = f"a run-time value as `{bad}`, a constexpr parameter of `{node.func.id}`"
        elif isinstance(node, _CONTAINERS):
            what = {ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
                    ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator",
                    ast.Lambda: "a lambda", ast.Dict: "a dict", ast.Set: "a set"}[type(node)]
        elif isinstance(node, ast.List) and id(node) not in arguments and id(node) not in shapes:
            what = "a list other than a call's shape argument (`tl.zeros([M, N], ...)`)"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in local:
            if node.func.id == "range" and id(node) not in loops:
                what = "`range(...)` other than as a `for` loop's range"
            elif node.func.id in _CONVERSIONS and not _static(node, static_names) and not all(
                    _static(a, static_names) for a in (*node.args, *(k.value for k in node.keywords))):
                what = f"`{node.func.id}(...)` of a run-time value"
        if what:
            _fail(f"line {node.lineno}: the kernel `{fn.name}` uses {what}: Triton's compiler "
                  "refuses it, and its interpreter would run it as Python on the kernel's values; "
                  "use tuples, tl operations and `x.to(dtype)`")


def _static_names(fn: ast.FunctionDef, body: list, params: frozenset[str], allowed_globals: set[str],
                  aliases: dict[str, str]) -> set[str]:
    """Names known when `fn` compiles: its compile-time parameters and the allowed globals never
    rebound in its body, and a local every binding of which is compile-time: the index of a loop
    over compile-time bounds, or an assignment of a compile-time value; bound more than once,
    only through branches on compile-time tests and loops over compile-time bounds (`k = 0; if
    v: k = 1` holds a bit of `v`). `len:p` marks a parameter never rebound (`len(strides)` of a
    tuple argument is a compile-time number)."""
    stored = {n.id for n in body if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    loads = collections.defaultdict(set)  # name -> ids of the nodes reading it
    for n in body:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            loads[n.id].add(id(n))
    base = (set(params) | allowed_globals) - stored
    base |= {f"len:{a.arg}" for a in _parameters(fn) if a.arg not in stored}
    names = set(base)
    for _ in range(4):  # a binding's value or context may use another static name
        bindings: dict[str, list[tuple[bool, bool, set[int]]]] = {}
        _collect_bindings(fn.body, True, names, aliases, bindings)
        grown = base | {name for name, found in bindings.items()
                        if all(value for value, _, _ in found)
                        and (all(context for _, context, _ in found)
                             or (len(found) == 1 and loads[name] <= found[0][2]))}
        if grown == names:
            break
        names = grown
    return names


def _collect_bindings(stmts: list, static_context: bool, names: set[str], aliases: dict[str, str],
                      bindings: dict[str, list[tuple[bool, bool, set[int]]]]) -> None:
    """name -> for each binding: whether it binds a compile-time value; whether only branches on
    compile-time tests and loops over compile-time bounds lead to it; the ids of the nodes where
    it holds (a loop's body, or the rest of the block): a binding elsewhere, read only there,
    holds one compile-time value (a tl.static_range unrolls inside a run-time loop), but read
    past its block it may hold any of several (`for j in range(4): if v >> j & 1: k = j`)."""
    def bind(target: ast.AST, static: bool, context: bool, scope: list) -> None:
        where = {id(n) for stmt in scope for n in nodes(stmt)}
        for n in nodes(target):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                bindings.setdefault(n.id, []).append((static, context, where))

    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.For):
            static_bounds = (isinstance(stmt.iter, ast.Call) and dotted(stmt.iter.func, aliases) in _LOOPS
                             and all(_static(a, names) for a in stmt.iter.args))
            inner = static_context and static_bounds
            bind(stmt.target, static_bounds and isinstance(stmt.target, ast.Name), static_context,
                 stmt.body)
        elif isinstance(stmt, ast.If):
            inner = static_context and _static(stmt.test, names)
        elif isinstance(stmt, ast.While):
            inner = False
        elif isinstance(stmt, ast.With):
            inner = static_context
            for item in stmt.items:
                if item.optional_vars is not None:
                    bind(item.optional_vars, False, static_context, stmt.body)
        else:
            value = getattr(stmt, "value", None)
            targets = (stmt.targets if isinstance(stmt, ast.Assign)
                       else [stmt.target] if isinstance(stmt, ast.AnnAssign) else [])
            static = (static_context and value is not None and len(targets) == 1
                      and isinstance(targets[0], ast.Name) and _static(value, names))
            bind(stmt, static, static_context, stmts[i + 1:])  # augmented, walrus: run-time
            continue
        _collect_bindings(stmt.body, inner, names, aliases, bindings)
        _collect_bindings(getattr(stmt, "orelse", []), inner, names, aliases, bindings)


def _parameters(fn: ast.FunctionDef) -> list[ast.arg]:
    return [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]


def _bound_arguments(call: ast.Call, callee: ast.FunctionDef) -> dict[str, ast.AST | None]:
    """Parameter name -> the argument a call passes (its default, or None when neither)."""
    params = _parameters(callee)
    positional = [*callee.args.posonlyargs, *callee.args.args]
    defaults = dict(zip([a.arg for a in positional][len(positional) - len(callee.args.defaults):],
                        callee.args.defaults))
    defaults |= {a.arg: d for a, d in zip(callee.args.kwonlyargs, callee.args.kw_defaults) if d}
    bound = {a.arg: defaults.get(a.arg) for a in params}
    bound |= {a.arg: v for a, v in zip(positional, call.args)}
    bound |= {k.arg: k.value for k in call.keywords if k.arg in bound}
    return bound


def _run_time_constexpr(call: ast.Call, jit: JitFunctions, static_names: set[str]) -> str | None:
    """The constexpr parameter of a jit function of the file that `call` passes a value not
    known at compile time (Triton's compiler refuses it; the interpreter took a loaded value's
    bits as the helper's compile-time number)."""
    callee = jit.by_name.get(call.func.id)
    if callee is None:
        return None
    constexprs = _annotated_constexprs(callee)
    for name, arg in _bound_arguments(call, callee).items():
        if name in constexprs and arg is not None and not _static(arg, static_names):
            return name
    return None


def _run_time_shape(call: ast.Call, static_names: set[str], aliases: dict[str, str]) -> str | None:
    """The argument of a triton.language call that must be known at compile time and is not
    (_COMPILE_TIME_ARGUMENTS)."""
    name = dotted(call.func, aliases) or ""
    if not name.startswith("triton.language."):
        return None
    positions, keywords = _COMPILE_TIME_ARGUMENTS.get(name.rsplit(".", 1)[-1], (set(), set()))
    for i, arg in enumerate(call.args):
        if (i >= 1 if positions is None else i in positions) and not _static(arg, static_names):
            return f"argument {i + 1} of `{name}` (a shape, size, axis or compile-time check)"
    for k in call.keywords:
        if k.arg in keywords and not _static(k.value, static_names):
            return f"`{k.arg}` of `{name}`"
    return None


def _annotated_constexprs(fn: ast.FunctionDef) -> frozenset[str]:
    return frozenset(a.arg for a in _parameters(fn)
                     if a.annotation is not None and "constexpr" in ast.unparse(a.annotation))


_LOOPS = ("range", "triton.language.range", "triton.language.static_range")


@dataclasses.dataclass(frozen=True)
class JitFunctions:
    """The file's jit functions by name (each bound once), and per function the parameters known
    when it compiles."""
    by_name: dict[str, ast.FunctionDef]
    static: dict[str, frozenset[str]]


def jit_functions(tree: ast.Module, jitted: list[ast.FunctionDef], allowed_globals: set[str],
                  aliases: dict[str, str]) -> JitFunctions:
    """Parameters annotated tl.constexpr, and a helper's parameters that every call of it in the
    file's kernels passes a compile-time value (Triton specialises a helper on the constants it
    is called with: `pick(t, 0)` compiles `t[i]`). A helper named anywhere but as a call's
    function (launched, passed as an argument) takes only its annotations for granted."""
    names = collections.Counter(fn.name for fn in jitted)
    by_name = {fn.name: fn for fn in jitted if names[fn.name] == 1}
    bodies = {id(fn): [n for stmt in fn.body for n in nodes(stmt)] for fn in jitted}
    calls = [(caller, n) for caller in jitted for n in bodies[id(caller)] if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id in by_name]
    called = {id(n.func) for _, n in calls}
    escaping = {n.id for n in nodes(tree) if isinstance(n, ast.Name) and n.id in by_name
                and isinstance(n.ctx, ast.Load) and id(n) not in called}
    static = {name: _annotated_constexprs(fn) for name, fn in by_name.items()}
    while True:
        known = {id(caller): _static_names(
            caller, bodies[id(caller)], static.get(caller.name, _annotated_constexprs(caller))
            if caller.name in by_name else _annotated_constexprs(caller), allowed_globals, aliases)
            for caller in jitted}
        grown = dict(static)
        for name, fn in by_name.items():
            if name in escaping or fn.args.vararg or fn.args.kwarg:
                continue
            mine = [(caller, call) for caller, call in calls if call.func.id == name]
            grown[name] = static[name] | {
                a.arg for a in _parameters(fn) if all(
                    (arg := _bound_arguments(call, fn)[a.arg]) is not None
                    and _static(arg, known[id(caller)]) for caller, call in mine)}
        if grown == static:
            return JitFunctions(by_name, static)
        static = grown


def _static(node: ast.AST, names: set[str]) -> bool:
    """Known when the kernel compiles: literals, constexpr parameters and module constants, and
    a value's shape and dtype, combined by operators, tuples and subscripts."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):  # a constexpr's value, a name: only of a static value
        return ((node.attr in _STATIC_ATTRIBUTES and node.attr not in ("value", "name"))
                or _static(node.value, names))
    if isinstance(node, ast.Subscript):
        return _static(node.value, names) and _static(node.slice, names)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_static(e, names) for e in node.elts)
    if isinstance(node, ast.Slice):  # `x[:, None]`, `t[1:]`
        return all(part is None or _static(part, names) for part in (node.lower, node.upper, node.step))
    if isinstance(node, ast.UnaryOp):
        return _static(node.operand, names)
    if isinstance(node, ast.BinOp):
        return _static(node.left, names) and _static(node.right, names)
    if isinstance(node, ast.BoolOp):
        return all(_static(v, names) for v in node.values)
    if isinstance(node, ast.Compare):
        return all(_static(v, names) for v in (node.left, *node.comparators))
    if isinstance(node, ast.IfExp):
        return all(_static(v, names) for v in (node.test, node.body, node.orelse))
    if isinstance(node, ast.Call):
        if (isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1
                and isinstance(node.args[0], ast.Name) and f"len:{node.args[0].id}" in names):
            return True  # the length of a tuple argument
        return all(_static(a, names) for a in node.args) and _static(node.func, names)
    if isinstance(node, ast.JoinedStr):  # f"BLOCK={BLOCK}"
        return all(_static(v, names) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return _static(node.value, names) and (node.format_spec is None
                                               or _static(node.format_spec, names))
    return False


# Where what a kernel reads may be defined: Triton's interpreter (the cpu evaluator) replaces
# triton.language's operations with its own functions, defined in its module.
_KERNEL_OWNERS = ("math", "triton.language", "triton.runtime.interpreter")


@functools.lru_cache(maxsize=None)
def _value_methods() -> frozenset[str]:
    """The public methods of the values a kernel body holds: tensors (and block pointers),
    tensor descriptors, dtypes and constants."""
    from triton.language import core
    kinds = (core.tensor, core.tensor_descriptor_base, core.dtype, core.constexpr)
    return frozenset(n for kind in kinds for n in dir(kind) if not n.startswith("_"))


@functools.lru_cache(maxsize=None)
def _value_attributes() -> frozenset[str]:
    """The data attributes of the values a kernel body holds (`x.shape`, `p.dtype.element_ty`,
    `BLOCK.value`), read off instances of each kind: tensors, dtypes, constants."""
    from triton.language import core
    samples = (core.tensor(None, core.block_type(core.float32, [2])), core.float32, core.int8,
               core.pointer_type(core.float32), core.block_type(core.float32, [2]),
               core.constexpr(1))
    names = {n for value in samples for n in vars(value) if not n.startswith("_")}
    return frozenset(names - set(_INTERPRETER_ARRAYS)) | {"strides"}  # tensor descriptors'


@functools.lru_cache(maxsize=None)
def _value_names() -> frozenset[str]:
    return _value_methods() | _value_attributes()


def _resolved(name: str):
    try:
        obj = importlib.import_module(name.split(".")[0])
        for part in name.split(".")[1:]:
            obj = getattr(obj, part)
        return obj
    except Exception:  # noqa: BLE001 - what does not resolve is judged by the rules above
        return None


def _host_callable(name: str) -> bool:
    """A function of math's (which Triton does not compile; the interpreter runs it as Python) or
    a class of Triton's values, read under a name of the file's own."""
    return (name.startswith("math.") and callable(_resolved(name))) or _constructs_values(name)


@functools.lru_cache(maxsize=None)
def _constructs_values(name: str) -> bool:
    """`tl.core.tensor(...)`, a tensor descriptor's class: the interpreter would wrap whatever
    it is handed (a host array) as a block."""
    from triton.language import core
    obj = _resolved(name) if name.startswith("triton.language") else None
    return isinstance(obj, type) and issubclass(obj, (core.tensor, core.tensor_descriptor_base))


def _prints(node: ast.AST, aliases: dict[str, str], local: set[str]) -> bool:
    """`print`, `tl.device_print`, `tl.static_print`, under any name an import gives them."""
    if isinstance(node, ast.Attribute):
        return node.attr in KERNEL_PRINTS
    if isinstance(node, ast.Name) and node.id not in local:
        return node.id == "print" or aliases.get(node.id, "").split(".")[-1] in KERNEL_PRINTS
    return False


@functools.lru_cache(maxsize=None)
def _within_triton_language(name: str) -> bool:
    """Whether every link of the dotted name after its module is defined in triton.language (or
    math): `tl.core.typing.operator.call` or `tl.extra.module_from_spec` are stdlib callables
    reachable through triton.language's modules, and a local holding one would be called freely."""
    if name in KERNEL_TRITON_FUNCTIONS or name in KERNEL_TRITON_ENUM_VALUES:
        return True
    parts = name.split(".")
    if parts[0] not in ("math", "triton"):
        return False
    try:
        obj = importlib.import_module(parts[0])
        for i, part in enumerate(parts[1:], 2):
            if not hasattr(obj, part) and isinstance(obj, types.ModuleType):
                # a submodule is an attribute of its package only once imported
                # (`triton.language.extra.libdevice`); only triton.language's own are imported
                module = ".".join(parts[:i])
                if module != "triton.language" and not module.startswith("triton.language."):
                    return False
                importlib.import_module(module)
            obj = getattr(obj, part)
            owner = (obj.__name__ if isinstance(obj, types.ModuleType)
                     else None if isinstance(obj, (int, float, bool, str, type(None)))
                     else getattr(obj, "__module__", None) or type(obj).__module__)
            if owner is not None and not (owner in _KERNEL_OWNERS
                                          or owner.startswith("triton.language.")):
                return False
    except Exception:  # noqa: BLE001 - a name that does not resolve is not triton.language's
        return False
    return True
