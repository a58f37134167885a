"""Stage 1, static checks: fast AST rules applied before any code runs.

They reject what cannot be a hand-written kernel (no ModelNew, no Triton kernel launched, generated
code via torch.compile, library kernels, subclassing the reference) and the escape hatches a
runtime guard cannot see (threads, processes, native calls, introspection of the evaluator).
Import aliases are resolved, so `import torch as T; T.compile(...)` is caught like `torch.compile`.
Here: parsing, the file's shape and the Triton/CUDA rules; the names a file uses are judged in
name_rules.py (tables in refused_names.py), kernel bodies in kernel_body.py.
"""

from __future__ import annotations

import ast
import builtins
import codecs
import dataclasses
import io
import re
import textwrap
import tokenize
import types
from dataclasses import dataclass

from .cuda_sources import check_cuda_sources, load_inline_sources
from .kernel_body import check_kernel, jit_functions, kernel_globals
from .name_rules import (annotation_nodes, certainly_int, check_names, is_data, is_metaclass,
                         is_module, named_object, plain_type_text, type_use,
                         check_annotation_text, resolved)
from .own_attributes import own_methods
from .refused_names import (ALLOWED_MODEL_BASES, COPIED_ATTRIBUTES, INTROSPECTION, JIT_DECORATORS,
                            MAGIC_METHODS, SHARED_MEMORY, WRAPPING_DECORATORS)
from .source_names import (binding_counts, bound_names, dotted, import_aliases, names_bound_by,
                           nodes, root, where)
from .stages import STATIC_CHECK, StageFailure


@dataclass(frozen=True)
class StaticReport:
    kernels: tuple[str, ...]  # names of the @triton.jit functions defined
    autotuned: bool
    cuda_source: str = ""  # CUDA mode: the text load_inline builds (its source arguments)
    source: str = ""  # the text that was checked: what the evaluator imports
    # (line, column) of the methods whose `self` the rules trust: checked at run time too
    own_methods: tuple[tuple[int, int], ...] = ()


def static_check(source: str, language: str) -> StaticReport:
    """Raise StageFailure on the first rule broken; else describe the kernels found. Import
    `report.source`, the text that was checked (its `__main__` block blanked out)."""
    # Line ends as Python's import reads them: a lone `\r` ends a line there, but not for
    # tokenize.detect_encoding on a string's bytes, so `\r# coding: utf-7\r` hid its declaration
    # from the check below while the import honoured it (red-team pass 29)
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    source = without_main_block(_parse(source), source)
    report = _check_source(source, language)
    return dataclasses.replace(report, source=source)


# Nesting the checks walk recursively; Python's own parser stops near 200 levels of brackets.
MAX_NESTING = 100


def _check_source(source: str, language: str) -> StaticReport:
    tree = _parse(source)
    _check_nesting(tree)
    aliases = import_aliases(tree)
    _check_module_values(tree, aliases)
    _check_reserved_names(tree, aliases)
    check_names(tree, aliases, language)
    _check_wraps_as_decorator(tree, aliases)
    _check_legacy_constructors(tree, aliases)
    _check_magic_methods(tree, aliases, language)
    _check_class_namespaces(tree, aliases)
    _check_model_new(tree, aliases)
    if language == "cuda":
        _require(_calls(tree, aliases, "torch.utils.cpp_extension.load_inline"),
                 "CUDA mode: build your kernels with torch.utils.cpp_extension.load_inline "
                 "and call them from ModelNew.forward")
        source = load_inline_sources(tree, aliases)
        check_cuda_sources(source)
        report = StaticReport(kernels=(), autotuned=False, cuda_source=source)
    else:
        report = _check_triton(tree, aliases)
        _check_kernel_source_starts_at_its_def(tree, source, aliases)
    return dataclasses.replace(report, own_methods=own_methods(tree, aliases))


# How Triton's JITFunction finds a kernel's body in `inspect.getsource` (decorators included):
# the first line that starts with `def` once dedented
_TRITON_DEF = re.compile(r"^def\s+\w+\s*\(", re.MULTILINE)


