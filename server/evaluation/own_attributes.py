"""Which `self._name` and `cls._name` in a submission are its own objects' private attributes.

Private attributes of other objects are refused (`torch._C`, an object's `_module`), but a class
may keep private state of its own (`self._cache`). `self` is only a parameter's name: a plain
function `def f(self): return self._C` called as `f(torch)`, or a method called through its class
(`Holder.get(torch)`), reads torch's `_C`. So an access counts as the submission's own only when
`self`/`cls` is the first parameter of a method (a `def` in a class body, not a staticmethod),
never rebound; when the name is one the submission binds itself (on `self`/`cls`, in a class body,
or registered as a buffer, parameter or submodule); and methods are never read off their class.
A class's own private constants may also be read through its name (`Config._MAX_WARPS`).
"""

from __future__ import annotations

import ast

from .source_names import binding_counts, dotted

OWNERS = ("self", "cls")
# Decorators after which the first parameter is still the instance (or the class).
_METHOD_DECORATORS = {"property", "classmethod", "functools.cached_property", "cached_property",
                      "torch.no_grad", "torch.inference_mode", "torch.enable_grad"}
_ACCESSOR_DECORATORS = ("setter", "getter", "deleter")  # @prop.setter
_REGISTRATIONS = ("register_buffer", "register_parameter", "add_module", "register_module")


def own_private_accesses(tree: ast.Module, aliases: dict[str, str]) -> set[int]:
    """ids of the `self._x`/`cls._x` nodes (loads and stores) that are the submission's own."""
    if any(isinstance(n, ast.Name) and n.id in OWNERS and not isinstance(n.ctx, ast.Load)
           for n in ast.walk(tree)):
        return set()  # `self = torch` somewhere: nothing is judged own
    bound = _bound_private_names(tree)
    own = _class_constants(tree)
    for method in _methods(tree, aliases):
        owner = _first_parameter(method)
        for node in _scope(method, owner):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == owner and node.attr in bound):
                own.add(id(node))
    return own


def _class_constants(tree: ast.Module) -> set[int]:
    """`C._LIMIT` where `C` is a class of the file's top level, bound once, whose own body assigns
    `_LIMIT` (a constant of its own, not a method: those are never read off a class)."""
    counts = binding_counts(tree)
    constants = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and counts.get(cls.name) == 1:
            constants[cls.name] = {t.id for stmt in cls.body if isinstance(stmt, (ast.Assign, ast.AnnAssign))
                                   for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                                   for t in ast.walk(target) if isinstance(t, ast.Name)}
    return {id(n) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
            and n.attr in constants.get(n.value.id, ())}


def _scope(method, owner: str):
    """The method's nodes where `owner` is still its first parameter: not inside a nested
    function or lambda that has a parameter of that name (`lambda self: self._C`)."""
    stack = [*method.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                     args.vararg, args.kwarg) if a is not None}
            if owner in names:
                continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def misused_class(tree: ast.Module, annotations: set[int]) -> ast.Name | None:
    """The first use of one of the submission's classes other than calling it, naming it as a
    base, in isinstance/issubclass/super or an `is` comparison, in an annotation, or reading an
    attribute that is not one of its methods (static and class methods are fine): `Holder.get(torch)`, or `K = Holder` and then
    `K.get(torch)`, would call a method with any object as `self`. A classmethod's `cls` is
    judged the same way (`cls.get(torch)`, `k = cls`)."""
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)} | {"cls"}
    methods = {stmt.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) for stmt in n.body
               if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
               and not any(_decorator_name(d, {}) in ("staticmethod", "classmethod")
                           for d in stmt.decorator_list)}
    parents = {id(child): parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id in classes and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if id(node) in annotations or (isinstance(parent, ast.Call) and (
                parent.func is node or (isinstance(parent.func, ast.Name)
                                        and parent.func.id in ("isinstance", "issubclass", "super")
                                        and any(a is node for a in parent.args)))):
            continue
        if isinstance(parent, ast.Tuple) and isinstance(parents.get(id(parent)), ast.Call) and (
                isinstance(parents[id(parent)].func, ast.Name)
                and parents[id(parent)].func.id in ("isinstance", "issubclass")):
            continue  # isinstance(x, (A, B))
        if isinstance(parent, ast.ClassDef) or (isinstance(parent, ast.keyword)
                                                and isinstance(parents.get(id(parent)), ast.ClassDef)):
            continue
        if isinstance(parent, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
            continue
        if isinstance(parent, ast.Attribute) and parent.attr not in methods:
            continue
        return node
    return None


def _methods(tree: ast.Module, aliases: dict[str, str]):
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_method(stmt, aliases):
                yield stmt


def _is_method(fn, aliases: dict[str, str]) -> bool:
    first = _first_parameter(fn)
    return first in OWNERS and all(
        _decorator_name(d, aliases) in _METHOD_DECORATORS
        or (isinstance(d, ast.Attribute) and d.attr in _ACCESSOR_DECORATORS
            and isinstance(d.value, ast.Name))
        for d in fn.decorator_list) and (
        first == "cls") == any(_decorator_name(d, aliases) == "classmethod" for d in fn.decorator_list)


def _first_parameter(fn) -> str | None:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    return positional[0].arg if positional else None


def _decorator_name(node: ast.AST, aliases: dict[str, str]) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return dotted(target, aliases) or ""


def _bound_private_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id in OWNERS):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(stmt.name)
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    names |= {t.id for target in targets for t in ast.walk(target)
                              if isinstance(t, ast.Name)}
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _REGISTRATIONS and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return {name for name in names if name.startswith("_")}
