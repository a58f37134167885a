"""Detecting a submission that patches torch or the evaluator's own tools.

The reference output is computed after the candidate's code has run in this process, so a patched
`torch.softmax` or `torch.cuda.Event` would corrupt the reference or the timer. We snapshot the
identity of every public attribute of the namespaces the evaluator relies on before the candidate
is imported, and compare after each stage that ran candidate code.
"""

from __future__ import annotations

import ast
import builtins
import ctypes
import dataclasses
import enum
import gc
import itertools
import keyword
import operator
import os
import re
import struct
import sys
import sysconfig
import threading
import types
import warnings

import torch
import torch.nn.functional as F

from .module_globals import _MASK as _DICT_TAG_MASK, _TAG_OFFSET as _DICT_TAG_OFFSET
from .refused_names import ALLOWED_IMPORTS
from .word_gather import word_reader

_WATCHED = {
    "torch": torch,
    "torch.Tensor": torch.Tensor,
    "torch.nn.functional": F,
    "torch.nn.Module": torch.nn.Module,
    "torch.cuda": torch.cuda,
    "torch.cuda.Event": torch.cuda.Event,
    "torch.testing": torch.testing,
    "torch.backends.cuda.matmul": torch.backends.cuda.matmul,
    "torch.backends.cudnn": torch.backends.cudnn,
}


# Private state (torch.cuda._initialized and the like) changes legitimately; these do not.
_WATCHED_DUNDERS = {"__call__", "__init__", "__torch_function__", "__torch_dispatch__", "__eq__",
                    "__add__", "__mul__", "__getitem__", "__setitem__", "__array__"}


# Classes whose special methods the evaluator's own arithmetic and comparisons go through.
_ALL_DUNDERS = {"torch.Tensor", "torch._C.TensorBase", "torch.nn.Module"}


def _watched(extra: dict | None) -> list[tuple[str, object, str]]:
    """(name, namespace, rule) for every namespace the snapshot reads; `_recorded` says which of
    a namespace's bindings a rule records."""
    out = [(name, ns, "all" if name in _ALL_DUNDERS else "api") for name, ns in
           dict(_WATCHED, **{"torch._C.TensorBase": torch._C.TensorBase}, **(extra or {})).items()]
    for name, module in list(sys.modules.items()):
        if module is None:
            continue
        if name.startswith(__package__ + "."):  # the evaluator's own globals, private too
            out.append((name, module, "every"))
        elif name.startswith("torch.nn.modules."):  # what torch.nn's modules call (`F`, helpers)
            out.append((name, module, "module"))
    out.append(("builtins", builtins, "callables"))
    # The classes of the reference's parameters: a name added to nn.Parameter shadows the Tensor
    # method the evaluator calls on them outside the guard (red-team pass 73: `detach`, which
    # `state_dict()` calls while the pristine parameters are put back, zeroed the reference's
    # weights, and a kernel writing zeros scored). Every binding, private ones too.
    out += [(f"torch.nn.parameter.{name}", cls, "every") for name, cls in vars(torch.nn.parameter).items()
            if isinstance(cls, type) and cls.__module__ == "torch.nn.parameter"]
    # Every method of nn.Module and of torch.nn's modules, private ones too (_call_impl,
    # _conv_forward), and of every class they inherit from (BatchNorm2d's forward is
    # _BatchNorm's): the reference runs through them. Likewise the task's own classes.
    roots = [cls for cls in vars(torch.nn).values()
             if isinstance(cls, type) and issubclass(cls, torch.nn.Module)]
    roots += [cls for cls in (extra or {}).values() if isinstance(cls, type)]
    seen = set()
    for root in roots:
        for cls in root.__mro__:
            if id(cls) not in seen and cls.__module__ != "builtins":  # built-in types are immutable
                seen.add(id(cls))
                out.append((f"{cls.__module__}.{cls.__qualname__}", cls, "class"))
    return out


def _recorded(rule: str, attr: str, value) -> bool:
    if rule == "every":  # but the registry Python keeps of warnings attributed to the module
        return attr != "__warningregistry__"
    if rule == "all":  # properties and data too: `shape` & co.
        return not attr.startswith("_") or (attr.startswith("__") and attr.endswith("__"))
    if rule == "class":
        return callable(value) or isinstance(value, (staticmethod, classmethod, property))
    if rule == "module":
        return callable(value) or isinstance(value, types.ModuleType)
    if rule == "callables":
        return callable(value)
    # "api": functions, classes and modules; data attributes (torch.cuda.default_generators,
    # flags) change legitimately when CUDA initialises, as does private state.
    return ((callable(value) or isinstance(value, types.ModuleType))
            and (not attr.startswith("_") or attr in _WATCHED_DUNDERS))


def snapshot(extra: dict | None = None) -> dict[str, int]:
    """Map 'namespace.attr' -> id(value) for every watched namespace (plus `extra` objects), the
    special methods of tensors and modules, every method of torch.nn's module classes and their
    bases, and every function of the evaluator's own modules."""
    snap = {}
    for ns_name, ns, rule in _watched(extra):
        for attr, value in vars(ns).items():
            if _recorded(rule, attr, value):
                snap[f"{ns_name}.{attr}"] = id(value)
    # Global module hooks run on every module, the reference included: there must be none.
    for attr, value in vars(torch.nn.modules.module).items():
        if attr.startswith("_global_") and isinstance(value, dict):
            snap[f"torch.nn.modules.module.{attr}"] = len(value)
    # The evaluator's functions changed in place keep their identity: their code and defaults
    for fn in _evaluator_functions():
        for part in ("__code__", "__defaults__", "__kwdefaults__"):
            snap[f"{fn.__module__}.{fn.__qualname__}.{part}"] = id(getattr(fn, part))
    # State that changes what the reference computes or how inputs are made
    for name, value in zip(_STATE_NAMES, _state()):
        snap[name] = hash(value)
    return snap