def _check_kernel_source_starts_at_its_def(tree: ast.Module, source: str, aliases: dict[str, str]) -> None:
    """Triton compiles a kernel from the first line of its source (decorators included) that
    starts with `def`: a line of a decorator's string counts (red-team pass 65: an autotune `key`
    string holding `def kernel(...):` and a quote that ran to the kernel's end; Triton compiled
    that kernel, which no rule read, and the cpu evaluator's interpreter ran the real one). The
    first such line must be the kernel's own `def`."""
    lines = _LINES.findall(source)  # as ast counts them (not at form feeds, as splitlines does)
    for fn in nodes(tree):
        if not isinstance(fn, ast.FunctionDef) or not any(
                d in JIT_DECORATORS for d in _decorator_names(fn, aliases)):
            continue
        if getattr(fn, "type_params", None):  # Python 3.12's `def k[T](...)`
            _fail(f"line {fn.lineno}: the kernel `{fn.name}` has type parameters (`[...]`): "
                  "Triton finds a kernel's source by `def name(`, so it cannot compile "
                  f"`def {fn.name}[...](`; drop them (annotate with tl.constexpr instead)")
        first = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
        text = textwrap.dedent("".join(lines[first - 1:fn.end_lineno]))
        found = _TRITON_DEF.search(text)
        if found is None or text.count("\n", 0, found.start()) != fn.lineno - first:
            _fail(f"line {fn.lineno}: a line of the decorators of `{fn.name}` starts with `def`: "
                  "Triton compiles a kernel from the first such line of its source, so the kernel "
                  "it would compile is not this one; start no decorator line with `def`")


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def without_main_block(tree: ast.Module, source: str) -> str:
    """The source with its top-level `if __name__ == "__main__":` blocks blanked out (line
    numbers kept): they never run when the evaluator imports the file, so a local benchmark
    there is neither checked nor kept. What is checked is exactly what is imported."""
    lines = _LINES.findall(source)  # the parser's lines: \r\n, \r or \n (not \f or U+2028)
    for stmt in tree.body:
        if _is_main_guard(stmt):
            for i in range(stmt.lineno - 1, stmt.end_lineno):
                lines[i] = "\n"
    return "".join(lines)


