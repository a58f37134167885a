"""Which `self.name` and `cls.name` in a submission are its own objects' attributes.

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
import builtins
import collections
import importlib
import sys

from .source_names import binding_counts, bound_names, dotted, names_bound_by, nodes, type_test

OWNERS = ("self", "cls")
# Decorators after which the first parameter is still the instance (or the class).
_METHOD_DECORATORS = {"property", "classmethod", "functools.cached_property", "torch.no_grad",
                      "torch.inference_mode", "torch.enable_grad", "functools.lru_cache",
                      "functools.cache", "typing.final", "typing.override", "torch.autocast",
                      "torch.amp.autocast"}
_ACCESSOR_DECORATORS = ("setter", "getter", "deleter")  # @prop.setter
_REGISTRATIONS = ("register_buffer", "register_parameter", "add_module", "register_module")


def _rebinds_owner(node: ast.AST) -> bool:
    """A binding of `self`/`cls` in any form but a parameter: assignment, `case self:`,
    `except E as self`, `global self`, a def or class of that name (`@(lambda f: x)` over
    `def self(): ...` makes `self` x after the method's entry was checked: red-team pass 41)."""
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return any(name in OWNERS for name in node.names)
    return not isinstance(node, ast.arg) and any(name in OWNERS for name in names_bound_by(node))


def own_accesses(tree: ast.Module, aliases: dict[str, str]) -> set[int]:
    """ids of the `self.x`/`cls.x` nodes (loads and stores) that are the submission's own: its
    private state (`self._cache`), and public names that other objects' attributes refuse
    (`self.buffer`: only what the file stored there)."""
    if any(_rebinds_owner(n) for n in nodes(tree)):
        return set()  # `self = torch` somewhere (or `case self:`): nothing is judged own
    bound = _bound_names(tree)
    own = _class_constants(tree)
    for method in _methods(tree, aliases):
        owner = _first_parameter(method)
        for node in _scope(method, owner):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == owner and node.attr in bound):
                own.add(id(node))
    return own