_CODE = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")


def _evaluator_functions() -> list:
    """The Python functions bound in the evaluator's own modules (`provenance.foreign_kernels`):
    code patched in place from native code (an extension's import) keeps the function's
    identity."""
    return [value for name, module in list(sys.modules.items())
            if module is not None and name.startswith(__package__ + ".")
            for value in list(vars(module).values())
            if type(value) is types.FunctionType and value.__module__ == name]


def _namespace_dicts(extra: dict | None) -> list:
    """Every namespace dict the snapshot reads (and torch.nn's, where its classes are named)."""
    return [vars(ns) for _, ns, _ in _watched(extra)] + [vars(torch.nn)]


class Bindings:
    """A cheap stand-in for comparing snapshots (a step checks a dozen times, and an exact
    comparison costs milliseconds on a busy host): every namespace dict the snapshot reads, its
    names and values in order, and the evaluator's functions' code and defaults, held as one list
    and compared by the objects' addresses alone (`_addresses`: one memcmp; no object's own
    `__eq__` runs), plus the same state. Holding the objects also pins them, so a replaced
    object's address cannot be reused by its replacement. Unchanged bindings mean an unchanged
    snapshot; a change (a lazy import, some private flag) sends the caller to the exact
    comparison, which tells tampering apart."""

    def __init__(self, extra: dict | None = None):
        self.dicts = _namespace_dicts(extra)  # live: module dicts and class mappingproxies
        self.functions = _evaluator_functions()
        self.lengths = list(map(len, self.dicts))
        # the dicts' version tags (module_globals.py): none new, nothing in them was set or
        # deleted, and only the functions' part needs comparing (None: compare everything)
        self.tags = _dict_tags(self.dicts)
        self.code = self._code()
        self.code_addresses = _addresses(self.code)
        self.held = self._bound(self.code)
        self.addresses = _addresses(self.held)
        # the same three pointers read off the function objects in one gather (None: by _code)
        self.code_reader = (word_reader([id(f) + k for f in self.functions for k in _FUNCTION_FIELDS])
                            if _FUNCTION_FIELDS else None)
        self.code_words = self.code_reader() if self.code_reader is not None else None
        starts = list(itertools.accumulate((2 * n * _POINTER for n in self.lengths), initial=0))
        self.spans = list(zip(starts, starts[1:]))  # each dict's part of `addresses`
        self.state = _state()

    def _bound(self, code: list | None = None) -> list:
        held = []
        for d in self.dicts:
            held += d
            held += d.values()
        held += self._code() if code is None else code
        return held

    def _code(self) -> list:
        return list(itertools.chain.from_iterable(map(_CODE, self.functions)))

    def unchanged(self) -> bool:
        if list(map(len, self.dicts)) != self.lengths:  # a name moved from one dict to another
            return False
        if self.tags is None:
            if _addresses(self._bound()) != self.addresses:
                return False
        else:  # a dict with a new tag (one of the evaluator's own modules' is, every call):
            for i in self.tags.changed():  # what it holds now, against what it held
                d = self.dicts[i]
                items = list(d)
                items += d.values()
                start, end = self.spans[i]
                if _addresses(items) != self.addresses[start:end]:
                    return False
            if self.code_reader is not None:
                if self.code_reader() != self.code_words:
                    return False
            elif _addresses(self._code()) != self.code_addresses:
                return False
        return _state() == self.state  # after the identities: torch's getters are among them


def _function_field_offsets() -> tuple[int, ...] | None:
    """Where a function object keeps its code, defaults and keyword defaults (PyFunctionObject's
    common fields after the object's header: globals, builtins, name, qualname, then these;
    CPython 3.11, 3.12), checked here on a probe; None where they are not there."""
    def probe(a, b=1, *, c=2):
        return a, b, c

    offsets = tuple(_POINTER * k for k in (6, 7, 8))
    want = (id(probe.__code__), id(probe.__defaults__), id(probe.__kwdefaults__))
    try:
        found = tuple(_POINTER_AT(id(probe) + k).value for k in offsets)
    except (OSError, ValueError):
        return None
    return offsets if found == want else None


class _DictTags:
    """The version tags of the dicts under the namespaces (a class's mappingproxy: its type's
    dict), read in one gather; a dict's tag is new once anything in it was set or deleted."""

    def __init__(self, read):
        self.read = read
        self.tags = read()

    def changed(self) -> list[int]:
        now = self.read()
        return [] if now == self.tags else [i for i, (a, b) in enumerate(zip(now, self.tags)) if a != b]


def _dict_tags(namespaces: list) -> _DictTags | None:
    """Where every namespace is a dict or a mappingproxy of one and the tags can be read."""
    if _DICT_TAG_OFFSET is None:
        return None
    dicts = []
    for ns in namespaces:
        if type(ns) is dict:
            dicts.append(ns)
            continue
        inner = gc.get_referents(ns) if type(ns) is types.MappingProxyType else []
        if len(inner) != 1 or type(inner[0]) is not dict:
            return None
        dicts.append(inner[0])
    read = word_reader([id(d) + _DICT_TAG_OFFSET for d in dicts], ctypes.c_uint64, _DICT_TAG_MASK)
    return None if read is None else _DictTags(read)


