"""Whether the library objects consulted outside the guarded calls had their own attributes changed.

The static rules refuse attribute stores spelt through a module (`os.environ.decodevalue = f`),
but not a store whose target is a parameter, a loop variable or a container's item
(`def plant(obj): obj.attr = f` then `plant(os.environ)`), and the integrity checks watch
namespaces, classes and module globals, not the attributes of library *instances*. Some of
those instances are consulted where no guard runs:
- `os.environ`'s methods decode through its instance attributes (red-team pass 81: a hook set
  as its `decodevalue` ran inside every integrity check);
- Triton's dtype singletons (`tl.int32`, ...): the interpreter's argument conversion, which the
  guard pauses for, calls `tl.int32.is_block()` (pass 82: a chain of library callables set there
  ran `torch.relu_` unchecked, and scored);
- Triton's driver (`triton.runtime.driver`, also reached as `triton.language.semantic.driver`):
  every launch, the evaluator's own comparison kernels' too, calls its active driver's
  `get_current_device` and `get_current_stream` (pass 82, GPU only, by reading Triton's code).
- Triton's settings (`triton.knobs`: refused by name, reached through a class holding
  `triton.language` before pass 83 closed that): on a GPU its launch hooks run at every launch
  of the evaluator's own comparison kernels, its compile and load hooks when they are built,
  and the SASS check runs the disassembler `knobs.nvidia` names. Its instances are watched,
  which module name binds each, and what its hook chains hold (`add` appends to a list: no
  dict changes).
Each one's instance dict has a CPython version tag (module_globals.py), new whenever anything in
it is set or deleted: a hook planted and removed again still leaves it new. Their classes and
the dicts themselves are held too (an object's `__dict__` replaced whole is a change).
"""

from __future__ import annotations

import os
import sys

from .module_globals import _MASK, _TAG_OFFSET, _UINT64_AT


def watched_instances() -> list[tuple[str, object]]:
    """(name, object) for each library instance watched: os.environ, every dtype bound in
    triton.language, and, once Triton's driver is made (by the evaluator's first launch on a
    GPU: the spare's prewarm, before any snapshot; made here if CUDA is up; never on the CPU),
    its configuration, the active driver and that driver's utilities."""
    import torch
    import triton.language as tl
    from triton.language import core
    import triton.runtime.driver  # noqa: F401  (the package's `driver` is the configuration)

    found: dict[int, tuple[str, object]] = {id(os.environ): ("os.environ", os.environ)}
    for module, prefix in ((tl, "tl"), (core, "tl.core")):
        for name, value in vars(module).items():
            if isinstance(value, core.dtype) and id(value) not in found:
                found[id(value)] = (f"{prefix}.{name}", value)
    config = getattr(sys.modules.get("triton.runtime.driver"), "driver", None)
    if config is not None:
        if torch.cuda.is_initialized():  # made now if no launch made it yet: its lazy state
            try:                         # is set before the tags are read, not after
                config.active
            except RuntimeError:
                pass
        active = vars(config).get("_active")
        if active is not None:  # (else unwatched: a later first launch sets it, honestly)
            found[id(config)] = ("triton.runtime.driver", config)
            found[id(active)] = ("triton.runtime.driver.active", active)
            utils = vars(active).get("utils")
            if utils is not None and hasattr(utils, "__dict__"):
                found[id(utils)] = ("triton.runtime.driver.active.utils", utils)
    for name, value in _knobs():
        found.setdefault(id(value), (f"triton.knobs.{name}", value))
        for hook, chain in vars(type(value)).items():
            if type(chain).__name__ == "HookChain":
                found.setdefault(id(chain), (f"triton.knobs.{name}.{hook}", chain))
    return [entry for entry in found.values() if _dict_descriptor(type(entry[1])) is not None]


def _knobs() -> list[tuple[str, object]]:
    """(name, instance) of each settings object `triton.knobs` binds (its `runtime`, `nvidia`,
    `cache`, ...): the module's values whose class is its own."""
    knobs = sys.modules.get("triton.knobs")
    if knobs is None:
        return []
    return [(name, value) for name, value in vars(knobs).items()
            if not name.startswith("_") and not isinstance(value, type)
            and getattr(type(value), "__module__", None) == "triton.knobs"]


def _bindings() -> list[tuple[dict, str, object]]:
    """(module dict, name, object) for each knobs instance: a module global replaced (a fake
    `knobs.nvidia` whose disassembler is `/bin/true`) leaves the watched instance untouched."""
    knobs = sys.modules.get("triton.knobs")
    return [] if knobs is None else [(vars(knobs), name, value) for name, value in _knobs()]


def _chain_lists(objects: list) -> list[tuple[object, tuple]]:
    """(list, its items now) of each watched hook chain's `calls`."""
    lists = []
    for obj in objects:
        if type(obj).__name__ == "HookChain":
            calls = vars(obj).get("calls")
            if type(calls) is list:
                lists.append((calls, tuple(calls)))
    return lists


def _dict_descriptor(cls: type):
    """The getset descriptor that hands out instances' `__dict__` (C code), or None."""
    for klass in cls.__mro__:
        descriptor = vars(klass).get("__dict__")
        if descriptor is not None:
            return descriptor if type(descriptor).__name__ == "getset_descriptor" else None
    return None


def instance_dict(obj) -> dict | None:
    """An instance's own `__dict__`, read through its class's descriptor (C code: no attribute
    hook of the object runs), or None."""
    descriptor = _dict_descriptor(type(obj))
    found = None if descriptor is None else descriptor.__get__(obj, type(obj))
    return found if type(found) is dict else None


class InstanceTags:
    """The watched instances' classes, dicts and dicts' version tags, read now (at the
    snapshot, before the submission is imported); `changed()` names those changed since."""

    def __init__(self):
        entries = [] if _TAG_OFFSET is None else watched_instances()
        self.names = [name for name, _ in entries]
        self.objects = [obj for _, obj in entries]  # held: their addresses stay theirs
        self.types = [type(obj) for obj in self.objects]
        self.descriptors = [_dict_descriptor(t) for t in self.types]
        # reading `__dict__` materialises it (CPython keeps attributes inline until asked)
        self.dicts = [d.__get__(obj, t) for d, obj, t in zip(self.descriptors, self.objects, self.types)]
        self.tags = self._tags()
        self.bindings = _bindings()
        self.chains = _chain_lists(self.objects)

    def _tags(self) -> list[int]:
        return [_UINT64_AT(id(d) + _TAG_OFFSET).value & _MASK for d in self.dicts]

    def changed(self) -> list[str]:
        """The watched instances whose class, `__dict__` object or anything in it changed (read
        with C code only: no attribute lookup that a planted object could answer)."""
        changed = []
        for name, obj, t, d, held, was, now in zip(self.names, self.objects, self.types,
                                                    self.descriptors, self.dicts, self.tags, self._tags()):
            if type(obj) is not t or d.__get__(obj, t) is not held or was != now:
                changed.append(name)
        for namespace, name, obj in self.bindings:
            if dict.get(namespace, name) is not obj:
                changed.append(f"triton.knobs.{name} (rebound)")
        for calls, items in self.chains:
            now = tuple(calls)
            if len(now) != len(items) or any(a is not b for a, b in zip(now, items)):
                changed.append("a hook chain of triton.knobs (a hook added or removed)")
        return changed
