"""Every name, attribute and string a submission uses, resolved through its imports and judged
against the tables of refused_names.py and against what the name reaches in the live modules
(an alias of a refused object is refused under any spelling)."""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.util
import logging
import string
import sys
import types
import warnings

from .cuda_sources import CLOCKS_REASON
from .library_instances import instance_dict
from .own_attributes import misused_class, own_accesses, plain_class_accesses
from .refused_names import (ALLOWED_DUNDER_ATTRIBUTES, ALLOWED_DUNDER_TEXT, ALLOWED_IMPORTS,
                            ALLOWED_NAMES, ATTRIBUTE_ONLY, DATETIME_DTYPES, ENVIRON_READS, FILES,
                            FORBIDDEN_BUILTINS, FORBIDDEN_NAMES, FORBIDDEN_TEXT,
                            GPU_CLOCK_FUNCTIONS, GPU_CLOCK_TEXT, INTERNAL_TYPE_MODULES, LOGGERS,
                            EINOPS_ALLOWED, INTROSPECTION, NAMEDTUPLE_API, NATIVE_TORCH, OS_ALLOWED,
                            OWN_NAMES_ALLOWED, PRIVATE_ROOTS, PROTECTED_ROOTS,
                            REBINDABLE_BUILTINS, RUNNERS, SHADOWED_MODULES, SHARED_MEMORY,
                            SYMBOLIC, SYS_ALLOWED, constant_text, forbidden_attribute)
from .source_names import (binding_counts, bound_names, dotted, literal_getattr, nodes, root,
                           type_test, where)
from .stages import STATIC_CHECK, StageFailure


def _fail(feedback: str, error_class: str = "format_violation"):
    raise StageFailure(STATIC_CHECK, error_class, feedback)


def is_module(name: str) -> bool:
    """By the object, not the spelling: `torch.nn.functional.torch` is the torch module. A
    top-level module not imported in this process yet is one too (`import torch` in a process
    that never loaded torch)."""
    return isinstance(sys.modules.get(name), types.ModuleType) or isinstance(
        _resolve(name), types.ModuleType) or (
        "." not in name and name in ALLOWED_IMPORTS
        and importlib.util.find_spec(name) is not None)


def is_data(name: str) -> bool:
    """A plain value the imports reach (a dtype, a number, a string), not a module, class or
    callable that could lead further."""
    value = _resolve(name, load=False)
    return value is not None and not callable(value) and not isinstance(value, types.ModuleType) and (
        isinstance(value, (int, float, str, bool, _dtype_types())))


def is_metaclass(name: str) -> bool:
    """Whether `a.b.c` names a class of classes (`abc.ABCMeta`, `enum.EnumType`): called, it makes
    a class from a namespace dict."""
    value = _resolve(name, load=False)
    return isinstance(value, type) and issubclass(value, type)


def _dtype_types() -> tuple:
    """dtype classes of torch and Triton, when loaded (the static check imports neither)."""
    kinds = []
    for module, attr in (("torch", "dtype"), ("triton.language", "dtype")):
        kind = getattr(sys.modules.get(module), attr, None)
        if isinstance(kind, type):
            kinds.append(kind)
    return tuple(kinds)


def _forbidden_reason(name: str, language: str) -> str | None:
    if name.startswith("torch.utils.cpp_extension.load_inline"):
        if language == "cuda" and name == "torch.utils.cpp_extension.load_inline":
            return None
        if language != "cuda":
            return "load_inline builds CUDA code: submit with language='cuda'"
    for prefix, reason in FORBIDDEN_NAMES.items():
        if name == prefix or name.startswith(prefix + "."):
            return reason
    if name.startswith("torch.sym_"):
        return SYMBOLIC
    return None


def _check_import_allowed(module: str, node: ast.AST) -> None:
    top = module.split(".")[0]
    if top not in ALLOWED_IMPORTS:
        _fail(f"{where(node)}: importing `{module}` is not allowed; submissions may import "
              f"{', '.join(sorted(ALLOWED_IMPORTS - {'__future__'}))}")


# `str.format` reads the attributes and items its template names (red-team pass 69:
# `"{0.__traceback__.tb_frame.f_back...f_locals[trials]}".format(e)` on an exception caught in
# forward walked into the evaluator's frames and read its secret count of timed calls), and a
# template can be put together at run time where no rule on names reads it: `.format` and
# `.format_map` only on a string literal whose fields are names or positions.
FORMAT_METHODS = frozenset({"format", "format_map"})
TEMPLATE_REASON = ("a format template's fields read attributes and items (`{0.attr}`, `{0[key]}`), "
                   f"where no rule sees what they reach ({INTROSPECTION}); call `.format` on a "
                   "string literal whose fields are plain names or positions, or use an f-string")