def _addresses_by_reading(items: list) -> bytes:
    """The items' addresses (their ids) as bytes, read from the list's own pointer array in one
    copy: an identity test per pair cost ~0.7 ms a check on a warm cache, a dozen checks a step.
    (Reading the objects at all is most of what remains: the candidate's run evicts them.)"""
    if not items:
        return b""
    array = _POINTER_AT(id(items) + _LIST_ITEMS_OFFSET).value
    return (_BYTE * (len(items) * _POINTER)).from_address(array).raw


def _addresses_by_id(items: list) -> bytes:
    return struct.pack(f"{len(items)}P", *map(id, items))


_POINTER = struct.calcsize("P")
# Bound once, here: C methods of ctypes' own types, which a later rebinding of `ctypes.*` or of a
# class attribute does not reach.
_POINTER_AT = ctypes.c_void_p.from_address
_BYTE = ctypes.c_char
_LIST_ITEMS_OFFSET = 3 * _POINTER  # PyListObject: refcount, type, size, then the items' array


def _reading_works() -> bool:
    """The list layout `_addresses_by_reading` assumes, checked on this interpreter."""
    probe = [object() for _ in range(7)]
    try:
        return _addresses_by_reading(probe) == _addresses_by_id(probe)
    except (OSError, ValueError, TypeError):
        return False


_addresses = _addresses_by_reading if _reading_works() else _addresses_by_id
_FUNCTION_FIELDS = _function_field_offsets()


# Library classes the evaluator's own code goes through once the submission is imported, beyond
# those `_watched` reads (red-team pass 74, by tracing an evaluation: tests/test_worker_isolation):
# every `@contextlib.contextmanager` (the evaluator's `_defence`, the timed calls' guard, secret
# allocations) is a `_GeneratorContextManager`, an `abc.ABC`; `torch.no_grad` & co. around the
# reference's outputs and the spoiled outputs; `os.environ` (a `collections.abc.MutableMapping`)
# read by every check; `secrets`' SystemRandom; the storages, threads, warnings, loggers and
# decoders the checks read. A name planted on one (a property on `abc.ABC` named `gen` runs at
# every `with` of a context manager made by a generator) runs the submission's code outside the
# guard, between its call and the evaluator's next look.
LIBRARY_CLASS_MODULES = ("contextlib", "abc", "_collections_abc", "torch.autograd.grad_mode",
                         "torch.utils._contextlib", "random", "warnings", "os", "threading",
                         "torch.storage", "torch.utils._device", "torch.backends",
                         "torch.backends.cuda", "torch.backends.cudnn", "torch.backends.mkldnn",
                         "torch._utils", "traceback", "logging", "codecs",
                         "encodings.utf_8", "torch.overrides", "torch.utils._python_dispatch",
                         "ctypes", "numpy.random.bit_generator")
# Classes torch changes as it runs: RemovableHandle counts its handles in a class attribute (the
# unit trials' hooks on the reference). No version of theirs holds; the static rules refuse their
# names under any spelling (torch.utils.hooks).
CHANGING_CLASSES = frozenset({"torch.utils.hooks.RemovableHandle"})
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in and static types refuse new names


def _mutable_classes(roots) -> list[type]:
    """The classes in `roots` and in their bases that accept new names, each once."""
    out, seen = [], set()
    for root in roots:
        for cls in root.__mro__:
            if id(cls) not in seen and not cls.__flags__ & _IMMUTABLE_TYPE:
                seen.add(id(cls))
                out.append(cls)
    return out


def watched_classes(extra: dict | None = None) -> list[type]:
    """Every class the snapshot reads (torch.Tensor, nn.Module, torch.nn's modules and their
    bases, nn.Parameter's, the task's), and `LIBRARY_CLASS_MODULES`' classes and their bases."""
    roots = [ns for _, ns, _ in _watched(extra) if isinstance(ns, type)]
    for name in LIBRARY_CLASS_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        spaces = [vars(module)]
        inner = vars(module).get("m")  # torch.backends' modules stand in for theirs (PropModule)
        if isinstance(inner, types.ModuleType) and type(module) is not types.ModuleType:
            spaces.append(vars(inner))
            roots.append(type(module))
        roots += [v for space in spaces for v in list(space.values()) if isinstance(v, type)]
    return [cls for cls in _mutable_classes(roots)
            if f"{cls.__module__}.{cls.__qualname__}" not in CHANGING_CLASSES]


class ClassVersions:
    """Whether a watched class was changed at all since the snapshot, changed back included.
    The bindings and the snapshot compare what a namespace holds when they look: a name planted
    on a class by a forward, which the evaluator ran in the same forward's aftermath (reading
    the output, entering a `with`) and which removed itself before the next check, left both
    unchanged (red-team pass 74: a zeros ReLU scored, its output computed by torch.relu in a
    property's getter). CPython gives a class a new version tag whenever its namespace (or a
    base's) changes, and never the same one again: every watched class's tag, read now, must
    still be its tag at every later check. Where this interpreter's type layout is not the
    one `_version_tag` reads (checked at import), there are no tags to compare."""

    def __init__(self, extra: dict | None = None):
        self.classes = watched_classes(extra) if _TAG_OFFSET is not None else []
        for cls in self.classes:  # a lookup by a short, interned name assigns a tag
            getattr(cls, "kernel_env_version_probe", None)
        tagged = [(cls, _version_tag(cls)) for cls in self.classes]
        self.classes = [cls for cls, tag in tagged if tag]  # (no tag to be had: none to compare)
        self.addresses = [id(cls) + (_TAG_OFFSET or 0) for cls in self.classes]
        self._gathered = word_reader(self.addresses, ctypes.c_uint)  # (None: one by one)
        self.tags = self._read()

    def _read(self) -> list[int]:
        if self._gathered is not None:
            return self._gathered()
        return list(map(_VALUE, map(_UINT_AT, self.addresses)))

    def changed(self) -> list[str]:
        """The changed classes, each named where the change was made: a base's change gives its
        subclasses new tags too, and they are left out."""
        now = self._read()
        if now == self.tags:
            return []
        changed = {id(cls) for cls, was, tag in zip(self.classes, self.tags, now) if tag != was}
        return [f"{cls.__module__}.{cls.__qualname__}" for cls in self.classes if id(cls) in changed
                and not any(id(base) in changed for base in cls.__mro__[1:])]


