"""A run-time backstop for the static rules on `self`: methods run only on their own instances.

The static check lets a method read private attributes of `self` (`self._cache`) because `self`
should be an instance of the method's class. Forty red-team passes found ways to call such a
method with a foreign `self` (a tensor, torch's module, an autograd ctx) that the rules then
closed one by one. Here every method the static check granted that trust (its
`StaticReport.own_methods`) starts, as the submission is imported, with a call that checks its
first argument: `type(self)` is the method's class or a subclass of it (`cls`, for a
classmethod, is the class or a subclass). The class is the method's `__class__` cell (the class
object its body made, whatever name it is bound under); the checker sits in the module's
globals under a name no source can spell. A foreign `self` fails the call before its body runs
and is recorded, so the step fails as tampering even if the submission catches the error.
"""

from __future__ import annotations

import abc
import ast
import sys
import typing

CHECKER = "kernel_env self check"  # a global no Python source can name (it has spaces)
_found: list[str] = []


class ForeignSelf(RuntimeError):
    """A method of the submission's class ran with a first argument not of its class."""


def instrument(source: str, filename: str, methods: tuple) -> object:
    """The submission's code object, with the check at the start of each method in `methods`
    ((line, column) of each `def`); line numbers are kept, and so are docstrings."""
    tree = ast.parse(source, filename)
    wanted = set(methods)
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and (node.lineno, node.col_offset) in wanted):
            at = _after_docstring(node)
            node.body.insert(at, _check_call(node, node.body[min(at, len(node.body) - 1)]))
    return compile(tree, filename, "exec", dont_inherit=True)


def _after_docstring(fn) -> int:
    first = fn.body[0]
    return int(isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
               and isinstance(first.value.value, str))


def _check_call(fn, at: ast.stmt) -> ast.stmt:
    """`<checker>(self, __class__, False)` placed at `at`'s line."""
    positional = [*fn.args.posonlyargs, *fn.args.args]
    first = positional[0].arg
    of_class = first == "cls"
    call = ast.Expr(ast.Call(ast.Name(CHECKER, ast.Load()),
                             [ast.Name(first, ast.Load()), ast.Name("__class__", ast.Load()),
                              ast.Constant(of_class)], []))
    for node in ast.walk(call):
        ast.copy_location(node, at)
        node.end_lineno, node.end_col_offset = at.lineno, at.col_offset
    return call


def install(namespace: dict) -> None:
    """Put the checker into the module's globals before its code runs."""
    namespace[CHECKER] = _check


def _check(obj, cls: type, of_class: bool) -> None:
    # type(), not isinstance(): isinstance believes an object's own `__class__` (a Mock's spec)
    kind = type(obj)
    if of_class:
        ok = issubclass(kind, type) and type.__subclasscheck__(cls, obj) and _plain_below(obj, cls)
    else:
        ok = kind is cls or (type.__subclasscheck__(cls, kind) and _plain_below(kind, cls))
    if ok:
        return
    frame = sys._getframe(1)
    what = f"`{cls.__qualname__}.{frame.f_code.co_name}`"
    subclass = (obj if of_class else kind) if isinstance(obj if of_class else kind, type) else None
    built_on = (" (a subclass built on a tensor or a library class other than nn.Module and "
                "exceptions)" if subclass is not None and type.__subclasscheck__(cls, subclass) else "")
    _found.append(f"{what} (line {frame.f_code.co_firstlineno}) ran with "
                  f"{'cls' if of_class else 'self'} a `{(subclass or kind).__name__}`{built_on}")
    raise ForeignSelf(f"{what} called with a {kind.__name__} as its "
                      f"{'class' if of_class else 'instance'}: methods of your classes run only "
                      "on their own instances")


_plain: dict[tuple, bool] = {}
_PLAIN_MIXINS = (object, abc.ABC, typing.Generic)  # no state of their own in an instance


def _plain_below(kind: type, cls: type) -> bool:
    """Whether a subclass of the method's class adds only what the static check allows a class
    with methods of its own: the file's classes, exceptions, nn.Module classes; never a tensor
    (`class Mixed(Holder, nn.Parameter)` made `Mixed(x).addr()` read a tensor's `_cdata`:
    red-team pass 44). The method's class itself was judged by the static check."""
    key = (kind, cls)
    if key not in _plain:
        import torch

        _plain[key] = all(
            k in _PLAIN_MIXINS or k in cls.__mro__ or (
                not issubclass(k, torch.Tensor)
                and (k.__module__ == cls.__module__ or issubclass(k, (BaseException, torch.nn.Module))))
            for k in kind.__mro__)
    return _plain[key]


def foreign_calls() -> list[str]:
    """Every call refused so far in this process (each failed when made)."""
    return list(_found)