def _plain_template(text: str) -> bool:
    """Whether every field of a format template (nested ones in format specs included) is a
    name, a position or automatic, reading no attribute or item."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return False
    return all((not field or field.isidentifier() or field.isdigit())
               and (not spec or _plain_template(spec)) for _, field, spec, _ in parsed)


def _literal_formats(tree: ast.Module) -> set[int]:
    """The `.format` / `.format_map` attributes called directly on a plain template literal, or
    on a module-level name bound once, to one (a CUDA source template: `_SRC.format(threads=256)`)."""
    counts = binding_counts(tree)
    templates = {t.id for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                 for t in n.targets if isinstance(t, ast.Name) and counts.get(t.id) == 1
                 and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                 and _plain_template(n.value.value)}

    def plain(receiver: ast.AST) -> bool:
        return (isinstance(receiver, ast.Constant) and isinstance(receiver.value, str)
                and _plain_template(receiver.value)) or (
            isinstance(receiver, ast.Name) and receiver.id in templates)

    return {id(n.func) for n in nodes(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in FORMAT_METHODS and plain(n.func.value)}


def check_names(tree: ast.Module, aliases: dict[str, str], language: str) -> None:
    called = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call)}
    literal_formats = _literal_formats(tree)
    inner = {id(n.value) for n in nodes(tree) if isinstance(n, ast.Attribute)}
    # `type(x) is T` only: `==`, `in` & co. hand the class to a method the submission defines
    compared = {id(x) for n in nodes(tree) if isinstance(n, ast.Compare)
                and all(isinstance(op, (ast.Is, ast.IsNot)) for op in n.ops) for x in (n.left, *n.comparators)}
    # `type(x).__name__` and `x.__class__.__name__` (messages, reprs) read only a name
    named = {id(n.value) for n in nodes(tree)
             if isinstance(n, ast.Attribute) and n.attr in ("__name__", "__qualname__")}
    compared |= named
    bound = bound_names(tree)
    known = bound | set(aliases) | set(dir(builtins)) | {"__name__", "__file__", "__doc__"}
    argless_calls = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call) and not n.args
                     and not n.keywords}
    own = own_accesses(tree, aliases)
    plain_own = plain_class_accesses(tree, aliases, own)
    misused = misused_class(tree, {id(n) for a in annotation_nodes(tree) for n in nodes(a)}, aliases)
    if misused is not None:
        named = getattr(misused, "id", None) or getattr(misused, "attr", None) or ast.unparse(misused)[:80]
        _fail(f"{where(misused)}: `{named}` (a class of "
              "yours, or one of its methods) may only be called, named as a base, tested with "
              "isinstance/issubclass or `is`, iterated, indexed, or have its constants read: "
              "a method read off its class (`Holder.get`), or the class under another name "
              "(`K = Holder`), can be called with any object as `self` (also: `super(C, self)` "
              "only in an instance method; class decorators only dataclass, total_ordering, "
              "final, unique; no class of yours as a class keyword)")
    for node in nodes(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in known:
            # e.g. what Triton's interpreter copies into a module's globals at the first launch
            _fail(f"{where(node)}: `{node.id}` is not defined in your file; use only names you "
                  "import or bind yourself")
        if isinstance(node, ast.MatchClass):
            _fail(f"{where(node)}: class patterns in `match` are not allowed: they read "
                  f"attributes by name ({INTROSPECTION})")
        text = constant_text(node)
        if text is not None and (
                text.startswith("__") and text.endswith("__") and text not in ALLOWED_DUNDER_TEXT
                or text in FORBIDDEN_TEXT):
            _fail(f"{where(node)}: the string {text!r} is not allowed: it names what the rules "
                  f"refuse, for a lookup they cannot see ({INTROSPECTION})")
        if (isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr.endswith("__")
                and node.attr not in ALLOWED_DUNDER_ATTRIBUTES
                and not (node.attr == "__class__" and id(node) in named)):
            # an allow-list: `__getstate__` of a module is its namespace, `__reduce__` of a method
            # hands out getattr, and new ones appear with Python versions
            _fail(f"{where(node)}: `.{node.attr}` is not allowed: special attributes other than "
                  f"{', '.join(sorted(ALLOWED_DUNDER_ATTRIBUTES))} reach into objects' machinery "
                  f"({INTROSPECTION})")
        if isinstance(node, ast.Attribute):
            attr = node.attr
            if attr in FORMAT_METHODS and id(node) not in literal_formats:
                _fail(f"{where(node)}: `.{attr}` is not allowed here: {TEMPLATE_REASON}")
            if (attr.startswith("_") and not attr.startswith("__") and root(node) not in aliases
                    and id(node) not in own and attr not in NAMEDTUPLE_API):
                _fail(f"{where(node)}: `.{attr}` is not allowed: private attributes of objects "
                      "other than your own are not an API for kernels (your own: `self._x` or "
                      "`cls._x` in a method of your class, for an `_x` your code binds there)")
            # on `self` too: `self.compile()` is torch.compile (nn.Module.compile)
            if attr in SHADOWED_MODULES and not (root(node) == "os" and attr == "path"):
                _fail(f"{where(node)}: `.{attr}` is not allowed: it names a module the rules "
                      f"refuse ({INTROSPECTION})")
            if (attr in FORBIDDEN_BUILTINS and attr not in REBINDABLE_BUILTINS
                    and not (attr == "eval" and id(node) in argless_calls)):  # nn.Module.eval()
                _fail(f"{where(node)}: `.{attr}` is not allowed: {FORBIDDEN_BUILTINS[attr]}")
        if (isinstance(node, ast.Name) and node.id in FORBIDDEN_BUILTINS and node.id not in aliases
                and (node.id not in bound or node.id not in REBINDABLE_BUILTINS)):
            # any reference, not only a call: `run = exec; run(src)` is exec
            _fail(f"{where(node)}: `{node.id}` is not allowed: {FORBIDDEN_BUILTINS[node.id]}")
        if (isinstance(node, ast.Name) and node.id in ("getattr", "setattr", "delattr", "type")
                and node.id not in aliases and id(node) not in called):
            _fail(f"{where(node)}: `{node.id}` may only be called directly (an alias would hide "
                  f"what it reads): {INTROSPECTION}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                clock in node.value.lower() for clock in GPU_CLOCK_TEXT):
            _fail(f"{where(node)}: reading the GPU's clock registers is not allowed: {CLOCKS_REASON}")
        named = ([node.id] if isinstance(node, ast.Name) else [node.attr] if isinstance(node, ast.Attribute)
                 else [part for a in node.names for part in a.name.split(".")]
                 if isinstance(node, (ast.Import, ast.ImportFrom)) else [])
        if any(name in GPU_CLOCK_FUNCTIONS for name in named):
            # Triton's own inline assembly reads them (tl.extra.cuda.globaltimer: red-team pass 42)
            _fail(f"{where(node)}: reading the GPU's clock registers is not allowed: {CLOCKS_REASON}")
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value.strip().lstrip("<>=|").lower().startswith(DATETIME_DTYPES)):
            _fail(f"{where(node)}: numpy's date and time dtypes are not allowed "
                  f"(`np.array('now', dtype='M8[s]')` reads the clock): {CLOCKS_REASON}")
        if isinstance(node, ast.Call) and (dotted(node.func, aliases) or "").endswith("inline_asm_elementwise"):
            asm = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "asm"), None)
            if not (isinstance(asm, ast.Constant) and isinstance(asm.value, str)):
                _fail(f"{where(node)}: inline assembly must be a single string literal, so it can be "
                      "reviewed")
        if isinstance(node, ast.Import):
            for a in node.names:
                _reject_name(a.name, language, node)
                _check_import_allowed(a.name, node)
        elif isinstance(node, ast.ImportFrom):
            if any(a.name == "*" for a in node.names):
                _fail(f"{where(node)}: `from {node.module} import *` is not allowed: it binds names "
                      "no rule can read (a kernel's constants, builtins); import what you use")
            if node.level:
                _fail(f"{where(node)}: relative imports are not allowed in a single-file submission")
            for a in node.names:
                _reject_name(f"{node.module}.{a.name}", language, node)
                if forbidden_attribute(a.name):  # under an alias no Name rule would match
                    _fail(f"{where(node)}: importing `{a.name}` is not allowed: "
                          f"{forbidden_attribute(a.name)}")
            _check_import_allowed(node.module or "", node)
        elif isinstance(node, ast.keyword) and node.arg == "pin_memory":
            _fail(f"{where(node.value)}: `pin_memory=` is not allowed: {SHARED_MEMORY}")
        elif isinstance(node, (ast.Attribute, ast.Name)):
            if (isinstance(node, ast.Name) and forbidden_attribute(node.id)  # __builtins__ etc.
                    and node.id not in ATTRIBUTE_ONLY):
                _fail(f"{where(node)}: `{node.id}` is not allowed: {forbidden_attribute(node.id)}")
            if (isinstance(node, ast.Attribute) and forbidden_attribute(node.attr)
                    and not (node.attr == "__class__" and id(node) in named)
                    # `self.buffer` that the file's own methods set, in a class built only on
                    # nn.Module: nothing inherited answers to that name, only what it stored
                    and not (node.attr in OWN_NAMES_ALLOWED and id(node) in plain_own)):
                _fail(f"{where(node)}: `.{node.attr}` is not allowed: {forbidden_attribute(node.attr)}")
            # Whole chains only (`a.b.c`, not also `a.b`): a forbidden prefix still matches, and a
            # few exact names below a forbidden prefix can be allowed.
            if root(node) in aliases and id(node) not in inner:  # local names that shadow modules are fine
                _reject_name(dotted(node, aliases) or "", language, node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and isinstance(
                node.func.func, ast.Name) and node.func.func.id == "type":
            _fail(f"{where(node)}: calling `type(...)(...)` is not allowed: {INTROSPECTION}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
              and "type" not in aliases and id(node) not in compared):
            # `S = type(torch.cuda.current_stream())` is torch.cuda.Stream under a name no rule
            # follows; comparing types (`type(x) is T`) is all a kernel needs.
            _fail(f"{where(node)}: `type(...)` may only be compared with `is` (`type(x) is T`), not "
                  f"bound, passed, called or compared with operators a class can define: {INTROSPECTION}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            reason = FORBIDDEN_BUILTINS.get(node.func.id)
            if reason and node.func.id not in aliases:
                _fail(f"{where(node)}: `{node.func.id}(...)` is not allowed: {reason}")
            if node.func.id in ("getattr", "setattr", "delattr", "hasattr") and node.func.id not in aliases:
                _check_dynamic_attribute(node)
            if literal_getattr(node) and root(node) in aliases:  # getattr(torch, "compile")
                _reject_name(dotted(node, aliases) or "", language, node)
            if node.func.id in ("setattr", "delattr") and node.args and isinstance(node.args[0], ast.Call):
                _fail(f"{where(node)}: `{node.func.id}` on a computed object (`type(x)`, `f()`) is "
                      "not allowed (monkeypatching)")
            if node.func.id in ("setattr", "delattr") and node.args:
                target = dotted(node.args[0], aliases) or ""
                if target.split(".")[0] in PROTECTED_ROOTS:
                    _fail(f"{where(node)}: modifying `{target}` is not allowed (monkeypatching)")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript) and root(t.value) in aliases:
                    _fail(f"{where(node)}: assigning into `{dotted(t.value, aliases)}[...]` is not "
                          "allowed: objects of imported modules are read-only"
                          + (" (for CUDA architectures, pass load_inline "
                             "`extra_cuda_cflags=[\"-arch=sm_90\"]` instead of TORCH_CUDA_ARCH_LIST)"
                             if "environ" in (dotted(t.value, aliases) or "") else ""))
                if isinstance(t, ast.Attribute) and root(t) is None and not _item_of_a_name(t, aliases):
                    _fail(f"{where(node)}: assigning an attribute of a computed object "
                          "(`type(x).attr = ...`, `f().attr = ...`) is not allowed (monkeypatching)")
                if isinstance(t, ast.Attribute) and t.attr.startswith("_") and id(t) not in own:
                    _fail(f"{where(node)}: assigning the private attribute `.{t.attr}` of another "
                          "object is not allowed (monkeypatching)")
                if isinstance(t, ast.Attribute) and t.attr.startswith("__") and t.attr.endswith("__"):
                    _fail(f"{where(node)}: assigning `.{t.attr}` is not allowed: replacing special "
                          "methods changes how the evaluator's own code behaves")
                name = dotted(t, aliases) if isinstance(t, ast.Attribute) else None
                if name and (name.split(".")[0] in PROTECTED_ROOTS or root(t) in aliases):
                    _fail(f"{where(node)}: assigning `{name}` is not allowed (monkeypatching)")


def _item_of_a_name(target: ast.Attribute, aliases: dict[str, str]) -> bool:
    """`nargs["a_desc"].block_shape = [BM, BK]` (the autotune pre-hook of Triton's persistent
    matmul tutorial, red-team pass 72): an item of a plain name's container, which
    `d = nargs["a_desc"]; d.block_shape = ...` reaches and may assign already, is judged as that
    name is. Items of a module's objects (`sys.modules["torch"].relu = f`, the name a module
    alias), or of anything computed (`f()[0].x`, `type(x).__mro__[1].x`), stay refused."""
    node = target.value
    if not isinstance(node, ast.Subscript):
        return False
    while isinstance(node, ast.Subscript):
        node = node.value
    name = root(node)
    return name is not None and name not in aliases and name not in PROTECTED_ROOTS


def _chain(name: str, load: bool = True):
    """(attribute, object) for each step of `a.b.c`, through module and class namespaces and
    instances' own dicts, never a module's __getattr__; a submodule not loaded yet is loaded
    first (`numpy.ma`) when `load`, so what it holds is seen. Stops where the chain cannot be
    followed."""
    parts = name.split(".")
    value = sys.modules.get(parts[0])
    for part in parts[1:]:
        if isinstance(value, (types.ModuleType, type)):
            found = vars(value).get(part)
        else:  # an instance's own attribute (red-team pass 84: `triton.cdiv.signature`)
            found = (instance_dict(value) or {}).get(part)
        if found is None and load and isinstance(value, types.ModuleType):
            found = _submodule(value, part)
            if found is None:
                found = _forwarded(value, part)
        if found is None:
            return
        value = found
        yield part, value


def _reaches_shadowed_module(name: str) -> str | None:
    """Walk `a.b.c` through the modules already loaded: any step onto `sys`, `builtins` & co.,
    or onto any module a submission could not import (`triton.language.extra.pkgutil`,
    `torch.cuda.tunable.mp`, `triton.compiler.compiler.time`), whatever the attribute is called
    there (`enum.bltns`, `collections._sys`)."""
    for i, (part, value) in enumerate(_chain(name), start=1):
        if not isinstance(value, types.ModuleType) or (i == 1 and name.startswith("os.") and part == "path"):
            continue
        if value.__name__ in SHADOWED_MODULES or value.__name__.split(".")[0] not in ALLOWED_IMPORTS:
            return value.__name__
    return None


def _resolve(name: str, load: bool = True):
    """The object `a.b.c` names (see `_chain`); None when it cannot be followed."""
    steps = list(_chain(name, load))
    if len(steps) != name.count("."):
        return None
    return steps[-1][1] if steps else sys.modules.get(name)


def resolved(name: str):
    """The library object `a.b.c` names (modules, classes and instances followed), or None."""
    return _resolve(name)


def named_object(name: str, names) -> str | None:
    """Which of `names` (dotted names of classes or functions) `name` is the same object as,
    under whatever path it is reached (`torch.nn.functional.Tensor` is `torch.Tensor`), or None."""
    obj = _resolve(name)
    if obj is None or isinstance(obj, types.ModuleType):
        return None
    held, named = _objects_named(frozenset(names)).get(id(obj), (None, None))
    return named if held is obj else None


@functools.lru_cache(maxsize=8)
def _objects_named(names: frozenset) -> dict[int, tuple[object, str]]:
    found = {}
    for n in sorted(names):
        obj = _resolve(n, load=False)
        if obj is not None and id(obj) not in found:
            found[id(obj)] = (obj, n)
    return found


def _submodule(module: types.ModuleType, part: str):
    """`module.part` when it is a submodule a submission could import, loading it if needed."""
    name = f"{module.__name__}.{part}"
    if name.split(".")[0] not in ALLOWED_IMPORTS or part.startswith("_"):
        return None
    try:
        if name not in sys.modules and importlib.util.find_spec(name) is None:
            return None
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001 - a module that fails to import holds nothing reachable
        return None


def _forwarded(module: types.ModuleType, part: str):
    """What an allowed package's module hands out for `part` through its own `__getattr__`
    (numpy 2's `numpy.core.*` shims forward every name to `numpy._core`), as a submission's
    attribute read would get it: unseen, `numpy.core.records.fromfile`, which opens and reads
    any file, passed as a name nothing was known of (red-team pass 80's follow-up)."""
    hook = vars(module).get("__getattr__")
    if (hook is None or part.startswith("_")
            or module.__name__.split(".")[0] not in ALLOWED_IMPORTS):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return hook(part)
    except Exception:  # noqa: BLE001 - no such name: the chain stops, as before
        return None


_forbidden_objects: dict[int, tuple[object, str]] = {}


_LOGGING_OBJECTS = (logging.Filterer, logging.Manager, logging.PlaceHolder, logging.LoggerAdapter)


def prime_forbidden_objects() -> None:
    """Fill the table of forbidden objects once: each forbidden name that names a function or
    class (not a module) is resolved with its module imported. Resolving only what was loaded
    missed a forbidden function whose own module was not, though the object was reachable under
    another name (red-team pass 80's review of pass 79's finding: `numpy.rec.fromfile`, from
    `numpy.rec`, unloaded, is `numpy.core.records.fromfile`, and that name passed). The worker
    host calls it before it forks, so no step pays for the imports."""
    if _forbidden_objects:
        return
    for forbidden, reason in FORBIDDEN_NAMES.items():
        obj = _resolve(forbidden, load=False)
        if obj is None and _names_an_attribute(forbidden):
            obj = _resolve(forbidden)  # its module imported (an allowed package's, or nothing)
        if obj is not None and not isinstance(obj, types.ModuleType):
            _forbidden_objects[id(obj)] = (obj, reason)


# Modules not imported to fill the table: importing torch.utils.cpp_extension counts the CUDA
# devices, which poisons the worker host's later forks for CUDA (build_gate.install imports it
# in the evaluation process); its names are refused as they are written.
NOT_PRIMED = ("torch.utils.cpp_extension",)


def _names_an_attribute(name: str) -> bool:
    """Whether `a.b.c` names something in module `a.b` rather than a module of its own (whose
    import, a forbidden package's, is not made here)."""
    if "." not in name or name.split(".")[0] not in ALLOWED_IMPORTS:
        return False
    if any(name == m or name.startswith(m + ".") for m in NOT_PRIMED):
        return False
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError, AttributeError):  # a parent that is not a package
        return True


def _forbidden_object_reason(name: str) -> str | None:
    """A forbidden class or function under another name (`torch.mtia.Stream` is `torch.Stream`,
    `torch.mtia.Event` is `torch.Event`), a subclass of a forbidden class, or a logger (below)."""
    prime_forbidden_objects()
    obj = _resolve(name)
    if obj is None or isinstance(obj, types.ModuleType):
        return None
    if id(obj) in _forbidden_objects and _forbidden_objects[id(obj)][0] is obj:
        return _forbidden_objects[id(obj)][1]
    if isinstance(obj, _LOGGING_OBJECTS) or type(obj).__module__.split(".")[0] == "logging":
        return LOGGERS  # a Logger, its Manager, a Handler, or a library's subclass of one
    if type(obj).__name__ == "PytestTester":  # numpy's `test`s (red-team pass 88)
        return (f"it runs a test suite in this process (pytest's plugins import any module, "
                f"doctests run code from strings) ({INTROSPECTION})")
    if not isinstance(obj, type) and _internal_type(type(obj)):
        return (f"it is a `{type(obj).__module__}.{type(obj).__qualname__}`: the import machinery's "
                f"and introspection's objects read, write and run code no rule reads ({INTROSPECTION})")
    held = held_module(obj)
    if held:
        return (f"it holds {held[1]} as its attribute `{held[0]}`, which code that is handed the "
                f"object reaches where no rule on names looks ({INTROSPECTION})")
    if isinstance(obj, type):
        for other, reason in _forbidden_objects.values():
            if isinstance(other, type) and issubclass(obj, other):
                return reason
    return None


def held_module(obj) -> tuple[str, str] | None:
    """(attribute, what) of a module that an object (not a module) holds among its attributes
    or its class's (bases included), or None. Passed to a function, such an object takes the
    module past every rule on dotted names (a method it holds is judged by its attribute's
    name wherever it is read, `x.storage` say): red-team pass 83 handed
    `tl.semantic.TritonSemantic` (whose `lang` is `triton.language`) to a parameter `S`, walked
    `S.lang.typing.stdlib_re.enum.bltns` to builtins, then `sys.modules`, and popped the
    guard's modes. (What a submission's own objects hold is judged where it is bound.)"""
    if isinstance(obj, types.ModuleType):
        return None
    spaces = [] if isinstance(obj, type) else [instance_dict(obj)]
    for klass in (obj if isinstance(obj, type) else type(obj)).__mro__:
        spaces.append(vars(klass))
    for space in spaces:
        for attribute, value in list((space or {}).items()):
            if isinstance(value, types.ModuleType):
                return attribute, f"the module `{value.__name__}`"
    return None


def _internal_type(cls: type) -> bool:
    module = getattr(cls, "__module__", None)
    return isinstance(module, str) and module.split(".")[0] in INTERNAL_TYPE_MODULES


def check_annotation_text(text: str, aliases: dict[str, str], language: str, node: ast.AST) -> None:
    """A string annotation's names judged as if written as code: `typing.get_type_hints`,
    `functools.singledispatch` or a Signature evaluates it in the module's globals (red-team pass
    84: `def holder(x: "enum.bltns")` evaluated to builtins). A module named there is refused
    too: no type is a module."""
    tree = ast.parse(text, mode="eval")
    inner = {id(n.value) for n in nodes(tree) if isinstance(n, ast.Attribute)}
    for n in nodes(tree):
        if isinstance(n, (ast.Attribute, ast.Name)) and id(n) not in inner and root(n) in aliases:
            name = dotted(n, aliases) or ""
            _reject_name(name, language, node)
            if is_module(name):
                _fail(f"{where(node)}: the string annotation `{text}` names the module `{name}`: "
                      f"evaluated later, it hands that module to code ({INTROSPECTION})")


def _forbidden_part_reason(name: str) -> str | None:
    """A forbidden object that the chain passes through under another name, its method or item
    read (red-team pass 76: `triton.language.extra.modules` is `sys.modules`; refused as a
    whole, `triton.language.extra.modules.get("warnings")` was not, and handed over any loaded
    module to assign). Each shorter chain `a.b`, `a.b.c` is judged by the object it reaches."""
    parts = name.split(".")
    for end in range(2, len(parts)):
        part = ".".join(parts[:end])
        reason = _forbidden_object_reason(part)
        if reason:
            return f"`{part}` is an object the rules refuse under another name ({reason})"
    return None


def _reject_name(name: str, language: str, node: ast.AST) -> None:
    if name in ALLOWED_NAMES:
        return
    if name.startswith("os.environ.") and name not in ENVIRON_READS:
        _fail(f"{where(node)}: `{name}` is not allowed: the environment is read-only (it steers "
              "torch and Triton in this and later evaluations)")
    parts = name.split(".")
    reached = _reaches_shadowed_module(name)
    if reached:
        _fail(f"{where(node)}: `{name}` is not allowed: it is the module `{reached}`, reached "
              f"through another module ({INTROSPECTION})")
    if any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts[1:]):
        _fail(f"{where(node)}: `{name}` is not allowed: private parts of modules are not an API "
              "for kernels")
    if parts[0] == "torch" and any(p.startswith("register_module_") for p in parts):
        _fail(f"{where(node)}: `{name}` is not allowed: global module hooks would run on the "
              "reference model too")
    if any(p in SHADOWED_MODULES for p in parts[1:]) and not name.startswith("os.path."):
        _fail(f"{where(node)}: `{name}` is not allowed: it reaches a module through another "
              f"module's attributes ({INTROSPECTION})")
    if name.startswith("os.path.") and any(p in SHADOWED_MODULES for p in parts[2:]):
        _fail(f"{where(node)}: `{name}` is not allowed: it reaches a module through another "
              f"module's attributes ({INTROSPECTION})")
    if parts[0] in PRIVATE_ROOTS and any(p.startswith("_") and not (p.startswith("__") and p.endswith("__"))
                                         for p in parts[1:]):
        _fail(f"{where(node)}: `{name}` is not allowed: private parts of torch and triton are "
              "the evaluator's machinery, not an API for kernels")
    if parts[0] == "einops" and name not in EINOPS_ALLOWED:
        _fail(f"{where(node)}: `{name}` is not allowed: of einops only "
              f"{', '.join(sorted(EINOPS_ALLOWED - {'einops'}))} are available")
    head = ".".join(name.split(".")[:2])
    if (name.split(".")[0] == "os" and head not in OS_ALLOWED) or (
            name.split(".")[0] == "sys" and head not in SYS_ALLOWED):
        _fail(f"{where(node)}: `{name}` is not allowed: {FILES}")
    canonical = _canonical(name)
    defined = _defined_name(name)
    reason = (_forbidden_reason(name, language) or _forbidden_reason(canonical, language)
              or _forbidden_object_reason(name) or _forbidden_part_reason(name))
    if not reason and defined:
        reason, canonical = _forbidden_reason(defined, language), defined
    if reason:
        also = "" if canonical == name else f" (it is `{canonical}`)"
        _fail(f"{where(node)}: `{name}`{also} is not allowed: {reason}")