def _is_main_guard(stmt: ast.stmt) -> bool:
    test = getattr(stmt, "test", None)
    return (isinstance(stmt, ast.If) and not stmt.orelse and isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def _fail(feedback: str, error_class: str = "format_violation"):
    raise StageFailure(STATIC_CHECK, error_class, feedback)


def _require(condition: bool, feedback: str) -> None:
    if not condition:
        _fail(feedback)


def _check_nesting(tree: ast.Module) -> None:
    """No expression deeper than MAX_NESTING (`1+1+...+1` with thousands of terms is one chain
    of BinOps): the checks walk the tree recursively, and a RecursionError would be the
    evaluator's failure, not a verdict."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            _fail(f"line {getattr(node, 'lineno', '?')}: expressions nest more than {MAX_NESTING} "
                  "levels deep; split them into statements")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


# What the evaluator writes the submission as, and so the only encodings it may declare.
SOURCE_ENCODINGS = {"utf-8", "utf-8-sig", "ascii"}


def _check_declared_encoding(source: str) -> None:
    """An encoding declaration (`# coding: unicode_escape`, PEP 263) makes Python's import decode
    the file into other text than the string checked here: `\\u000a` in a comment becomes a line
    of code no rule has read. Only the encodings the file is written in may be declared."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source.encode("utf-8")).readline)
    except UnicodeError:
        return  # a lone surrogate: the parse below refuses the text
    except SyntaxError as exc:  # an unknown encoding, or one that contradicts a BOM
        _fail(f"the encoding declaration cannot be used: {exc.msg}; remove it (submissions are "
              "UTF-8)", "syntax_error")
    if codecs.lookup(encoding).name not in SOURCE_ENCODINGS:
        _fail(f"the file declares the encoding `{encoding}` (PEP 263), under which Python would read "
              "other code than the text checked; remove the declaration (submissions are UTF-8)")


def _parse(source: str) -> ast.Module:
    _check_declared_encoding(source)
    try:
        return ast.parse(source.removeprefix("\ufeff"), filename="submission.py")  # a UTF-8 BOM
    except SyntaxError as exc:
        line = (exc.text or "").strip()
        _fail(f"SyntaxError at line {exc.lineno}: {exc.msg}" + (f": `{line}`" if line else ""),
              "syntax_error")
    except UnicodeError:  # a lone surrogate: not UTF-8, so not a Python file
        _fail("the code is not valid UTF-8 text (it holds a lone surrogate)", "syntax_error")
    except ValueError as exc:  # null bytes
        _fail(f"the code cannot be parsed: {exc} (null bytes are not Python text)", "syntax_error")
    except (MemoryError, RecursionError):
        _fail(f"the code is nested too deeply to parse (at most {MAX_NESTING} levels)", "syntax_error")




def _check_module_values(tree: ast.Module, aliases: dict[str, str]) -> None:
    """Modules are used only through their attributes: `[torch]`, a default argument or a
    lambda would carry torch past every rule keyed on resolved names. Simple assignments of
    what the imports reach (`t = torch`, `T = torch.Tensor`) become aliases instead, bound
    once and checked like the original."""
    inner = {id(n.value) for n in nodes(tree) if isinstance(n, ast.Attribute)}
    # `getattr(tl, "float32")`, `hasattr(tl.extra, "cuda")`: attribute reads, checked as names
    inner |= {id(n.args[0]) for n in nodes(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in ("getattr", "hasattr") and len(n.args) >= 2
              and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)}
    called = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call)}
    stores = binding_counts(tree)
    simple = {id(n.value): n.targets[0].id for n in nodes(tree) if isinstance(n, ast.Assign)
              and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    changed = True
    while changed:  # aliases of aliases
        changed = False
        for node in nodes(tree):
            if not isinstance(node, (ast.Name, ast.Attribute)) or id(node) in inner or id(node) in called:
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                continue
            base = root(node)
            if base not in aliases:
                continue
            name = dotted(node, aliases) or ""
            target = simple.get(id(node))
            if target is not None and is_data(name):
                continue  # `acc = tl.float32` twice: a value, not a route to anything
            if target is not None:
                if stores.get(target, 0) != 1:
                    _fail(f"{where(node)}: `{target}` is bound to `{name}` and to something else; "
                          "bind such names once")
                if aliases.get(target) != name:
                    aliases[target] = name
                    changed = True
            elif is_module(name) or (isinstance(node, ast.Name) and node.id in aliases
                                        and is_module(aliases[node.id])):
                _fail(f"{where(node)}: the module `{name}` is used as a value; use modules only "
                      "through their attributes (and bind them with import)")


# Names Triton's interpreter binds for the kernels it rewrites (its semantic layer works on the
# numpy arrays behind a kernel's values): a submission binding them itself could reach them.
INTERPRETER_NAMES = frozenset({"interpreter_semantic", "interpreter_builder"})


def _check_reserved_names(tree: ast.Module, aliases: dict[str, str]) -> None:
    """No import (anywhere, dead code included) or alias may take a builtin's name: the rules
    keyed on a builtin skip a name that resolves to an import, so `import triton.language as
    getattr` in an `if False:` block left the real getattr unchecked. Nor may any name be one the
    interpreter binds."""
    for name in sorted(set(aliases) & set(dir(builtins))):
        _fail(f"{where(_binding_of(tree, name))}: `{name}` is the name of a Python builtin; bind "
              "modules and their objects under names of their own")
    for node in nodes(tree):
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.arg):
            name = node.arg
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[0]
        else:
            continue
        if name in INTERPRETER_NAMES:
            _fail(f"{where(node)}: `{name}` is a name Triton's interpreter binds for itself; "
                  "choose another")