def _find_tag_offset() -> int | None:
    """Where a type object keeps `tp_version_tag`: an unsigned int 27 words past `tp_flags`, which
    lies 21 and 22 words before `tp_bases` and `tp_mro` (CPython 3.11 and 3.12), found here by
    those values and checked: a class's tag must change when a name is set on it, and a lookup
    must give it a new one. None where any of that fails."""
    probe = type("Probe", (), {})
    words = [ctypes.c_ssize_t.from_address(id(probe) + i * _POINTER).value for i in range(64)]
    found = [i for i in range(len(words) - 28) if words[i] == probe.__flags__
             and words[i + 21] == id(probe.__bases__) and words[i + 22] == id(probe.__mro__)]
    if len(found) != 1:
        return None
    offset = (found[0] + 27) * _POINTER
    tag = lambda: ctypes.c_uint.from_address(id(probe) + offset).value  # noqa: E731
    getattr(probe, "kernel_env_version_probe", None)
    first = tag()
    probe.x = 1
    changed = tag()
    getattr(probe, "kernel_env_version_probe", None)
    again = tag()
    return offset if first and changed != first and again not in (0, first) else None


def _version_tag(cls: type) -> int:
    return _UINT_AT(id(cls) + _TAG_OFFSET).value


_UINT_AT = ctypes.c_uint.from_address
_VALUE = operator.attrgetter("value")


_STATE_NAMES = (
    "global module hooks", "torch.get_default_dtype()", "torch.get_default_device()",
    "torch.are_deterministic_algorithms_enabled()", "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cudnn.allow_tf32", "torch.get_float32_matmul_precision()",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
    "torch.backends.cudnn.enabled", "torch.backends.cudnn.benchmark",
    "torch.backends.cudnn.deterministic", "autocast (cuda)", "autocast (cpu)",
    "torch function modes", "torch dispatch modes", "torch.library registrations",
    "autocast dtypes", "scaled-dot-product backends", "preferred BLAS library",
    "torch.backends.mkldnn.enabled", "torch.backends.mha fast path", "torch.get_num_threads()",
    "gc.isenabled()", "os.environ (torch, Triton, CUDA and build settings)")


def _state() -> tuple:
    """What changes how the reference computes without rebinding a name: a mode left entered
    (autocast, a TorchFunctionMode), a flag, a kernel registered with the dispatcher."""
    hooks = tuple(len(v) for k, v in vars(torch.nn.modules.module).items()
                  if k.startswith("_global_") and isinstance(v, dict))
    cuda, cudnn = torch.backends.cuda, torch.backends.cudnn
    matmul = cuda.matmul
    return (hooks, torch.get_default_dtype(), str(torch.get_default_device()),
            torch.are_deterministic_algorithms_enabled(), matmul.allow_tf32, cudnn.allow_tf32,
            torch.get_float32_matmul_precision(), matmul.allow_fp16_reduced_precision_reduction,
            matmul.allow_bf16_reduced_precision_reduction, cudnn.enabled, cudnn.benchmark,
            cudnn.deterministic, torch.is_autocast_enabled("cuda"), torch.is_autocast_enabled("cpu"),
            torch._C._len_torch_function_stack(), torch._C._len_torch_dispatch_stack(),
            # a kernel registered for an aten op from Python (torch.library) rebinds no name
            (len(torch.library._impls), len(torch.library._defs)),
            (torch.get_autocast_dtype("cuda"), torch.get_autocast_dtype("cpu")),
            (cuda.flash_sdp_enabled(), cuda.mem_efficient_sdp_enabled(), cuda.math_sdp_enabled(),
             cuda.cudnn_sdp_enabled()), str(cuda.preferred_blas_library()),
            torch.backends.mkldnn.enabled, torch.backends.mha.get_fastpath_enabled(),
            torch.get_num_threads(), gc.isenabled(), _steering_environment())


# Environment variables torch, Triton, the CUDA libraries and builds read lazily (a Triton option,
# a cuBLAS workspace, TF32 override, the compiler and flags nvcc takes, the loader's paths): a write
# reaches the reference, the evaluator's own kernels and every build. Writes are refused where they
# are made (the static rules, the audit hook's os.putenv); this sees any that got through.
# CUDA_MODULE_LOADING is torch's own, set when CUDA comes up.
STEERING_PREFIXES = ("TRITON", "TORCH", "PYTORCH", "CUDA", "CUBLAS", "CUDNN", "NVIDIA", "OMP_",
                     "MKL", "NVCC", "LD_", "PATH", "HOME", "CC", "CXX", "PYTHON", "TMPDIR")
LIBRARY_SET = frozenset({"CUDA_MODULE_LOADING"})