def _defined_name(name: str) -> str | None:
    """Where the function or class `a.b.c` names was defined (`module.qualname`): a module may
    re-export what a forbidden one defines (`triton.backends.nvidia.driver.compile_module_from_src`
    is `triton.runtime.build`'s, which builds and loads native code). Triton's top-level names
    (`triton.jit`, `triton.autotune`: defined in `triton.runtime`) are its public API."""
    parts = name.split(".")
    if parts[0] == "triton" and len(parts) == 2:
        return None
    obj = _resolve(name)
    if isinstance(obj, types.ModuleType) or not callable(obj):
        return None
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not (isinstance(module, str) and isinstance(qualname, str)) or module.startswith(NATIVE_TORCH):
        return None
    if module == "builtins" and isinstance(obj, type):  # `typing.Text` is str
        return None
    return f"{module}.{qualname}"


def _canonical(name: str) -> str:
    """`a.b.c` named from the last module it passes through, by that module's own name: a module
    one of torch's modules imported (`torch.nn.functional.torch.library.impl`) is the module it
    is (`torch.library.impl`), whatever the path to it."""
    parts = name.split(".")
    canonical = name
    for i, (_, value) in enumerate(_chain(name), start=1):
        if isinstance(value, types.ModuleType):
            canonical = ".".join([value.__name__] + parts[i + 1:])
    return canonical


