"""Whether the globals of a library module were changed at all since the snapshot.

Red-team pass 75: `enum.global_enum` wrote a callable named `next` into contextlib's globals,
where it shadowed the builtin for every `with` of a generator-made context manager the
evaluator entered after a forward, outside the guard. The static rules refuse that writer, and
the bindings compare only the namespaces they name, at the moments they look. A module's
globals are a dict, and CPython (3.11, 3.12) gives a dict a new version tag whenever anything in
it is set or deleted, and never the same one again: a name planted in any library module's
globals and removed before the next check still leaves the module a new tag.

Which modules: `builtins` and `sys`, and every module or package loaded from the standard
library, torch, numpy, Triton or the evaluator itself (a `.py` file) whose source assigns
no global of its own (no `global` statement, no call of the builtin that hands out its namespace),
so its globals do not change once it is imported; and a few whose statements of that kind an
honest evaluation never runs (`STABLE_DESPITE_GLOBAL_STATEMENTS`). A package gains a name when
one of its submodules is first imported (torch's lazy `_dynamo`, `collections.abc`): its globals
are copied at the snapshot, and a new tag is a change only if more than such submodules were
added (a name planted and put back leaves the contents as they were, and the tag new). Modules
whose state the libraries change as they run (CUDA's lazy start, Triton's runtime and
interpreter, the profiler) are left to the bindings (`VOLATILE_PREFIXES`, `CHANGING_MODULES`).
"""

from __future__ import annotations

import ctypes
import operator
import re
import sys
import sysconfig
import types

from .word_gather import word_reader

_LIBRARY_ROOTS = ("torch", "numpy", "triton")
_STDLIB = sysconfig.get_paths()["stdlib"]
_OWN_GLOBALS = re.compile(rb"^[ \t]*global[ \t]|\bglobals\(\)", re.M)

# Modules whose globals the libraries change while an honest evaluation runs, or may on a GPU.
VOLATILE_PREFIXES = ("triton.", "torch.cuda", "torch.mps", "torch.xpu", "torch.mtia",
                     "torch.backends", "torch._dynamo", "torch._inductor", "torch.profiler",
                     "torch.autograd.profiler", "torch._C", "torch.distributed",
                     "torch.utils.cpp_extension", "torch._subclasses", "torch.fx")
# Modules with statements of that kind that an honest evaluation never runs (at import only, or
# in setters the evaluator never calls); checked by
# tests/test_worker_isolation.py's trace of one.
# (torch's own: its namespace filled while it is imported, `global _GLOBAL_DEVICE_CONTEXT` in
# the default device's getter and setter, which set an attribute of that thread-local, never the
# name; numpy's: its namespace filled at import.)
STABLE_DESPITE_GLOBAL_STATEMENTS = frozenset({
    "os", "types", "enum", "typing", "threading", "inspect", "logging",
    "torch.nn.modules.module", "torch.autograd.graph", "torch._jit_internal", "torch.__future__",
    "numpy._core.multiarray", "torch", "numpy"})
# Modules whose globals change while an honest evaluation runs: a name kept there is still seen
# by the bindings (integrity.py), where they watch it; one planted and removed is not.
CHANGING_MODULES = {
    "torch._tensor_str": "the guard swaps its `_str` while it is active (printing refused)",
    "traceback": "feedback.py swaps its suggestion hook while it describes an exception",
    "warnings": "catch_warnings (torch.overrides' wrappers use it) rebinds its filters",
    "torch.utils._python_dispatch": "a dispatch mode sets its flags on entry and on exit",
    "torch.utils._device": "torch.device used as a context sets its current device",
    "torch.random": "fork_rng sets a flag once it has warned",
    "posixpath": "os.path.expandvars compiles its patterns into globals on first use",
}
# Modules in C whose globals every Python function reads (`len`, `next`) or the evaluator's code
# looks up (`sys.modules`, `sys.stdout`); nothing an evaluation runs sets a name in them.
BUILT_IN = ("builtins", "sys")
_WARNING_REGISTRY = "__warningregistry__"

_static: dict[str, bool] = {}  # module name -> whether it is watched (its file read once)


def _watched(name: str, module) -> bool:
    known = _static.get(name)
    if known is None:
        known = _static[name] = _static_globals(name, module)
    return known