# os.environ as the worker made it, before any submission ran: its class, the descriptor that
# reads its instance attributes, and those attributes (the mapping `_data`, the four codecs).
_ENVIRON = os.environ
_ENVIRON_TYPE = type(_ENVIRON)
_ENVIRON_DICT = _ENVIRON_TYPE.__dict__["__dict__"]  # a getset descriptor: C code, no lookup
_ENVIRON_ATTRS = dict(_ENVIRON_DICT.__get__(_ENVIRON, _ENVIRON_TYPE))
_ENVIRON_DATA = _ENVIRON_ATTRS["_data"]
_RAW = type(next(iter(_ENVIRON_DATA), b""))  # bytes on POSIX (str on Windows)
_RAW_PREFIXES = tuple(p.encode() if _RAW is bytes else p for p in STEERING_PREFIXES)
_RAW_LIBRARY_SET = frozenset(k.encode() if _RAW is bytes else k for k in LIBRARY_SET)
ENVIRON_CHANGED = ("os.environ's own attributes or class were changed",)


def _steering_environment() -> tuple:
    """The steering variables, read without running anything a submission could have replaced:
    os.environ's methods decode every value through its instance attributes (`decodevalue`),
    which code holding os.environ under another name can set (`plant(os.environ)`, red-team
    pass 81: a hook there ran after every correctness call, outside every guard, computed the
    outputs with torch and opened a numpy view for the timed calls). Its raw mapping is read
    with dict's own C methods instead, after its class and attributes are found as they were
    (keys of exactly `str`, so no submission's `__eq__` runs in the lookups)."""
    env = _ENVIRON
    if type(env) is not _ENVIRON_TYPE:
        return ENVIRON_CHANGED
    attrs = _ENVIRON_DICT.__get__(env, _ENVIRON_TYPE)
    if (type(attrs) is not dict or len(attrs) != len(_ENVIRON_ATTRS)
            or any(type(k) is not str for k in attrs)
            or any(dict.get(attrs, k) is not v for k, v in _ENVIRON_ATTRS.items())):
        return ENVIRON_CHANGED
    items = list(dict.items(_ENVIRON_DATA))
    if any(type(k) is not _RAW or type(v) is not _RAW for k, v in items):
        return ENVIRON_CHANGED
    return tuple(sorted((k, v) for k, v in items
                        if k.startswith(_RAW_PREFIXES) and k not in _RAW_LIBRARY_SET))


def carried_state(inputs: list, outputs: list) -> list[str]:
    """Inputs and output tensors of a call that carry Python state or autograd hooks: an object
    kept there runs code when the evaluator releases the tensor — a generator's `finally`, by
    reference counting, outside the dispatch guard and before the next call's start event. Their
    views' bases and their storages count too."""
    found = []
    for what, items in (("input", inputs), ("output", outputs)):
        for i, x in enumerate(items):
            if torch.is_tensor(x) and _carries(x):
                found.append(f"{what} {i}")
    return found


# What `nn.Buffer` marks its tensor with (plain flags, kept on the cpu evaluator where `.to()`
# returns the same tensor): not state a submission attached.
_BUFFER_MARKS = frozenset({"_is_buffer", "persistent"})


def _own_state(t: torch.Tensor) -> bool:
    attrs = vars(t)
    return bool(attrs) and not (attrs.keys() <= _BUFFER_MARKS
                                and all(type(v) is bool for v in attrs.values()))


def _carries(x: torch.Tensor) -> bool:
    for t in (x, x._base) if x._base is not None else (x,):
        # .grad last: on a non-leaf it warns (an error under the submission's warning filters)
        if (_own_state(t) or t.requires_grad or t.grad_fn is not None or t.grad is not None
                or t._backward_hooks or getattr(t, "_post_accumulate_grad_hooks", None)):
            return True
        storage = t.untyped_storage()
        if getattr(storage, "__dict__", None):
            return True
    return False


def stop_cyclic_collection() -> None:
    """No cyclic garbage collection from here to the end of the process (an evaluation process
    ends with os._exit, which runs no finalizers). A collection runs finalizers (a generator's
    `finally`) of whatever garbage exists at an arbitrary allocation: submission code at a moment
    of the collector's choosing, e.g. between a timed call's end event and the timer's next
    mark, or while a pristine input copy exists. Garbage in reference cycles is then freed only
    when the process exits; `changed` reports a re-enabled collector."""
    gc.disable()


_started: list[str] = []  # threads started with foreign code since the recorder was installed


def thread_ids() -> set[int]:
    return {t.ident for t in threading.enumerate()}


def _origin(t: threading.Thread) -> str:
    target = getattr(t, "_target", None) or t.run
    code = getattr(target, "__code__", None) or getattr(getattr(target, "__func__", None), "__code__", None)
    return code.co_filename if code else ""


def _foreign(origin: str) -> bool:
    return not any(f"{os.sep}{pkg}{os.sep}" in origin for pkg in ("torch", "triton"))


def record_thread_starts() -> None:
    """Wrap Thread.start (in this evaluation process only) so a thread that starts and finishes
    between two checks is still seen."""
    original = threading.Thread.start
    if getattr(original, "_kernel_env_hook", False):
        return

    def start(self, *args, **kwargs):
        if _foreign(_origin(self)):
            _started.append(f"{self.name} ({_origin(self) or 'native'})")
        return original(self, *args, **kwargs)

    start._kernel_env_hook = True
    threading.Thread.start = start


class GeneratedCodeRefused(TypeError):
    """A dataclass whose generated methods would run text that is not a field name."""