def certainly_int(expr: ast.AST, rebound: set[str]) -> bool:
    """An int literal, the builtins `int(...)` or `len(...)` (names the file does not rebind), or
    arithmetic of those: a size, never an array (`int(array)` is a Python int or an error)."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return expr.func.id in ("int", "len") and expr.func.id not in rebound
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return certainly_int(expr.left, rebound) and certainly_int(expr.right, rebound)
    return False


def type_use(node, parents: dict, aliases: dict[str, str]) -> bool:
    """`isinstance(x, torch.Tensor)`, `(torch.Tensor, int)` there, `t is torch.Tensor`,
    `torch.Tensor.dim`, `T = torch.Tensor`, and the type inside typing constructs: generics
    (`Tuple[torch.Tensor, ...]`, `Callable[[torch.Tensor], None]`), unions (`torch.Tensor | None`,
    also as an alias or in a type test), `typing.cast(torch.Tensor, y)`, `TypeVar(bound=...)`.
    Not a tuple or list that code indexes (`(torch.FloatTensor,)[0](array)`)."""
    parent = parents.get(id(node))
    if type_test(node, parent, parents.get(id(parent))):
        return True
    if isinstance(parent, ast.Attribute):
        return parent.attr != "new"
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return True  # `T = torch.Tensor`: an alias, whose uses are judged as the original's
    inner, outer, unions_only = node, parent, True
    while isinstance(outer, (ast.Tuple, ast.List)) or (isinstance(outer, ast.BinOp) and isinstance(outer.op, ast.BitOr)):
        unions_only = unions_only and isinstance(outer, ast.BinOp)
        inner, outer = outer, parents.get(id(outer))
    if isinstance(outer, ast.Subscript) and outer.slice is inner:
        return ((dotted(outer.value, aliases) or "").startswith("typing.")
                or (isinstance(outer.value, ast.Name) and outer.value.id in ("tuple", "list", "dict", "type")))
    if isinstance(outer, ast.Call):
        func = dotted(outer.func, aliases) or ""
        if func == "typing.cast":
            return bool(outer.args) and outer.args[0] is inner
        return (isinstance(outer.func, ast.Name) and outer.func.id in ("isinstance", "issubclass")
                and len(outer.args) == 2 and outer.args[1] is inner)
    if isinstance(outer, ast.keyword) and outer.arg == "bound":
        call = parents.get(id(outer))
        return isinstance(call, ast.Call) and dotted(call.func, aliases) == "typing.TypeVar"
    # `X = torch.Tensor | None`: a union cannot be called, nor indexed (its members come back
    # only through `typing.get_args` or `__args__`, which are refused)
    return (inner is not node and unions_only and isinstance(outer, ast.Assign)
            and len(outer.targets) == 1 and isinstance(outer.targets[0], ast.Name))


def _check_dynamic_attribute(node: ast.Call) -> None:
    """getattr & co. may name only public attributes, as literals: computed or private names
    are how static rules get routed around (getattr(torch, '_' + 'C')). On `self` too, an
    f-string with a computed suffix stays refused: `self` is only a name, and `f"g{x}"` reaches `gi_frame`
    on a generator (use nn.ModuleList for numbered layers)."""
    name = node.args[1] if len(node.args) > 1 else None
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str) and not name.value.startswith("_")):
        _fail(f"{where(node)}: `{node.func.id}` needs a literal, public attribute name "
              "(no computed or underscore names)")
    if (forbidden_attribute(name.value) or name.value in FORBIDDEN_BUILTINS or name.value in RUNNERS
            or name.value in SHADOWED_MODULES  # getattr(a_module, "sys") is `.sys`
            or name.value in FORMAT_METHODS):
        _fail(f"{where(node)}: `{node.func.id}(..., {name.value!r})` is not allowed: {INTROSPECTION}")


def annotation_nodes(tree: ast.Module):
    for node in nodes(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


_TYPE_TEXT_NODES = (ast.Expression, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List,
                    ast.Load, ast.BinOp, ast.BitOr, ast.Constant)


def plain_type_text(text: str) -> bool:
    """`"torch.Tensor"`, `"Optional[Tuple[int, int]]"`, `"int | None"`: names, dots,
    subscripts and `|` only, public names only; nothing that runs when evaluated."""
    if len(text) > 500:
        return False
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, UnicodeError, RecursionError, MemoryError):
        return False
    return all(isinstance(n, _TYPE_TEXT_NODES) for n in nodes(tree)) and not any(
        (isinstance(n, ast.Name) and n.id.startswith("_")) or (isinstance(n, ast.Attribute) and n.attr.startswith("_"))
        or (isinstance(n, ast.Constant) and not (n.value is None or isinstance(n.value, (int, str))))
        for n in nodes(tree))
