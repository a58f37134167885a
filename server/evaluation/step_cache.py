"""Triton's cache during a step: the submission's compiled kernels go to the step's own folder,
removed with it; Triton's launchers and the evaluator's own kernels stay in the shared cache.

An RL loop submits a new kernel almost every step, and Triton kept each compile (its IRs, PTX,
cubin and metadata; every config of an autotuned kernel) in the shared cache for good: a server
stepping for days would fill its disk with kernels never loaded again. What is worth sharing is
bounded: a launcher (a small shared library Triton builds with the C compiler, ~1 s, once per
kernel signature) and the evaluator's own comparison kernels (one per dtype, compiled lazily).
Lookups read the shared cache first, so a kernel compiled there before still loads from it. A
resubmitted kernel, in a later step, is compiled again (on the H200, 0.05-0.4 s a step for the
benchmark's kernels); a session's repeated source gets its first answer without evaluation.
"""

from __future__ import annotations

import ast
import json
import os
import sysconfig
import unicodedata

from triton import knobs
from triton.runtime.cache import FileCacheManager

# The evaluator's own @triton.jit functions (fused_compare.py); tests/test_step_cache.py keeps
# this list equal to what server/evaluation defines.
EVALUATOR_KERNELS = frozenset({"_partials", "_differs"})
_LIBRARY_SUFFIXES = tuple({sysconfig.get_config_var("EXT_SUFFIX") or ".so", ".so"})


def install(shared_dir: str, step_dir: str, submission_source: str) -> None:
    """From here on this process's Triton compiles go where `shared` says (below). A kernel the
    submission names like one of the evaluator's stays in the step's folder: its name alone never
    buys it a place in the shared cache."""
    StepCacheManager.shared_root, StepCacheManager.step_root = shared_dir, step_dir
    StepCacheManager.evaluator_kernels = EVALUATOR_KERNELS - names_in(submission_source)
    StepCacheManager.served = []
    knobs.cache.manager_class = StepCacheManager


def names_in(source: str) -> set[str]:
    """Every name the source defines or uses, and every string it holds, as Python reads them
    (NFKC: `def _ｐartials` defines `_partials`; red-team pass 53 found a text search missed it).
    Source that does not parse (the static check refuses it) counts as naming every kernel."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(EVALUATOR_KERNELS)
    names = set()
    for node in ast.walk(tree):
        for value in (getattr(node, "name", None), getattr(node, "id", None), getattr(node, "attr", None),
                      getattr(node, "arg", None), getattr(node, "value", None)):
            if isinstance(value, str):
                names.add(unicodedata.normalize("NFKC", value))
    return names


def shared(filename: str, evaluator_kernels: frozenset = EVALUATOR_KERNELS) -> bool:
    """Whether a compiled file belongs in the shared cache: a library (Triton's launchers and
    driver utilities) or a file of one of the evaluator's kernels (named `<kernel>.<ext>`, its
    group `__grp__<kernel>.json`)."""
    if filename.endswith(_LIBRARY_SUFFIXES):
        return True
    return filename.removeprefix("__grp__").split(".", 1)[0] in evaluator_kernels


class StepCacheManager(FileCacheManager):
    """Triton's file cache over two folders: found in either (the shared one first), written to
    the one `shared()` picks. Only the default cache is split; Triton's dump and override caches
    (debugging knobs) behave as usual."""

    shared_root = ""
    step_root = ""
    evaluator_kernels = EVALUATOR_KERNELS
    # Every compiled file this process wrote or was handed from either folder since `install`:
    # what precision.py reads (a kernel found in the shared cache writes nothing to the step's).
    served: list[str] = []

    def __init__(self, key, override=False, dump=False):
        if override or dump or not self.step_root:
            super().__init__(key, override, dump)
            self._dirs = (self.cache_dir,)
            return
        self.key = key
        self._dirs = (os.path.join(self.shared_root, key), os.path.join(self.step_root, key))
        self.cache_dir, self.lock_path = self._dirs[1], os.path.join(self._dirs[1], "lock")

    def _find(self, filename: str) -> str | None:
        for folder in self._dirs:
            path = os.path.join(folder, filename)
            if os.path.exists(path):
                return path
        return None

    def has_file(self, filename) -> bool:
        return self._find(filename) is not None

    def get_file(self, filename) -> str | None:
        return self._find(filename)

    def get_group(self, filename: str) -> dict | None:
        path = self._find(f"__grp__{filename}")
        if path is None:
            return None
        with open(path) as f:
            children = json.load(f).get("child_paths")
        if children is None:
            return None
        found = {name: p for name, p in children.items() if os.path.exists(p)}
        StepCacheManager.served.extend(found.values())
        return found

    def put(self, data, filename, binary=True) -> str:
        if len(self._dirs) == 2:
            self.cache_dir = self._dirs[0] if shared(filename, self.evaluator_kernels) else self._dirs[1]
            self.lock_path = os.path.join(self.cache_dir, "lock")
            os.makedirs(self.cache_dir, exist_ok=True)
        path = super().put(data, filename, binary)
        StepCacheManager.served.append(path)
        return path