def check_dataclass_field_names() -> None:
    """Dataclasses paste each field's name into the source of the methods they generate and
    exec it (`(self.NAME,)==(other.NAME,)` in `__eq__`): a name that is not an identifier is
    code. Red-team pass 68: a key `"inp,(<expression>),self.inp"` in a class body's
    `__annotations__`, or a base dataclass's Field renamed through `dataclasses.fields(obj)`,
    ran an expression no rule had read (it switched torch's modes off around torch.relu). Every
    dataclass made in this process (once per evaluation process, before the submission is
    imported) must name its fields with plain identifiers, before and after it is processed."""
    original = dataclasses._process_class
    if getattr(original, "_kernel_env_hook", False):
        return

    def process_class(cls, *args, **kwargs):
        _plain_field_names(cls, own=True)
        made = original(cls, *args, **kwargs)
        _plain_field_names(made, own=False)
        return made

    process_class._kernel_env_hook = True
    dataclasses._process_class = process_class


def _plain_field_names(cls: type, own: bool) -> None:
    names = []
    annotations = cls.__dict__.get("__annotations__")
    if own and isinstance(annotations, dict):
        names += list(dict.keys(annotations))
    for klass in cls.__mro__[1:] if own else (cls,):
        fields = getattr(klass, "__dataclass_fields__", None)
        if isinstance(fields, dict):
            names += [*dict.keys(fields), *(getattr(f, "name", None) for f in dict.values(fields))]
    bad = [n for n in names if type(n) is not str or not n.isidentifier() or keyword.iskeyword(n)
           or (_special(n) and n not in _LIBRARY_FIELD_NAMES)]  # one numpy or Python may read
    if bad:
        raise GeneratedCodeRefused(
            f"the dataclass `{cls.__qualname__}` has a field named {bad[0]!r}, which is not a plain "
            "Python identifier: dataclasses paste field names into the source of the methods they "
            "generate and make them class attributes, so such a name is code (or a special "
            "attribute) no rule has read; name fields in the class body "
            "(`x: int = 0`) and leave them as dataclasses made them")


# Special field names of the libraries' own dataclasses, made after the hook (Triton's
# code generator, imported at a first compile: BoundJITMethod's `__self__` and `__func__`);
# no protocol reads them off an instance.
_LIBRARY_FIELD_NAMES = frozenset({"__self__", "__func__"})


class SpecialNameRefused(AttributeError):
    """A special (`__x__`) name set through a library that sets attributes by key."""


def refuse_special_names_by_key() -> None:
    """Libraries that set attributes by names given as data plant special attributes no rule
    reads: `nn.ParameterDict()[key] = value` runs `setattr(self, key, value)`, and enum's
    functional API (`enum.Enum("E", {key: value})`) makes each name a class attribute. Red-team
    pass 90: a computed key `"__array_interface__"` whose dict named any address made numpy
    view raw memory (the input tensors' data, found from `id(x)`) and compute the output where
    no guard runs. Once per evaluation process, before the submission is imported: a module
    refuses special names set on it (but `__class__` from torch's parametrize, which swaps a
    module's class for its own) and its own dicts replaced (`self._buffers = {key: d}`), never
    serves a special name from its parameters, buffers or submodules (pass 93: a dict that is
    also a Module, added by `add_module` under such a key), and enum's functional API refuses
    special member names."""
    module_setattr = torch.nn.Module.__setattr__
    if not getattr(module_setattr, "_kernel_env_hook", False):
        internals = frozenset(vars(torch.nn.Module())) - {"training", "_is_full_backward_hook"}

        def setattr_checked(self, name, value):
            if _special(name) and not (name == "__class__" and _PARAMETRIZE
                                       in sys._getframe(1).f_code.co_filename):
                raise SpecialNameRefused(
                    f"setting the special attribute {name!r} on a module is refused: libraries "
                    "that set attributes by key (nn.ParameterDict, nn.ModuleDict) would plant "
                    "names no rule reads; use plain identifiers as keys")
            if name in internals:
                raise SpecialNameRefused(
                    f"replacing nn.Module's own {name!r} is refused: torch keeps a module's "
                    "parameters, buffers, submodules and hooks there; register them with "
                    "nn.Parameter, register_buffer or submodule attributes")
            return module_setattr(self, name, value)

        setattr_checked._kernel_env_hook = True
        torch.nn.Module.__setattr__ = setattr_checked
    module_getattr = torch.nn.Module.__getattr__
    if not getattr(module_getattr, "_kernel_env_hook", False):
        def getattr_checked(self, name):
            # reached only when ordinary lookup failed: a special name is never served from a
            # module's parameters, buffers or submodules (red-team pass 93: a dict-Module added
            # as "__array_interface__" through add_module or ModuleDict, which numpy read)
            # (inline: every parameter read in a forward comes here)
            if name[:2] == "__" and name[-2:] == "__":
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            return module_getattr(self, name)

        getattr_checked._kernel_env_hook = True
        torch.nn.Module.__getattr__ = getattr_checked
    create = enum.EnumType.__dict__.get("_create_")
    if isinstance(create, types.FunctionType) and not getattr(create, "_kernel_env_hook", False):
        def create_checked(cls, class_name, names, *args, **kwargs):
            if isinstance(names, str):
                listed = names.replace(",", " ").split()
            else:
                names = names if isinstance(names, dict) else list(names)
                listed = [n if isinstance(n, str) else n[0] if isinstance(n, (tuple, list)) and n
                          else n for n in names]
            bad = [n for n in listed if _special(n)]
            if bad:
                raise SpecialNameRefused(
                    f"an enum made by enum's functional API with the member name {bad[0]!r} is "
                    "refused: special names there become class attributes that no rule reads; "
                    "define enums with a `class` statement")
            return create(cls, class_name, names, *args, **kwargs)

        create_checked._kernel_env_hook = True
        enum.EnumType._create_ = create_checked