def _binding_of(tree: ast.Module, name: str) -> ast.AST:
    """The first import or assignment that binds `name` (for the message's line)."""
    for node in nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in node.names):
            return node
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
    return tree


# torch's legacy constructors: `torch.Tensor(ndarray)`, `torch.FloatTensor(ndarray)` and
# `t.new(ndarray)` make a plain tensor over the array's memory (red-team pass 22: numpy computed
# in it while copy kernels moved the data), and no torch mode sees the type's constructor.
_LEGACY_TENSOR_TYPES = {f"torch.{prefix}{kind}Tensor" for prefix in ("", "cuda.")
                        for kind in ("", "Float", "Double", "Half", "BFloat16", "Byte", "Char",
                                     "Short", "Int", "Long", "Bool", "ComplexFloat", "ComplexDouble")}


def _check_legacy_constructors(tree: ast.Module, aliases: dict[str, str]) -> None:
    """Legacy constructors only called, with a size (two or more arguments, or one int literal:
    one other argument is data, whose memory the tensor shares); their types only named in
    annotations, type tests and typing generics (`(torch.FloatTensor,)[0](arr)` and
    `m = x.new; m(arr)` call them unseen)."""
    annotations = {id(n) for a in annotation_nodes(tree) for n in nodes(a)}
    parents = {id(c): p for p in nodes(tree) for c in ast.iter_child_nodes(p)}
    rebound = bound_names(tree)
    for node in nodes(tree):
        if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
            continue
        name = spelled = dotted(node, aliases) or ""
        new = (isinstance(node, ast.Attribute) and node.attr == "new"
               and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")))
        if not new and name not in _LEGACY_TENSOR_TYPES and name.startswith("torch."):
            # the same class under another module's name (`torch.nn.functional.Tensor`: red-team
            # pass 74 made it an item of a list and planted a method on it)
            name = named_object(name, _LEGACY_TENSOR_TYPES) or name
        if not (new or name in _LEGACY_TENSOR_TYPES) or id(node) in annotations:
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            if not (any(isinstance(a, ast.Starred) for a in parent.args)
                    or any(k.arg is None for k in parent.keywords)
                    or (len(parent.args) == 1 and not certainly_int(parent.args[0], rebound))):
                continue
        elif not new and type_use(node, parents, aliases):
            continue
        also = f" (it is `{name}`)" if spelled != name else ""
        _fail(f"{where(node)}: `{spelled or '.new'}`{also} may be called only with a size (one "
              "argument: an int literal, `int(...)` or `len(...)`; its type named only in "
              f"annotations, type tests and typing constructs): {SHARED_MEMORY} (a legacy "
              "constructor given an array shares its memory); use torch.empty/zeros(size) or "
              "torch.tensor(data)")


def _check_magic_methods(tree: ast.Module, aliases: dict[str, str], language: str) -> None:
    """Methods that run evaluator-invisible code later, or intercept torch for a whole type."""
    for annotation in annotation_nodes(tree):
        for n in nodes(annotation):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and not plain_type_text(n.value):
                _fail(f"line {annotation.lineno}: string annotations other than plain type names "
                      "(`\"torch.Tensor\"`, `\"Optional[int]\"`) are not allowed: evaluated later, "
                      "they are code the static check cannot read")
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                check_annotation_text(n.value, aliases, language, annotation)
    for node in nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in MAGIC_METHODS:
            _fail(f"line {node.lineno}: defining `{node.name}` is not allowed: {MAGIC_METHODS[node.name]}")
        # bound any other way in a class body: `for __float__ in ...`, `import f as __index__`
        bound = (node.id if isinstance(node, ast.Name) else node.asname if isinstance(node, ast.alias)
                 else node.arg if isinstance(node, ast.arg) else None)
        if bound in MAGIC_METHODS:
            _fail(f"{where(node)}: the name `{bound}` is not allowed: {MAGIC_METHODS[bound]}")
        # bindings that are not Name nodes: a match capture (`case __index__:`,
        # `case {**__annotations__}:` in a class body binds a class attribute), `except ... as`
        for name in names_bound_by(node):
            if name in MAGIC_METHODS:
                _fail(f"{where(node)}: binding the name `{name}` is not allowed: {MAGIC_METHODS[name]}")
        if isinstance(node, ast.ClassDef):
            if any(k.arg == "metaclass" for k in node.keywords) or any(
                    isinstance(b, ast.Name) and b.id == "type" for b in node.bases):
                _fail(f"line {node.lineno}: metaclasses are not allowed: a class's `__eq__` or "
                      f"`__instancecheck__` would run wherever the evaluator compares types "
                      f"({INTROSPECTION})")
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
                for t in targets:
                    if isinstance(t, ast.Name) and t.id in MAGIC_METHODS:
                        _fail(f"line {stmt.lineno}: defining `{t.id}` is not allowed: {MAGIC_METHODS[t.id]}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
                and len(node.args) == 3):
            _fail(f"line {node.lineno}: creating classes with `type(name, bases, namespace)` is not "
                  f"allowed: {INTROSPECTION}")


MAKE_DATACLASS = "dataclasses.make_dataclass"


def _check_class_namespaces(tree: ast.Module, aliases: dict[str, str]) -> None:
    """No class made from a namespace dict, as `type(name, bases, namespace)` is not: a metaclass
    called (`abc.ABCMeta("C", (), ns)`) or `dataclasses.make_dataclass(..., namespace=ns)` takes
    its methods by keys the file computes (`f"_{'_del_'}_"`), special methods included, where
    the rules on class bodies read no name (red-team pass 75)."""
    for node in nodes(tree):
        if not isinstance(node, ast.Call):
            continue
        name = dotted(node.func, aliases) or ""
        factory = name == MAKE_DATACLASS or named_object(name, (MAKE_DATACLASS,)) is not None
        if factory and any(k.arg in ("namespace", None) for k in node.keywords):
            _fail(f"{where(node)}: `make_dataclass(..., namespace=...)` is not allowed: its keys "
                  f"become the class's methods, special ones too, by names no rule reads "
                  f"({INTROSPECTION}); define the class with a `class` statement")
        if name and is_metaclass(name):
            _fail(f"{where(node)}: calling the metaclass `{name}` is not allowed: it makes a class "
                  f"from a namespace dict whose keys no rule reads ({INTROSPECTION}); define "
                  "classes with a `class` statement")


def _check_model_new(tree: ast.Module, aliases: dict[str, str]) -> None:
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"]
    _require(bool(classes), "define a top-level `class ModelNew(nn.Module)` with the same "
             "constructor arguments as the reference Model and a forward method")
    cls = classes[-1]
    bases = [dotted(b, aliases) for b in cls.bases]
    _require(len(bases) == 1 and bases[0] in ALLOWED_MODEL_BASES,
             f"line {cls.lineno}: ModelNew must subclass nn.Module directly and define its "
             f"own forward (found bases: {', '.join(str(b) for b in bases) or 'none'}); no base "
             "class of your own, and not the reference Model")
    _require(any(isinstance(n, ast.FunctionDef) and n.name == "forward" for n in cls.body),
             f"line {cls.lineno}: ModelNew has no forward method")


def _decorator_names(fn: ast.FunctionDef, aliases: dict[str, str]) -> list[str]:
    names = []
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        names.append(dotted(target, aliases) or "")
    return names


def _check_jit_as_decorator(tree: ast.Module, aliases: dict[str, str]) -> None:
    """`triton.jit` only as a decorator: `kernel = triton.jit(body)` makes a kernel whose body
    the kernel-body rules would never read (in the interpreter it ran numpy)."""
    decorating = {id(d.func if isinstance(d, ast.Call) else d) for fn in nodes(tree)
                  if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  for d in fn.decorator_list}
    for node in nodes(tree):
        if (isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in decorating
                and isinstance(getattr(node, "ctx", None), ast.Load)
                and dotted(node, aliases) in JIT_DECORATORS):
            _fail(f"{where(node)}: `triton.jit` may only decorate a kernel (`@triton.jit`), so "
                  "that its body is checked as one")
    for fn in nodes(tree):  # and it wraps that very body: under it no other decorator
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        names = _decorator_names(fn, aliases)
        if not any(n in JIT_DECORATORS for n in names):
            continue
        if not isinstance(fn, ast.FunctionDef):
            _fail(f"{where(fn)}: `@triton.jit` may only decorate a plain `def`")
        first_jit = next(i for i, n in enumerate(names) if n in JIT_DECORATORS)
        if first_jit != len(names) - 1 or any(n not in (*WRAPPING_DECORATORS, "staticmethod")
                                              for n in names[:first_jit]):
            _fail(f"{where(fn)}: `@triton.jit` must be the innermost decorator of `{fn.name}`, with "
                  "only @triton.autotune, @triton.heuristics and @staticmethod above it: a "
                  "decorator under it would hand Triton a body other than the one checked")


def _check_wraps_as_decorator(tree: ast.Module, aliases: dict[str, str]) -> None:
    """`functools.wraps(x)` only as the decorator of a `def`: what it decorates is then a fresh
    function. Called on anything else (`functools.wraps(box)(kernel)`) it copies `box`'s
    attributes onto that object by name, as `update_wrapper` does (red-team pass 73)."""
    calls = {id(d.func): d for fn in nodes(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
             for d in fn.decorator_list if isinstance(d, ast.Call)}
    for node in nodes(tree):
        if (isinstance(node, (ast.Name, ast.Attribute)) and isinstance(getattr(node, "ctx", None), ast.Load)
                and dotted(node, aliases) == "functools.wraps"):
            if id(node) not in calls:
                _fail(f"{where(node)}: `functools.wraps` may only decorate a def (`@functools.wraps(f)`): "
                      f"{COPIED_ATTRIBUTES}")
            _check_wrapped(calls[id(node)], aliases)


def _check_wrapped(call: ast.Call, aliases: dict[str, str]) -> None:
    """`@functools.wraps(f)`: one argument, its default attributes, and `f` a function or class
    (the file's own, or a library's). Its `assigned` and `updated` name the attributes copied
    (red-team pass 85: `updated=("__globals__",)`, spelt `s[1:]`, copied enum's module globals,
    builtins among them, into the submission's); a library *instance* handed over gives the
    new function its `__dict__` (`triton.cdiv`'s held an inspect.Signature)."""
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
        _fail(f"{where(call)}: `functools.wraps` takes the wrapped function alone "
              f"(`@functools.wraps(f)`): its other arguments name the attributes it copies "
              f"({COPIED_ATTRIBUTES})")
    name = dotted(call.args[0], aliases)
    if name is not None and not is_module(name):
        obj = resolved(name)
        if obj is not None and not isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)):
            _fail(f"{where(call)}: `functools.wraps({name})` copies the attributes of an object, not "
                  f"of a function or class: wrap a function ({COPIED_ATTRIBUTES})")