def _class_constants(tree: ast.Module) -> set[int]:
    """`C._LIMIT` where `C` is a class of the file's top level, bound once, with no class
    keywords (a metaclass's data descriptors come before the class's own names), whose own
    body assigns `_LIMIT` a value (a constant of its own, not a method: those are never read
    off a class) and nothing deletes it: a bare annotation (`_use_count: int`) or a `del`
    leaves the name to a base's attribute (`nn.Parameter._use_count`: red-team pass 41)."""
    counts = binding_counts(tree)
    deleted = {n.id if isinstance(n, ast.Name) else n.attr for n in nodes(tree)
               if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Del)}
    constants = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and counts.get(cls.name) == 1 and not cls.keywords:
            constants[cls.name] = {t.id for stmt in cls.body if isinstance(stmt, ast.Assign) or (
                                       isinstance(stmt, ast.AnnAssign) and stmt.value is not None)
                                   for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                                   for t in nodes(target) if isinstance(t, ast.Name)} - deleted
    return {id(n) for n in nodes(tree)
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


def misused_class(tree: ast.Module, annotations: set[int], aliases: dict[str, str]) -> ast.AST | None:
    """The first use of one of the submission's classes other than calling it, naming it as a
    base, in isinstance/issubclass/`super(C, self)`, an `is` comparison, an annotation, an
    `except` or `raise`, iterating or indexing it (enums), or reading an attribute that no class
    of the file defines as a plain method (static and class methods are fine), or flowing as a
    value where it stays so (`_ClassFlows`): `Holder.get(torch)`, or `K = Holder` and then
    `K.get(torch)`, would call a method with any object as `self`. A classmethod's first
    parameter is judged the same way (`cls.get(torch)`, `k = cls`), and so is a method named
    inside its own class body (`stolen = staticmethod(get)`), a class decorator of the file's
    own, a class of the file given as a class keyword, and `super()` outside a method's own."""
    rebound = bound_names(tree) - set(aliases)
    defs = {n.name: n for n in nodes(tree) if isinstance(n, ast.ClassDef)}
    # Every plain method name any class of the file defines counts as a method of each of them:
    # which class's methods another inherits is not read from its bases (`class H(Outer.Base)`,
    # `class H(Base[int])`, two classes of one name and mixins hid inherited methods: red-team
    # pass 38), and a name that is a method somewhere is never read off a class as a constant.
    every = _plain_method_names(tree, aliases, rebound)
    judged = set(defs) | {"cls"}  # a class by its name, and a classmethod's class
    parents = {id(child): parent for parent in nodes(tree) for child in ast.iter_child_nodes(parent)}
    flows = _ClassFlows(tree, parents, annotations, aliases, rebound, every)
    for node in nodes(tree):
        named = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if not (named in judged and isinstance(node.ctx, ast.Load)):
            continue  # a class by its name, or a nested one read off its outer class (`Outer.Inner`)
        if not _allowed_class_use(node, parents, annotations, every) and not (
                isinstance(node, ast.Name) and named in defs and flows.safe(node, named)):
            return node
    for fn in nodes(tree):  # a classmethod's first parameter is `cls`, whatever its name
        if (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                and isinstance(parents.get(id(fn)), ast.ClassDef)
                and (fn.name in _IMPLICIT_CLASSMETHODS
                     or any(_decorator_name(d, aliases, rebound) == "classmethod" for d in fn.decorator_list))
                and _first_parameter(fn) not in (None, "cls")):
            first = _first_parameter(fn)
            for node in _scope(fn, first):
                if (isinstance(node, ast.Name) and node.id == first and isinstance(node.ctx, ast.Load)
                        and not _allowed_class_use(node, parents, annotations, every)):
                    return node
    misused = _class_decorated_or_keyword(tree, aliases, rebound) or _super_misused(
        tree, parents, aliases, rebound, every)
    if misused is not None:
        return misused
    for cls in defs.values():  # a method named in its own class body, outside any method
        stack = list(cls.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.extend(d for d in getattr(node, "decorator_list", ())
                             if not (isinstance(d, ast.Attribute) and d.attr in _ACCESSOR_DECORATORS))
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in every:
                return node
            stack.extend(ast.iter_child_nodes(node))
    return None


# Class decorators a submission's class may have: they keep the class a class and call none of
# its methods (a decorator of the file's own gets the class itself: `@unwrap class H` was
# `H.addr`; red-team pass 38).
_CLASS_DECORATORS = {"dataclasses.dataclass", "functools.total_ordering", "typing.final",
                     "enum.unique", "typing.runtime_checkable"}


def _plain_method_names(tree: ast.Module, aliases: dict[str, str], rebound: set[str]) -> set[str]:
    """Names defined by a `def` in any class body of the file, but those defined only as static
    or class methods (`Cfg.block(8)` calls a classmethod with the class, as intended)."""
    plain = set()
    for cls in nodes(tree):
        if isinstance(cls, ast.ClassDef):
            for stmt in cls.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    kinds = {_decorator_name(d, aliases, rebound) for d in stmt.decorator_list}
                    if not kinds & {"staticmethod", "classmethod"}:
                        plain.add(stmt.name)
    return plain


def _class_decorated_or_keyword(tree: ast.Module, aliases: dict[str, str],
                                rebound: set[str]) -> ast.AST | None:
    """A class decorator other than the library's few that keep a class as it is, or a class
    of the file given as a class keyword (`class Sub(Base, block=H)` hands H to
    `__init_subclass__`, which may keep it anywhere)."""
    names = {n.name for n in nodes(tree) if isinstance(n, ast.ClassDef)}
    for cls in nodes(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for deco in cls.decorator_list:
            if _decorator_name(deco, aliases, rebound) not in _CLASS_DECORATORS:
                return deco
        for keyword in cls.keywords:
            if any(isinstance(n, ast.Name) and n.id in names for n in nodes(keyword.value)):
                return keyword.value
    return None


def _super_misused(tree: ast.Module, parents: dict, aliases: dict[str, str], rebound: set[str],
                   methods: set[str]) -> ast.AST | None:
    """`super(C, self)` only as a method's own (its first parameter, in an instance method):
    `super(H, H).addr(x)` reads a plain function off the class; and in a classmethod, where
    `super()` is bound to the class, no method is read off it (`super().addr(obj)`)."""
    for call in nodes(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "super"):
            continue
        method = parents.get(id(call))
        while method is not None and not isinstance(method, _SCOPES):
            method = parents.get(id(method))
        kinds = {_decorator_name(d, aliases, rebound) for d in getattr(method, "decorator_list", ())}
        in_classmethod = "classmethod" in kinds or getattr(method, "name", "") in _IMPLICIT_CLASSMETHODS
        if call.args:
            first = None if isinstance(method, (ast.Lambda, type(None))) else _first_parameter(method)
            if (len(call.args) != 2 or call.keywords or in_classmethod or "staticmethod" in kinds
                    or not (isinstance(call.args[1], ast.Name) and call.args[1].id == first)):
                return call
        parent = parents.get(id(call))
        if in_classmethod and isinstance(parent, ast.Attribute) and parent.attr in methods:
            return parent
    return None


def _allowed_class_use(node, parents: dict, annotations: set[int], methods: set[str]) -> bool:
    parent = parents.get(id(node))
    grand = parents.get(id(parent))
    if id(node) in annotations or type_test(node, parent, grand):
        return True
    if isinstance(parent, ast.Call) and (parent.func is node or (
            isinstance(parent.func, ast.Name) and parent.func.id == "super"
            and parent.args and parent.args[0] is node)):
        return True
    if isinstance(parent, ast.Tuple) and isinstance(grand, ast.ExceptHandler):
        return True  # except (A, B)
    if (isinstance(parent, ast.ClassDef) and any(b is node for b in parent.bases)) or isinstance(
            parent, (ast.ExceptHandler, ast.Raise)) or (
            isinstance(parent, ast.keyword) and parent.arg == "default_factory"):
        return True
    if (isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node) or (
            isinstance(parent, ast.Subscript) and parent.value is node):
        return True  # iterating or indexing an enum
    return isinstance(parent, ast.Attribute) and parent.attr not in methods


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# What an instance method may be decorated with and still be called as `self.m(...)`.
_INSTANCE_DECORATORS = _METHOD_DECORATORS - {"property", "classmethod", "functools.cached_property"}


class _ClassFlows:
    """Where one of the submission's classes goes as a value and stays a class used only as the
    rules allow: KernelBench's ResNets pass a block class to `self._make_layer(BasicBlock, ...)`
    (or bind `block = Bottleneck` first), its Swin Transformers pass `downsample=PatchMerging if
    ... else None` to a layer's constructor. Followed: a conditional expression's branches; an
    argument of a call to what the file defines (a module-level function; a plain class's own
    `__init__`; a method called as `self.m(...)` from an instance method, found in the caller's
    own class chain), resolved by name, undecorated, no starred arguments before it, into the
    parameter it binds; a name bound once to it. Each such name is bound nowhere else in its
    function (in the file, at module level), and every read of it is a call, a type test or an
    `is`, a read of a constant the class body assigns (`block.expansion`), or a followed flow:
    never a base, a method, a container, an attribute, a return or a library's argument.
    (Red-team pass 37 on the first version: bases through a conditional, class decorators,
    `__init__ = other` in a class body, `self.m` resolved by name across unrelated classes.)"""

    def __init__(self, tree: ast.Module, parents: dict, annotations: set[int],
                 aliases: dict[str, str], rebound: set[str], methods: set[str]):
        self.tree, self.parents, self.annotations = tree, parents, annotations
        self.counts = binding_counts(tree)
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        # a name two classes share is followed for neither (which one a name reaches is not read)
        self.classes = {name: cls for name, cls in _classes_by_name(tree).items() if cls is not None}
        self.methods = methods
        # names ever stored as attributes (`self.f = ...`, setattr, registrations): `self.f(...)`
        # may then be any callable, not the method of that name
        self.stored = {n.attr for n in nodes(tree)
                       if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
        self.stored |= {n.args[0 if isinstance(n.func, ast.Attribute) else 1].value
                        for n in nodes(tree) if isinstance(n, ast.Call) and (
                            isinstance(n.func, ast.Name) and n.func.id == "setattr" or
                            isinstance(n.func, ast.Attribute) and n.func.attr in _REGISTRATIONS)
                        and len(n.args) > (0 if isinstance(n.func, ast.Attribute) else 1)
                        and isinstance(n.args[0 if isinstance(n.func, ast.Attribute) else 1], ast.Constant)}
        self.owner_rebound = any(_rebinds_owner(n) for n in nodes(tree))
        self.aliases, self.rebound = aliases, rebound

    def safe(self, node: ast.AST, cls: str, seen: frozenset = frozenset()) -> bool:
        """`node`, a value that is the class `cls`, flows only into allowed uses."""
        if len(seen) > 16 or cls not in self.classes or not self._plain(self.classes[cls]):
            return False
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.IfExp) and node is not parent.test:
            return self._used_well(parent, cls, seen)
        if isinstance(parent, ast.Call) and any(a is node for a in parent.args):
            index = next(i for i, a in enumerate(parent.args) if a is node)
            if any(isinstance(a, ast.Starred) for a in parent.args[:index]):
                return False
            return self._into_parameters(parent, cls, seen, index=index)
        if (isinstance(parent, ast.keyword) and parent.arg is not None
                and isinstance(self.parents.get(id(parent)), ast.Call)):
            return self._into_parameters(self.parents[id(parent)], cls, seen, keyword=parent.arg)
        if (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)):
            scope = self._scope_of(parent)
            return scope is not None and self._name_used_well(scope, parent.targets[0].id, cls, seen)
        return False

    def _used_well(self, node: ast.AST, cls: str, seen: frozenset) -> bool:
        """A flowed value's use: called, type-tested, a body constant read, or flowing on."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            return True
        if type_test(node, parent, self.parents.get(id(parent))):
            return True
        if (isinstance(parent, ast.Attribute) and parent.value is node
                and isinstance(parent.ctx, ast.Load) and parent.attr in self._constants(cls)):
            return True
        return self.safe(node, cls, seen)

    def _constants(self, name: str, seen: tuple = ()) -> set[str]:
        """Names the class body (or a file base's, by name) binds by assignment alone (a bare
        annotation binds nothing; a `del` counts as a second binding)."""
        cls = self.classes[name]
        assigned = {t.id for stmt in cls.body if isinstance(stmt, ast.Assign) or (
                        isinstance(stmt, ast.AnnAssign) and stmt.value is not None)
                    for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                    for t in nodes(target) if isinstance(t, ast.Name)}
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in self.classes and base.id not in seen:
                assigned |= self._constants(base.id, (*seen, name))
        bound = _body_names(cls)
        return {n for n in assigned if bound.count(n) == 1 and n not in self.methods}

    def _plain(self, cls: ast.ClassDef, seen: tuple = ()) -> bool:
        """Undecorated, built on nn.Module or object (or on the file's own such classes, by
        name), no metaclass, no `__new__`: calling it runs its own `__init__` on a new instance
        and keeps nothing else of the arguments (a namedtuple base would keep them as fields)."""
        if cls.decorator_list or cls.keywords or "__new__" in _body_names(cls):
            return False
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in self.classes and base.id not in seen:
                if self.counts.get(base.id) != 1 or not self._plain(self.classes[base.id],
                                                                    (*seen, cls.name)):
                    return False
            elif dotted(base, self.aliases) not in _PLAIN_BASES:
                return False
        return True

    def _scope_of(self, node: ast.AST):
        """The function whose local `node` binds, or the module; None in a class body."""
        while (node := self.parents.get(id(node))) is not None:
            if isinstance(node, _SCOPES):
                return node
            if isinstance(node, ast.ClassDef):
                return None
        return self.tree

    def _into_parameters(self, call: ast.Call, cls: str, seen: frozenset,
                         index: int | None = None, keyword: str | None = None) -> bool:
        callee = self._callee(call)
        if callee is None:
            return False
        fn, shift = callee
        args = fn.args
        if keyword is not None:
            names = [a.arg for a in (*args.args, *args.kwonlyargs)]
            parameter = keyword if keyword in names else None
        else:
            positional = [*args.posonlyargs, *args.args]
            parameter = positional[index + shift].arg if index + shift < len(positional) else None
        return parameter is not None and self._name_used_well(fn, parameter, cls, seen)

    def _callee(self, call: ast.Call) -> tuple | None:
        """(the definition the call runs, parameters before its arguments), or None."""
        func = call.func
        if isinstance(func, ast.Name) and self.counts.get(func.id) == 1:
            if func.id in self.functions:
                fn = self.functions[func.id]
                return None if fn.decorator_list else (fn, 0)
            if func.id in self.classes and self._plain(self.classes[func.id]):
                return self._defined(self.classes[func.id], "__init__")
        if isinstance(func, ast.Attribute) and func.attr not in self.stored:
            chain = self._own_class_chain(call)
            for cls in chain or ():
                if func.attr in _body_names(cls):
                    below = self._descendants(cls)
                    if below is None or any(func.attr in _body_names(sub) for sub in below):
                        return None
                    return self._defined(cls, func.attr)
        return None

    def _defined(self, cls: ast.ClassDef, name: str) -> tuple | None:
        """The undecorated `def name(self, ...)` of the class body, the only binding of `name`
        there (no `__init__ = other` after it)."""
        if _body_names(cls).count(name) != 1:
            return None
        fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name), None)
        return (fn, 1) if fn is not None and not fn.decorator_list else None

    def _descendants(self, cls: ast.ClassDef) -> list | None:
        """The file's classes built on `cls`, whose instances a method of `cls` may get as
        `self`: any class whose bases or keywords name it anywhere (`Outer.U`, `U[int]`, a
        mixin beside it), and theirs; None when one of them has other than a single base
        that is a name (a mixin's or a library base's method of the same name would come
        first: red-team pass 38)."""
        found, frontier = [], [cls.name]
        while frontier:
            name = frontier.pop()
            for other in (n for n in nodes(self.tree) if isinstance(n, ast.ClassDef)):
                mentions = {n.id if isinstance(n, ast.Name) else n.attr
                            for part in (*other.bases, *(k.value for k in other.keywords))
                            for n in nodes(part) if isinstance(n, (ast.Name, ast.Attribute))}
                if other not in found and name in mentions:
                    if (len(other.bases) != 1 or not isinstance(other.bases[0], ast.Name)
                            or other.keywords):
                        return None
                    found.append(other)
                    frontier.append(other.name)
        return found

    def _own_class_chain(self, call: ast.Call) -> list | None:
        """For `self.m(...)` inside an instance method of a plain class (its first parameter
        `self`, never rebound in the file): that class and its file bases in order (one base
        each), where `m` must be found."""
        owner = call.func.value
        if not (isinstance(owner, ast.Name) and owner.id in OWNERS) or self.owner_rebound:
            return None
        method = self._scope_of(call)
        cls = self.parents.get(id(method))
        if not (isinstance(method, ast.FunctionDef) and isinstance(cls, ast.ClassDef)
                and _first_parameter(method) == owner.id and self._plain(cls)
                and all(_decorator_name(d, self.aliases, self.rebound) in _INSTANCE_DECORATORS
                        for d in method.decorator_list)):
            return None
        if cls.name not in self.classes:
            return None
        chain = [cls]
        while len(chain[-1].bases) == 1 and isinstance(chain[-1].bases[0], ast.Name) \
                and chain[-1].bases[0].id in self.classes and len(chain) < 16:
            chain.append(self.classes[chain[-1].bases[0].id])
        return chain if all(len(c.bases) <= 1 for c in chain) else None

    def _name_used_well(self, scope, name: str, cls: str, seen: frozenset) -> bool:
        """`name`, bound once in `scope` (to the class), is read only in allowed uses."""
        key = (id(scope), name)
        if key in seen:
            return True  # being followed already (a recursive helper)
        seen = seen | {key}
        inside = list(nodes(scope))
        bindings = sum(1 for n in inside if _binds(n, name))
        if bindings != 1 or (scope is self.tree and self.counts.get(name) != 1):
            return False
        return all(self._used_well(n, cls, seen) for n in inside
                   if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


def _body_names(cls: ast.ClassDef) -> list[str]:
    """Every name bound in a class body (a def, a class, an assignment, an import, a loop or
    `with` target), once per binding, also inside its `if`/`try`/`for`/`with` blocks (a second
    `def __init__` under `if True:` is the one that runs: red-team pass 40); names bound inside
    nested defs count too (failing closed)."""
    names = []
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(stmt.name)
        elif not isinstance(stmt, (ast.Expr, ast.Pass)):
            names += [n.id for n in nodes(stmt) if isinstance(n, ast.Name)
                      and not isinstance(n.ctx, ast.Load)]
            names += [n.name for n in nodes(stmt)
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
            names += [(a.asname or a.name.split(".")[0]) for n in nodes(stmt)
                      if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names]
    return names


def _binds(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.arg):
        return node.arg == name
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler,
                         ast.MatchAs, ast.MatchStar)):
        return node.name == name
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name.split(".")[0]) == name for a in node.names)
    return False


def own_methods(tree: ast.Module, aliases: dict[str, str]) -> tuple[tuple[int, int], ...]:
    """(line, column) of every `def` whose first parameter is trusted as its own instance (or
    class): the evaluator checks that at run time too (self_check.py)."""
    return tuple((fn.lineno, fn.col_offset) for fn in _methods(tree, aliases))


def _methods(tree: ast.Module, aliases: dict[str, str]):
    rebound = bound_names(tree) - set(aliases)  # `def property(f): return staticmethod(f)`
    classes = _classes_by_name(tree)
    for cls in (n for n in nodes(tree) if isinstance(n, ast.ClassDef)):
        if not _selves_are_instances(cls, classes, aliases) or _remade(cls):
            continue
        bound = _body_names(cls)
        defs = [stmt.name for stmt in cls.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
        # a property whose name the body binds only by its defs (`p = Fake()` after it made
        # `@p.setter` any decorator: red-team pass 39)
        properties = {stmt.name for stmt in cls.body if isinstance(stmt, ast.FunctionDef)
                      and any(_decorator_name(d, aliases, rebound) == "property" for d in stmt.decorator_list)
                      and bound.count(stmt.name) == defs.count(stmt.name)}
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_method(
                    stmt, aliases, rebound, properties):
                yield stmt


def _remade(cls: ast.ClassDef) -> bool:
    """A class a decorator replaces by a new one (`@dataclass(slots=True)`): its methods'
    `__class__` is the class the body made, not the one its instances have, so the run-time
    check (self_check.py) could not tell its instances; it has no methods of its own."""
    return any(isinstance(d, ast.Call) and any(
        k.arg is None or (k.arg == "slots" and not (isinstance(k.value, ast.Constant)
                                                   and k.value.value is False))
        for k in d.keywords) for d in cls.decorator_list)


def _classes_by_name(tree: ast.Module) -> dict:
    """The file's classes by name; None for a name two classes share (which one a use of the
    name reaches is not read)."""
    defined = [n for n in nodes(tree) if isinstance(n, ast.ClassDef)]
    counts = collections.Counter(n.name for n in defined)
    return {n.name: (n if counts[n.name] == 1 else None) for n in defined}


# Called with the class as their first argument, decorated or not.
_IMPLICIT_CLASSMETHODS = ("__init_subclass__", "__class_getitem__", "__new__")


def _selves_are_instances(cls: ast.ClassDef, classes: dict, aliases: dict[str, str],
                          seen: tuple = ()) -> bool:
    """Whether a plain method's `self` can only be an instance: no class keywords (a metaclass,
    `**{"metaclass": ...}`), and every base either one of the file's classes, defined once and
    itself so, or a library class that is `object`, an exception or an nn.Module (looked up for
    real, whatever it is called: Enum calls a plain `_missing_` with the value looked up as
    `self`, torch.autograd.Function a plain `forward` with its ctx node, and both are reachable
    under other names, `triton.language.core.Enum`; red-team passes 39 and 40). Fails closed."""
    if cls.keywords:
        return False
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            defined = classes[base.id]
            if base.id in seen or defined is None or not _selves_are_instances(
                    defined, classes, aliases, (*seen, cls.name)):
                return False
            continue
        name = dotted(base, aliases)
        if name is None or not _instance_base(name):
            return False
    return True


def _instance_base(name: str) -> bool:
    """`object`, an exception class, or an nn.Module class (not a metaclass's instance)."""
    from .name_rules import _resolve  # the live object the name reaches
    if name.split(".")[0] == "torch" and "torch" not in sys.modules:
        try:  # the evaluation process has it; a bare static check loads it to look
            importlib.import_module("torch")
        except ImportError:
            return False
    value = vars(builtins).get(name) if "." not in name else _resolve(name, load=False)
    if value is object:
        return True
    if not isinstance(value, type) or type(value) is not type:
        return False
    torch = sys.modules.get("torch")
    module = getattr(getattr(torch, "nn", None), "Module", None)
    return issubclass(value, BaseException) or (isinstance(module, type) and issubclass(value, module))


def _is_method(fn, aliases: dict[str, str], rebound: set[str], properties: set[str]) -> bool:
    """A `def` whose first parameter is the instance (or, for a classmethod, the class): plain,
    or decorated only by what keeps it so (property and its setter of this class, torch's grad
    modes, functools' caches), under names the file does not rebind."""
    first = _first_parameter(fn)
    names = [_decorator_name(d, aliases, rebound) for d in fn.decorator_list]
    return first in OWNERS and all(
        name in _METHOD_DECORATORS
        or (isinstance(d, ast.Attribute) and d.attr in _ACCESSOR_DECORATORS
            and isinstance(d.value, ast.Name) and d.value.id in properties)
        for d, name in zip(fn.decorator_list, names)) and (first == "cls") == (
            "classmethod" in names or fn.name in _IMPLICIT_CLASSMETHODS)


def _first_parameter(fn) -> str | None:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    return positional[0].arg if positional else None


def _decorator_name(node: ast.AST, aliases: dict[str, str], rebound: set[str] = frozenset()) -> str:
    """The dotted name a decorator resolves to; "" for a name the file binds itself, and for a
    call whose arguments are not plain data (`@typing.final(staticmethod)` is `staticmethod`,
    `@functools.lru_cache(unwrap)` decorates with `unwrap`: red-team pass 39)."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(node, ast.Call) and (
            dotted(target, aliases) in ("typing.final", "typing.override")
            or not all(_plain_data(a, aliases) for a in (*node.args, *(k.value for k in node.keywords)))):
        return ""
    root_name = target
    while isinstance(root_name, ast.Attribute):
        root_name = root_name.value
    if isinstance(root_name, ast.Name) and root_name.id in rebound:
        return ""
    return dotted(target, aliases) or ""


def _plain_data(node: ast.AST, aliases: dict[str, str]) -> bool:
    """A literal, a tuple or list of them, or a library name that is data (`torch.float16`)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_plain_data(e, aliases) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    name = dotted(node, aliases) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if not name or "." not in name:
        return False
    from .name_rules import is_data  # what the name is, in the live modules
    return is_data(name)


def _bound_names(tree: ast.Module) -> set[str]:
    names = set()
    # `self._forward_pre_hooks: dict` or `_x: int` in a class body binds nothing
    bare = {id(n.target) for n in nodes(tree) if isinstance(n, ast.AnnAssign) and n.value is None}
    for node in nodes(tree):
        if id(node) in bare:
            continue
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id in OWNERS):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(stmt.name)
                elif isinstance(stmt, ast.Assign) or (isinstance(stmt, ast.AnnAssign)
                                                      and stmt.value is not None):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    names |= {t.id for target in targets for t in nodes(target)
                              if isinstance(t, ast.Name)}
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _REGISTRATIONS and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return names


_PLAIN_BASES = ("torch.nn.Module", "object")


def plain_class_accesses(tree: ast.Module, aliases: dict[str, str], own: set[int]) -> set[int]:
    """The own accesses (`own`) made in classes built only on nn.Module or object (or on the
    file's own such classes), with no metaclass: no inherited attribute answers to a name the
    file stores itself, so `self.buffer` there is only what the file put there."""
    counts = binding_counts(tree)
    defs = {n.name: n for n in nodes(tree) if isinstance(n, ast.ClassDef)}

    def plain(cls: ast.ClassDef, seen: tuple = ()) -> bool:
        if cls.keywords or counts.get(cls.name, 0) != 1:
            return False
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in defs and base.id not in seen:
                if not plain(defs[base.id], (*seen, cls.name)):
                    return False
            elif dotted(base, aliases) not in _PLAIN_BASES:
                return False
        return True

    return {id(n) for cls in defs.values() if plain(cls) for n in nodes(cls) if id(n) in own}