_PARAMETRIZE = os.path.join("torch", "nn", "utils", "parametrize.py")


def _special(name) -> bool:
    return type(name) is not str or (name.startswith("__") and name.endswith("__"))


def foreign_warning_filters() -> int:
    """How many entries of the warning filters are not what `warnings.filterwarnings` makes (a
    tuple of an action, a pattern or None, a class, a pattern or None, a line number).
    Red-team pass 76: `warnings.simplefilter`, which the evaluator calls after every call outside
    the guard, compares its entry with each, and a message object's `match` runs at every
    warning: an entry holding a `UserString` with a `data` property ran the submission's code
    there. Read by type alone, so that nothing of an entry runs."""
    return sum(not _plain_filter(entry) for entry in list(warnings.filters))


def _plain_filter(entry) -> bool:
    if type(entry) is not tuple or len(entry) != 5:
        return False
    action, message, category, module, line = entry
    return (type(action) is str and type(message) in _FILTER_TEXT and isinstance(category, type)
            and type(module) in _FILTER_TEXT and type(line) in (int, bool))


# (Python's own default filters name `__main__` by a plain string)
_FILTER_TEXT = (type(None), str, re.Pattern)


def foreign_threads(before: set[int]) -> list[str]:
    """Python threads started since `before` whose code is not torch's or triton's: work on
    another thread escapes the (thread-local) dispatch guard. Static rules forbid the threading
    modules; this catches routes they cannot see, including threads already finished."""
    live = [f"{t.name} ({_origin(t) or 'native'})" for t in threading.enumerate()
            if t.ident not in before and t.is_alive() and _foreign(_origin(t))]
    return sorted(set(live + _started))


# Audited actions a submission's own frames (its file, or code it made from strings) may not
# take: running source, opening files, starting programs, native loading, tracing frames.
# Library frames (torch, Triton, the standard library, the evaluator) keep doing these.
_REFUSED_EVENTS = frozenset({
    "exec", "compile", "open", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
    "os.forkpty", "os.kill", "os.killpg", "os.putenv", "os.unsetenv", "subprocess.Popen", "ctypes.dlopen",
    "ctypes.dlsym", "ctypes.cdata", "sys._current_frames", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "object.__setattr__", "object.__delattr__", "function.__new__", "code.__new__",
    "builtins.input", "socket.connect", "import",
    # files changed without `open` (they could outlive the evaluation: a later one's cache)
    "os.remove", "os.rename", "os.rmdir", "os.truncate", "os.chmod", "os.chown", "os.link",
    "os.symlink", "os.mkdir", "os.utime", "shutil.rmtree", "shutil.copyfile", "shutil.move",
    # Python 3.12's tracing API (PEP 669), the production interpreter's: a callback sees every
    # thread's calls with their callables and first arguments, and runs with no profile event
    # for the dispatch guard's watch. Registering one is its only audited step.
    "sys.monitoring.register_callback",
})
_audit = {"files": frozenset(), "strings": (), "offences": [], "active": False}


def guard_submission_actions(submission_file: str, source: str = "") -> None:
    """From now on in this process, audited actions taken directly by the submission's frames
    fail and are recorded (`submission_actions()`); once per evaluation process, before the
    submission is imported. Audit hooks cannot be removed: nothing the submission runs later
    switches this off. The static rules refuse the names; this catches routes they miss. And
    code compiled from a string the submission's file holds fails whoever compiles it (`source`:
    the file's text, whose string literals are read here)."""
    _audit["files"] = frozenset({submission_file, os.path.abspath(submission_file)})
    _audit["strings"] = _string_literals(source)
    if _audit["active"]:
        return
    _audit["active"] = True
    getframe, files, offences = sys._getframe, _audit, _audit["offences"]
    busy = threading.local()

    def hook(event, args):
        if event not in _REFUSED_EVENTS or getattr(busy, "on", False):
            return
        busy.on = True
        try:
            if event == "compile" and _compiles_a_literal(args, files["strings"]):
                offences.append("compile of code written in a string of the file")
                raise RuntimeError("compiling code a submission wrote in a string is not allowed")
            frame = _responsible_frame(getframe(1))
            if event in _ANYWHERE_ON_THE_STACK:
                frame = _submission_frame(getframe(1), files["files"]) or frame
            if frame is None or (event == "import" and _import_allowed(args)):
                return
            name = frame.f_code.co_filename
            if _submissions(name, files["files"]):
                offences.append(f"{event} at line {frame.f_lineno}")
                raise RuntimeError(f"{event} is not allowed in a submission")
        finally:
            busy.on = False

    sys.addaudithook(hook)


# Code a library compiles from a string the submission wrote (red-team pass 88: Triton's
# `str_to_ty` evaluated the layout part of a type name, `"tensordesc<fp32[16],__import__(...)>"`,
# with the real builtins, from Triton's frame) runs as the submission's: a compiled source of at
# least this many characters found inside one of the file's string literals is refused.
LITERAL_CODE_MIN = 4


def _string_literals(source: str) -> tuple[str, ...]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return ()
    return tuple({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                  and isinstance(n.value, str) and len(n.value) >= LITERAL_CODE_MIN})


def _compiles_a_literal(args, literals: tuple[str, ...]) -> bool:
    code = args[0] if literals and args else None
    if isinstance(code, (bytes, bytearray)):
        code = bytes(code).decode("utf-8", "replace")
    if not isinstance(code, str):
        return False
    code = code.strip()
    return len(code) >= LITERAL_CODE_MIN and any(code in literal for literal in literals)