def _check_triton(tree: ast.Module, aliases: dict[str, str]) -> StaticReport:
    _check_jit_as_decorator(tree, aliases)
    kernels, autotuned = [], False
    functions = [n for n in nodes(tree) if isinstance(n, ast.FunctionDef)]
    jitted = [fn for fn in functions if any(d in JIT_DECORATORS for d in _decorator_names(fn, aliases))]
    _check_kernels_at_module_level(tree, {id(fn) for fn in jitted})
    allowed_globals, constants, plain = kernel_globals(tree, aliases, jitted)
    jit = jit_functions(tree, jitted, allowed_globals, aliases)
    for fn in jitted:
        kernels.append(fn.name)
        autotuned |= any(d in WRAPPING_DECORATORS for d in _decorator_names(fn, aliases))
        check_kernel(fn, aliases, allowed_globals, constants, jit, plain)
    _check_kernels_read_only(tree, {fn.name for fn in jitted})
    _require(bool(kernels), "Triton mode: define at least one `@triton.jit` kernel and launch it "
             "from ModelNew.forward as `kernel[grid](...)`")
    # `kernel[grid](...)` anywhere; or a kernel given its grid outside kernel bodies and called
    # later (`launch = kernel[grid]; launch(...)`, `functools.partial(kernel[grid], n=n)`): the
    # run decides what it does
    in_kernel_bodies = {id(n) for fn in jitted for n in nodes(fn)}
    called = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)}
    launched = {_subscripted_name(n) for n in nodes(tree) if isinstance(n, ast.Subscript) and (
        id(n) in called or (id(n) not in in_kernel_bodies and isinstance(n.ctx, ast.Load)))} - {None}
    if not launched & set(kernels) and called:
        # `kernel = a if ... else b; kernel[grid](...)`, `self.kernel = k`, `KERNELS["k"]`: a
        # launch of something a kernel's name was read into, outside kernel bodies
        launched |= {n.id for n in nodes(tree) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Load) and id(n) not in in_kernel_bodies}
    _require(bool(launched & set(kernels)),
             f"Triton mode: your kernels ({', '.join(kernels)}) are never launched; launch one "
             "from ModelNew.forward as `kernel[grid](...)`")
    return StaticReport(kernels=tuple(kernels), autotuned=autotuned)


