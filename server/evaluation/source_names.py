"""Names in a submission's syntax tree, resolved through its imports: `T.cuda.graph` is
`torch.cuda.graph` when `import torch as T`, and so is `getattr(T.cuda, "graph")`. The static
rules match these resolved names, not the spelling."""

from __future__ import annotations

import ast


def nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node under `tree` in `ast.walk`'s order, listed once per tree: the static rules walk
    the same module and kernel bodies dozens of times a check (most of its time, walked anew each
    time). Parsed trees are never changed, so the list stays true; callers must not change it."""
    listed = tree.__dict__.get("_walked")
    if listed is None:
        listed = tree._walked = list(ast.walk(tree))
    return listed


def import_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> the dotted name it stands for, from every import in the file."""
    aliases: dict[str, str] = {}
    for node in nodes(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return aliases


def literal_getattr(node: ast.AST) -> bool:
    """`getattr(x, "name")` (or with a default): an attribute access spelled as a call."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str))


def step(node: ast.AST) -> tuple[str, ast.AST] | None:
    """One link of an attribute chain: (attribute name, the object it is read from)."""
    if isinstance(node, ast.Attribute):
        return node.attr, node.value
    if literal_getattr(node):
        return node.args[1].value, node.args[0]
    return None


def dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """`T.cuda.graph` (or `getattr(T.cuda, "graph")`) -> 'torch.cuda.graph' when T aliases
    torch; None for non-name chains."""
    parts = []
    while (link := step(node)) is not None:
        parts.append(link[0])
        node = link[1]
    if not isinstance(node, ast.Name):
        return None
    parts.append(aliases.get(node.id, node.id))
    return ".".join(reversed(parts))


def root(node: ast.AST) -> str | None:
    while (link := step(node)) is not None:
        node = link[1]
    return node.id if isinstance(node, ast.Name) else None


def where(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


def binding_counts(tree: ast.Module) -> dict[str, int]:
    """How many times each name is bound anywhere (assignments, loops, parameters...): a name
    bound once can be followed to its value. Counted once per tree; each caller gets a copy."""
    counted = tree.__dict__.get("_binding_counts")
    if counted is None:
        counted = tree._binding_counts = _count_bindings(tree)
    return dict(counted)


# Python 3.12's type parameters (`def f[T]()`) bind their names too
_TYPE_PARAMETERS = tuple(getattr(ast, k) for k in ("TypeVar", "ParamSpec", "TypeVarTuple")
                         if hasattr(ast, k))


def names_bound_by(node: ast.AST) -> list[str]:
    """The names this one node binds: an assignment's or loop's target name, a parameter, a
    def or class, `except ... as`, a match capture (`case SOURCE:`, `case {**rest}`), an
    import, a type parameter."""
    names = [node.id] if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) else \
        [node.arg] if isinstance(node, ast.arg) else \
        [node.name] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                         ast.ExceptHandler, ast.MatchAs, ast.MatchStar,
                                         *_TYPE_PARAMETERS)) else \
        [node.rest] if isinstance(node, ast.MatchMapping) else \
        [a.asname or a.name.split(".")[0] for a in node.names] if isinstance(
            node, (ast.Import, ast.ImportFrom)) else []
    return [name for name in names if name]


def _count_bindings(tree: ast.Module) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in nodes(tree):
        for name in names_bound_by(node):
            counts[name] = counts.get(name, 0) + 1
    return counts


def bound_names(tree: ast.Module) -> set[str]:
    """Every name the file binds in any way: assignments, parameters, definitions, `except ...
    as`, match captures."""
    return set(binding_counts(tree))


_TYPE_TESTS = ("isinstance", "issubclass")


def type_test(node: ast.AST, parent: ast.AST | None, grand: ast.AST | None) -> bool:
    """`node` is a class a type test names: `isinstance(x, node)`, `(node, int)` there, or
    `t is node` (comparisons other than `is` run a class's own code)."""
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _TYPE_TESTS:
        return any(a is node for a in parent.args)
    if isinstance(parent, ast.Tuple) and isinstance(grand, ast.Call) and isinstance(grand.func, ast.Name):
        return grand.func.id in _TYPE_TESTS
    return isinstance(parent, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)
