"""No clock is reachable from a submission: a kernel that spins longer when its data says so,
timed from forward, hands that data to host code (red-team pass 24 found two torch modules that
wrap `time.perf_counter`). Every installed torch and Triton module that imports a clock module
is checked, so a new one in a later release fails here instead of passing the static check."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check

ROOT = Path(__file__).resolve().parent.parent
CLOCK_MODULES = ("time", "datetime", "timeit")


def _clock_importing_modules() -> list[tuple[str, list[str]]]:
    found = []
    for package in ("torch", "triton"):
        base = Path(importlib.util.find_spec(package).origin).parent
        for path in base.rglob("*.py"):
            parts = path.relative_to(base.parent).with_suffix("").parts
            if "test" in path.name or any(p in ("test", "tests", "testing") for p in parts[1:-1]):
                continue
            try:
                tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
            except (SyntaxError, ValueError):
                continue
            imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
            if not any((isinstance(n, ast.Import) and any(a.name.split(".")[0] in CLOCK_MODULES for a in n.names))
                       or (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in CLOCK_MODULES)
                       for n in imports):
                continue
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                     and not n.name.startswith("_")][:5]
            found.append((module, names))
    return sorted(found)


def _with_import(line: str) -> str:
    base = (ROOT / "tests" / "kernels" / "legit" / "relu.py").read_text()
    return base.replace("import torch\n", f"import torch\n{line}\n", 1)


def test_no_module_that_imports_a_clock_passes_the_static_check():
    modules = _clock_importing_modules()
    assert len(modules) > 20  # the scan found torch's own (profiler, benchmark, ...)
    reachable = []
    for module, names in modules:
        for line in [f"import {module}"] + [f"from {module} import {name}" for name in names]:
            try:
                static_check(_with_import(line), "triton")
            except StageFailure:
                continue
            reachable.append(line)
    assert not reachable, f"clocks reachable: {reachable[:10]}"


@pytest.mark.parametrize("line", [
    "from torch.utils.jit.log_extract import time_cpu",
    "from torch.autograd import profiler_legacy",
    "import numpy as np\nNOW = np.datetime64('now')",
    "import numpy as np\nNOW = np.array('now', dtype='M8[s]')",
    "import numpy as np\nNOW = np.dtype('<m8')",
])
def test_the_clocks_pass_24_used_are_refused(line):
    with pytest.raises(StageFailure) as err:
        static_check(_with_import(line), "triton")
    assert "clock" in err.value.feedback or "profiler" in err.value.feedback