def _subscripted_name(node: ast.Subscript) -> str | None:
    """The name a subscript is taken of: `kernel` in `kernel[grid]` and `self.kernel[grid]`."""
    value = node.value
    return value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else None


def _check_kernels_at_module_level(tree: ast.Module, jitted: set[int]) -> None:
    """A kernel defined inside a function (a factory, forward) reads its enclosing function's
    names as closure cells: what they hold at run time (any host function, handed to
    `tl.reduce` as a combine and run by the interpreter on the block's values) is no binding the
    rules can read. Kernels live at module level, or in a class at module level."""
    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if id(child) in jitted and in_function:
                _fail(f"{where(child)}: the kernel `{child.name}` is defined inside a function; "
                      "define @triton.jit functions at module level (or in a class there): the "
                      "names a nested kernel reads from its enclosing function are closure "
                      "cells, which no rule can check")
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                           ast.Lambda)))
    visit(tree, False)


def _check_kernels_read_only(tree: ast.Module, kernels: set[str]) -> None:
    """A kernel object is launched, never changed: assigning into it (`k.rewritten_fn[k.fn] =
    body`, `k.fn = other`, `setattr(k, ...)`, `del k.x`) swapped what the interpreter runs for a
    function no rule had read."""
    for node in nodes(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            targets = [ast.Attribute(value=node.args[0], attr="?", ctx=ast.Store(), lineno=node.lineno)]
        if (isinstance(node, ast.Call) and targets and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)):  # setattr(x, "fn", ...)
            targets = [ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Store(),
                                     lineno=node.lineno)]
        for target in targets:
            for part in nodes(target):
                if isinstance(part, (ast.Attribute, ast.Subscript)) and root(part) in kernels:
                    _fail(f"{where(node)}: `{root(part)}` is a kernel: launch it, do not change it "
                          "(its attributes and caches decide what runs)")
                if (isinstance(part, ast.Attribute) and part.attr in KERNEL_BODY_ATTRIBUTES
                        and isinstance(part.ctx, (ast.Store, ast.Del)) and root(part) != "self"):
                    _fail(f"{where(node)}: assigning `.{part.attr}` is not allowed: a kernel object "
                          "keeps its function there (`k = KERNELS[0]; k.fn = body` swapped the body "
                          "the rules had read, red-team pass 72); launch kernels as defined")


# What a Triton kernel object (JITFunction, Autotuner) runs and compiles: its function and its
# source. A kernel reached through an alias or a container is not one of the names the check
# knows as kernels, so these attributes may not be assigned on anything but `self`.
KERNEL_BODY_ATTRIBUTES = frozenset({"fn", "src"})


def _calls(tree: ast.Module, aliases: dict[str, str], name: str) -> bool:
    return any(
        isinstance(n, ast.Call) and dotted(n.func, aliases) == name for n in nodes(tree)
    )
