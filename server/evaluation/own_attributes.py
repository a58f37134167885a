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

from .source_names import binding_counts, bound_names, dotted, nodes, type_test

OWNERS = ("self", "cls")
# Decorators after which the first parameter is still the instance (or the class).
_METHOD_DECORATORS = {"property", "classmethod", "functools.cached_property", "torch.no_grad",
                      "torch.inference_mode", "torch.enable_grad", "functools.lru_cache",
                      "functools.cache", "typing.final", "typing.override", "torch.autocast",
                      "torch.amp.autocast"}
_ACCESSOR_DECORATORS = ("setter", "getter", "deleter")  # @prop.setter
_REGISTRATIONS = ("register_buffer", "register_parameter", "add_module", "register_module")


def _rebinds_owner(node: ast.AST) -> bool:
    """A binding of `self`/`cls` in any form: assignment, `case self:`, `except E as self`,
    `global self`."""
    if isinstance(node, ast.Name):
        return node.id in OWNERS and not isinstance(node.ctx, ast.Load)
    if isinstance(node, (ast.MatchAs, ast.MatchStar, ast.ExceptHandler)):
        return node.name in OWNERS
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return any(name in OWNERS for name in node.names)
    return False


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
    """`C._LIMIT` where `C` is a class of the file's top level, bound once, whose own body assigns
    `_LIMIT` (a constant of its own, not a method: those are never read off a class)."""
    counts = binding_counts(tree)
    constants = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and counts.get(cls.name) == 1:
            constants[cls.name] = {t.id for stmt in cls.body if isinstance(stmt, (ast.Assign, ast.AnnAssign))
                                   for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                                   for t in nodes(target) if isinstance(t, ast.Name)}
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
    base, in isinstance/issubclass/super, an `is` comparison, an annotation, an `except` or
    `raise`, iterating or indexing it (enums), or reading an attribute that is not one of its
    methods (static and class methods are fine): `Holder.get(torch)`, or `K = Holder` and then
    `K.get(torch)`, would call a method with any object as `self`. A classmethod's `cls` is
    judged the same way (`cls.get(torch)`, `k = cls`), and so is a method named inside its own
    class body (`stolen = staticmethod(get)`)."""
    rebound = bound_names(tree) - set(aliases)
    defs = {n.name: n for n in nodes(tree) if isinstance(n, ast.ClassDef)}

    def plain_methods(cls: ast.ClassDef, seen=()) -> set[str]:
        own = {stmt.name for stmt in cls.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
               and not any(_decorator_name(d, aliases, rebound) in ("staticmethod", "classmethod")
                           for d in stmt.decorator_list)}
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in defs and base.id not in seen:
                own |= plain_methods(defs[base.id], (*seen, cls.name))
        return own

    methods = {name: plain_methods(cls) for name, cls in defs.items()}
    methods["cls"] = set().union(*methods.values()) if methods else set()
    parents = {id(child): parent for parent in nodes(tree) for child in ast.iter_child_nodes(parent)}
    flows = _ClassFlows(tree, parents, annotations, aliases, rebound)
    for node in nodes(tree):
        named = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if not (named in methods and isinstance(node.ctx, ast.Load)):
            continue  # a class by its name, or a nested one read off its outer class (`Outer.Inner`)
        if not _allowed_class_use(node, parents, annotations, methods[named]) and not (
                isinstance(node, ast.Name) and named in defs and flows.safe(node, methods[named])):
            return node
    for cls in defs.values():  # a method named in its own class body, outside any method
        mine = methods[cls.name]
        stack = list(cls.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.extend(d for d in getattr(node, "decorator_list", ())
                             if not (isinstance(d, ast.Attribute) and d.attr in _ACCESSOR_DECORATORS))
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in mine:
                return node
            stack.extend(ast.iter_child_nodes(node))
    return None


def _allowed_class_use(node, parents: dict, annotations: set[int], methods: set[str]) -> bool:
    parent = parents.get(id(node))
    grand = parents.get(id(parent))
    if id(node) in annotations or type_test(node, parent, grand):
        return True
    if isinstance(parent, ast.Call) and (parent.func is node or (
            isinstance(parent.func, ast.Name) and parent.func.id == "super"
            and any(a is node for a in parent.args))):
        return True
    if isinstance(parent, ast.Tuple) and isinstance(grand, ast.ExceptHandler):
        return True  # except (A, B)
    if isinstance(parent, (ast.ClassDef, ast.ExceptHandler, ast.Raise)) or (
            isinstance(parent, ast.keyword) and (isinstance(grand, ast.ClassDef)
                                                 or parent.arg == "default_factory")):
        return True
    if (isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node) or (
            isinstance(parent, ast.Subscript) and parent.value is node):
        return True  # iterating or indexing an enum
    return isinstance(parent, ast.Attribute) and parent.attr not in methods


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class _ClassFlows:
    """Where one of the submission's classes goes as a value and stays a class used as the rules
    allow: KernelBench's ResNets pass a block class to `self._make_layer(BasicBlock, ...)` (or
    bind `block = Bottleneck` first), its Swin Transformers pass `downsample=PatchMerging if ...
    else None` to a layer's constructor. Followed: a conditional expression's branches; an
    argument of a call to a function or method the file defines (a class's `__init__`), resolved
    by name, undecorated, with no starred arguments, into the parameter it binds; a name bound
    once to it. Each such name is bound nowhere else in its function (the file, at module level)
    and every read of it is again an allowed use or a followed flow. Anything else (a container,
    an attribute, a return, a call into torch or a library) still refuses the class."""

    def __init__(self, tree: ast.Module, parents: dict, annotations: set[int],
                 aliases: dict[str, str], rebound: set[str]):
        self.tree, self.parents, self.annotations = tree, parents, annotations
        self.counts = binding_counts(tree)
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.classes = {n.name: n for n in nodes(tree) if isinstance(n, ast.ClassDef)}
        self.members: dict[str, list] = {}
        for cls in self.classes.values():
            for stmt in cls.body:
                if isinstance(stmt, ast.FunctionDef):
                    self.members.setdefault(stmt.name, []).append(stmt)
        # names ever stored as attributes (`self.f = ...`, setattr(x, "f", ...)): `self.f(...)`
        # may then be any callable, not the method of that name
        self.stored = {n.attr for n in nodes(tree)
                       if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
        self.stored |= {n.args[1].value for n in nodes(tree)
                        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                        and n.func.id == "setattr" and len(n.args) > 1
                        and isinstance(n.args[1], ast.Constant)}
        self.aliases, self.rebound = aliases, rebound

    def safe(self, node: ast.AST, methods: set[str], seen: frozenset = frozenset()) -> bool:
        """`node` (a value that is the class) flows only into allowed uses."""
        if len(seen) > 16:
            return False
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.IfExp) and node is not parent.test:
            return self._used_well(parent, methods, seen)
        if isinstance(parent, ast.Call) and any(a is node for a in parent.args):
            index = next(i for i, a in enumerate(parent.args) if a is node)
            if any(isinstance(a, ast.Starred) for a in parent.args[:index]):
                return False
            return self._into_parameters(parent, methods, seen, index=index)
        if (isinstance(parent, ast.keyword) and parent.arg is not None
                and isinstance(self.parents.get(id(parent)), ast.Call)):
            return self._into_parameters(self.parents[id(parent)], methods, seen, keyword=parent.arg)
        if (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)):
            scope = self._scope_of(parent)
            return scope is not None and self._name_used_well(scope, parent.targets[0].id, methods, seen)
        return False

    def _used_well(self, node: ast.AST, methods: set[str], seen: frozenset) -> bool:
        return (_allowed_class_use(node, self.parents, self.annotations, methods)
                or self.safe(node, methods, seen))

    def _scope_of(self, node: ast.AST):
        """The function whose local `node` binds, or the module; None in a class body."""
        while (node := self.parents.get(id(node))) is not None:
            if isinstance(node, _SCOPES):
                return node
            if isinstance(node, ast.ClassDef):
                return None
        return self.tree

    def _into_parameters(self, call: ast.Call, methods: set[str], seen: frozenset,
                         index: int | None = None, keyword: str | None = None) -> bool:
        callees = self._callees(call)
        if not callees:
            return False
        for fn, shift in callees:
            args = fn.args
            if keyword is not None:
                names = [a.arg for a in (*args.args, *args.kwonlyargs)]
                parameter = keyword if keyword in names else None
            else:
                positional = [*args.posonlyargs, *args.args]
                parameter = positional[index + shift].arg if index + shift < len(positional) else None
            if parameter is None or not self._name_used_well(fn, parameter, methods, seen):
                return False
        return True

    def _callees(self, call: ast.Call) -> list[tuple]:
        """(function, parameters before the arguments) for every definition the call may reach:
        a module-level function or class (its `__init__`) by its name, or a method by its name."""
        func = call.func
        if isinstance(func, ast.Name) and self.counts.get(func.id) == 1:
            if func.id in self.functions:
                fn = self.functions[func.id]
                return [] if fn.decorator_list else [(fn, 0)]
            if func.id in self.classes and self._plain(self.classes[func.id]):
                inits = [s for s in self.classes[func.id].body
                         if isinstance(s, ast.FunctionDef) and s.name == "__init__"]
                return [(inits[0], 1)] if len(inits) == 1 and not inits[0].decorator_list else []
        if (isinstance(func, ast.Attribute) and func.attr not in self.stored
                and self._on_own_instance(call)):
            found = []
            for fn in self.members.get(func.attr, []):
                decorators = [_decorator_name(d, self.aliases, self.rebound) for d in fn.decorator_list]
                if decorators not in ([], ["staticmethod"], ["classmethod"]):
                    return []
                found.append((fn, 0 if decorators == ["staticmethod"] else 1))
            return found
        return []

    def _plain(self, cls: ast.ClassDef, seen: tuple = ()) -> bool:
        """Built on nn.Module or object (or the file's own such classes), no metaclass, no
        `__new__`: calling it runs its `__init__` on a new instance and keeps nothing else of
        the arguments (a namedtuple base would keep them as fields)."""
        if cls.keywords or any(isinstance(s, ast.FunctionDef) and s.name == "__new__" for s in cls.body):
            return False
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in self.classes and base.id not in seen:
                if not self._plain(self.classes[base.id], (*seen, cls.name)):
                    return False
            elif dotted(base, self.aliases) not in _PLAIN_BASES:
                return False
        return True

    def _on_own_instance(self, call: ast.Call) -> bool:
        """`self.f(...)` (or `cls.f(...)`) inside a method of the file whose first parameter is
        that name, never rebound: the attribute is the file's method (or one it inherits)."""
        owner = call.func.value
        if not (isinstance(owner, ast.Name) and owner.id in OWNERS) or any(
                _rebinds_owner(n) for n in nodes(self.tree)):
            return False
        method = self._scope_of(call)
        cls = self.parents.get(id(method))
        return (isinstance(method, ast.FunctionDef) and isinstance(cls, ast.ClassDef)
                and _first_parameter(method) == owner.id)

    def _name_used_well(self, scope, name: str, methods: set[str], seen: frozenset) -> bool:
        """`name`, bound once in `scope` (to the class), is read only in allowed uses."""
        key = (id(scope), name)
        if key in seen:
            return True  # being followed already (a recursive helper)
        seen = seen | {key}
        inside = list(nodes(scope)) if scope is not self.tree else list(nodes(self.tree))
        bindings = sum(1 for n in inside if _binds(n, name))
        if bindings != 1 or (scope is self.tree and self.counts.get(name) != 1):
            return False
        return all(self._used_well(n, methods, seen) for n in inside
                   if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))


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


def _methods(tree: ast.Module, aliases: dict[str, str]):
    rebound = bound_names(tree) - set(aliases)  # `def property(f): return staticmethod(f)`
    for cls in (n for n in nodes(tree) if isinstance(n, ast.ClassDef)):
        properties = {stmt.name for stmt in cls.body if isinstance(stmt, ast.FunctionDef)
                      and any(_decorator_name(d, aliases, rebound) == "property" for d in stmt.decorator_list)}
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_method(
                    stmt, aliases, rebound, properties):
                yield stmt


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
        for d, name in zip(fn.decorator_list, names)) and (first == "cls") == ("classmethod" in names)


def _first_parameter(fn) -> str | None:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    return positional[0].arg if positional else None


def _decorator_name(node: ast.AST, aliases: dict[str, str], rebound: set[str] = frozenset()) -> str:
    """The dotted name a decorator resolves to; "" for a name the file binds itself."""
    target = node.func if isinstance(node, ast.Call) else node
    root_name = target
    while isinstance(root_name, ast.Attribute):
        root_name = root_name.value
    if isinstance(root_name, ast.Name) and root_name.id in rebound:
        return ""
    return dotted(target, aliases) or ""


def _bound_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in nodes(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id in OWNERS):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(stmt.name)
                elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
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