def _static_globals(name: str, module) -> bool:
    if name in BUILT_IN:
        return True
    path = getattr(module, "__file__", None)
    if (not isinstance(path, str) or not path.endswith(".py")
            or name.startswith(VOLATILE_PREFIXES) or name in CHANGING_MODULES or name == "__main__"):
        return False
    if not (path.startswith(_STDLIB) and "site-packages" not in path
            or name.split(".", 1)[0] in _LIBRARY_ROOTS or name.startswith(__package__ + ".")):
        return False
    if name in STABLE_DESPITE_GLOBAL_STATEMENTS:
        return True
    try:
        with open(path, "rb") as f:
            return _OWN_GLOBALS.search(f.read()) is None
    except OSError:
        return False


def _find_tag_offset() -> int | None:
    """Where a dict keeps `ma_version_tag`: a 64-bit word after the object's header and
    `ma_used` (CPython 3.11, 3.12), checked here: `ma_used` is the dict's length, the tag changes
    when a name is set and again, to a new value, when it is deleted, and reading leaves it."""
    probe = {"a": 1}
    if ctypes.c_ssize_t.from_address(id(probe) + 2 * _POINTER).value != 1:
        return None
    offset = 3 * _POINTER
    tag = lambda: ctypes.c_uint64.from_address(id(probe) + offset).value & _MASK  # noqa: E731
    first = tag()
    probe["b"] = 2
    added = tag()
    del probe["b"]
    deleted = tag()
    _ = probe.get("a")
    return offset if len({first, added, deleted}) == 3 and tag() == deleted else None


_POINTER = ctypes.sizeof(ctypes.c_void_p)
# 3.12 keeps dict watchers' bits in the tag's low byte (DICT_MAX_WATCHERS = 8); versions step by 256
_MASK = ~0xFF & 0xFFFFFFFFFFFFFFFF if sys.version_info >= (3, 12) else 0xFFFFFFFFFFFFFFFF
_TAG_OFFSET = _find_tag_offset()
_UINT64_AT = ctypes.c_uint64.from_address
_VALUE = operator.attrgetter("value")


class ModuleGlobals:
    """The version tags of the watched modules' globals, read now; `changed()` names the modules
    whose tag is new since. Where this interpreter's dict layout is not the one read (checked at
    import), nothing is watched."""

    def __init__(self):
        modules = [] if _TAG_OFFSET is None else [
            (name, m) for name, m in list(sys.modules.items()) if m is not None and _watched(name, m)]
        for name, module in modules:  # where the first warning a module issues would add it
            if name not in BUILT_IN:  # (no Python code of theirs issues one)
                vars(module).setdefault(_WARNING_REGISTRY, {})
        self.names = [name for name, _ in modules]
        self.dicts = [vars(m) for _, m in modules]  # held: their addresses stay theirs
        self.addresses = [id(d) + _TAG_OFFSET for d in self.dicts]
        self._gathered = word_reader(self.addresses, ctypes.c_uint64, _MASK)  # (None: one by one)
        # a package's globals as they are now: a new tag there may be a submodule's first import
        self.contents = {i: dict(self.dicts[i]) for i, (_, m) in enumerate(modules)
                         if hasattr(m, "__path__")}
        self.tags = self._read()

    def _read(self) -> list[int]:
        if self._gathered is not None:
            return self._gathered()
        return [tag & _MASK for tag in map(_VALUE, map(_UINT64_AT, self.addresses))]

    def changed(self) -> list[str]:
        """The watched modules whose globals changed since the snapshot, or (a package that only
        gained submodules then) since the check that saw that: a name planted and put back there
        since that check is still seen. Within one interval between checks, a package's first
        import of a submodule hides a name planted and put back in the same package."""
        now = self._read()
        if now == self.tags:
            return []
        changed = []
        for i, (name, was, tag) in enumerate(zip(self.names, self.tags, now)):
            if tag == was:
                continue
            if self._submodules_added(i):
                self.tags[i], self.contents[i] = tag, dict(self.dicts[i])
            else:
                changed.append(name)
        return changed

    def _submodules_added(self, i: int) -> bool:
        """Whether package `i`'s globals differ from those last seen only by submodules imported
        since (each bound to its name, as the import system binds it) and at least one of them:
        the same contents under a new tag is a name set and put back."""
        was = self.contents.get(i)
        if was is None:
            return False
        now, package = self.dicts[i], self.names[i]
        if len(now) <= len(was) or any(now.get(k, _MISSING) is not v for k, v in was.items()):
            return False
        return all(isinstance(now[k], types.ModuleType)
                   and sys.modules.get(f"{package}.{k}") is now[k] for k in now.keys() - was.keys())


_MISSING = object()