# Actions no library takes on a submission's behalf: charged to the submission wherever its frame
# is on the stack (`collections.ChainMap(os.environ)[k] = v` writes from collections' frame).
_ANYWHERE_ON_THE_STACK = frozenset({"os.putenv", "os.unsetenv"})


def _submissions(filename: str, files: frozenset) -> bool:
    """Code of the submission's file, or code it generated (not the frozen standard library)."""
    return filename in files or (filename.startswith("<") and not filename.startswith("<frozen"))


def _submission_frame(frame, files: frozenset):
    while frame is not None:
        name = frame.f_code.co_filename
        if _submissions(name, files):
            return frame
        frame = frame.f_back
    return None


def _import_allowed(args) -> bool:
    module = args[0] if args and isinstance(args[0], str) else ""
    return module.split(".")[0] in ALLOWED_IMPORTS


_STDLIB = sysconfig.get_paths()["stdlib"]
# Standard-library modules that call what they are handed with arguments they are handed
# (ExitStack.callback(exec, source), copy's reducers, os.walk's onerror): an action taken
# there is charged to whoever called them. Code generators (dataclasses, namedtuple, enum)
# run their own generated code and stay responsible for it.
_TRAMPOLINES = frozenset({"contextlib.py", "copy.py", "copyreg.py", "os.py", "warnings.py",
                          "functools.py", "operator.py", "random.py", "statistics.py",
                          "textwrap.py", "numbers.py", "abc.py", "_collections_abc.py",
                          "weakref.py", "threading.py", "re.py", "_compiler.py", "sre_compile.py"})


def _transparent(filename: str) -> bool:
    return (filename.startswith(_STDLIB) and "site-packages" not in filename
            and "dist-packages" not in filename and os.path.basename(filename) in _TRAMPOLINES)


def _responsible_frame(frame):
    """The frame an audited action is charged to: past standard-library trampolines (frozen
    modules too: `os` and `_collections_abc` are frozen, and `MutableMapping.update(os.environ,
    ...)` reaches `os.putenv` through them), to the first library, evaluator or submission
    frame. None when the import machinery acts for an import statement (one the static rules and
    the import event already vetted); its loaders called directly are trampolines like any
    other (red-team pass 84: `triton.language.extra.spec.loader`'s `set_data`, `get_data` and
    `load_module`, called from a submission, wrote, read and ran files charged to no one)."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_IMPORT_MACHINERY) and frame.f_code.co_name in _IMPORTING:
            return None
        if not (_transparent(name) or name.startswith("<frozen")):
            return frame
        frame = frame.f_back
    return None


_IMPORT_MACHINERY = ("<frozen importlib.", "<frozen zipimport")
# The import machinery's functions that an import statement, `__import__` or
# `importlib.import_module` runs through, and no loader method called on its own
_IMPORTING = frozenset({"_find_and_load", "_find_and_load_unlocked", "_gcd_import",
                        "_handle_fromlist"})


def kernels_registered_from(directories: tuple[str, ...]) -> list[str]:
    """Operators whose dispatch table holds a kernel registered from source under `directories`
    (a CUDA submission's build directory): the dispatcher records where each registration says
    it was made (`TORCH_LIBRARY_IMPL` passes `__FILE__`), so an extension that registered a
    kernel for a torch operator (the reference's `aten::mm` computing zeros) by a spelling the
    text rules missed shows here; one that forges the location does not. All operators' tables
    are read (~0.1 s): once, after timing, for CUDA submissions."""
    found = []
    for name in torch._C._dispatch_get_all_op_names():
        table = torch._C._dispatch_dump_table(name)
        if any(d in table for d in directories):
            found.append(name)
    return found


def raised_in_submission(exc: BaseException) -> int | None:
    """The line of the submission's code (or code it generated) that an exception passed
    through, if any: while the evaluator checks the process, that is the submission's code run
    by an object it changed, not the evaluator failing."""
    files, tb = _audit["files"], exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if _submissions(name, files):
            return tb.tb_lineno
        tb = tb.tb_next
    return None


def submission_actions() -> list[str]:
    """Audited actions the submission's own code attempted (each failed when attempted)."""
    return list(_audit["offences"])


def child_processes() -> set[int]:
    """Processes this one started that still run (or await reaping). A process computes where
    no guard is installed and no recorder looks; the static rules forbid the ways to start one,
    this catches routes they cannot see. Empty where the kernel does not list children."""
    pids: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return pids
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids.update(int(p) for p in f.read().split())
        except (OSError, ValueError):
            continue
    return pids


def changed(before: dict[str, int], extra: dict | None = None) -> list[str]:
    """Names whose binding differs from the snapshot (added, removed or replaced)."""
    after = snapshot(extra)
    diff = [k for k in before.keys() | after.keys() if before.get(k) != after.get(k)]
    # A lazily imported submodule appears as a new attribute of its parent (`import
    # torch.cuda.comm`), and as a new namespace when it is one of torch.nn's: not tampering.
    # Replacing an existing binding, or adding a name that is not a module, still is.
    added_modules = {f"{name}.{attr}" for name, ns, _ in _watched(extra)
                     for attr, value in vars(ns).items() if isinstance(value, types.ModuleType)}
    known = {k.rpartition(".")[0] for k in before}
    return sorted(k for k in diff if k in before
                  or (k not in added_modules and k.rpartition(".")[0] in known))


_TAG_OFFSET = _find_tag_offset()
