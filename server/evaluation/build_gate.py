"""The gate around `load_inline` in an evaluation process: what a CUDA submission actually passes
is what gets built, and it is checked as it is passed.

The static check reads the sources from the file's text, following names to literals; a list
changed after its binding (`SOURCES[0] = ...`), a name rebound where the reading does not look,
or a `functions=` docstring (pasted unescaped into the binding's C++) could build code no rule
read, and a `name` is written unquoted into build.ninja's shell commands. So the evaluation
process replaces `torch.utils.cpp_extension.load_inline`, before the submission is imported,
with a function that checks the values it receives with the same rules and then builds; the
built library's imports are checked before it is loaded (so_imports.py), since C++ can spell a
call in ways no text rule reads, and so is its machine code for 8-bit arithmetic (precision.py),
since C++ can spell a type in ways no text rule reads.
"""

from __future__ import annotations

import os

from . import precision
from .cuda_sources import IDENTIFIER, LOAD_INLINE_KEYWORDS, check_cuda_sources, flag_problem
from .guard import ALLOWED_OP_NAMES
from .so_imports import forbidden_import, undefined_symbols
from .stages import COMPILE, StageFailure

_FLAGS = ("extra_cflags", "extra_cuda_cflags", "extra_ldflags")
_SWITCHES = ("verbose", "with_cuda", "is_python_module", "with_pytorch_error_handling")
_original = {}
_refusals: list[StageFailure] = []


def install() -> None:
    """Idempotent; once per evaluation process, before the integrity snapshot and the import.
    torch.utils.cpp_extension is imported here, not by the worker host: importing it counts the
    CUDA devices, which poisons the host's later forks for CUDA."""
    import torch.utils.cpp_extension as cpp_extension
    if cpp_extension.load_inline is not gated_load_inline:
        _original["load_inline"] = cpp_extension.load_inline
        cpp_extension.load_inline = gated_load_inline
    if not getattr(cpp_extension._import_module_from_library, "_kernel_env_gate", False):
        cpp_extension._import_module_from_library = _checked_import(
            cpp_extension._import_module_from_library, cpp_extension.LIB_EXT)


def _checked_import(original, suffix: str):
    """torch's last step of load_inline, after the build: the library's imports are read before
    it is loaded (loading runs its static constructors)."""
    def load(module_name, path, is_python_module):
        library = os.path.join(path, f"{module_name}{suffix}")
        try:
            names = undefined_symbols(library)
        except (OSError, ValueError) as error:
            _refuse(f"sources whose library could not be read ({error})")
        problem = forbidden_import(names, ALLOWED_OP_NAMES)
        if problem:
            _refuse(f"sources whose built library imports {problem}")
        try:
            narrow = precision.check_library(library)  # its machine code, whatever the text spelled
        except precision.Unreadable as error:
            _refuse(f"sources whose built library's machine code could not be read ({error}); it "
                    f"is read for 8-bit or narrower arithmetic before it loads",
                    precision.ERROR_CLASS)
        if narrow:
            _refusals.append(StageFailure(COMPILE, precision.ERROR_CLASS, precision.feedback(narrow)))
            raise _refusals[-1]
        module = original(module_name, path, is_python_module)
        moved = precision.moved_device_code(library)  # the records its constructors could change
        if moved:
            _refuse(f"sources whose library changed its device code as it loaded ({moved}): the "
                    f"device code registered must be the code that was read",
                    precision.ERROR_CLASS)
        return module
    load._kernel_env_gate = True
    return load


def refusal() -> StageFailure | None:
    """The first refusal in this process, caught by the submission or not."""
    return _refusals[0] if _refusals else None


def _refuse(what: str, error_class: str = "format_violation") -> None:
    _refusals.append(StageFailure(COMPILE, error_class, f"load_inline was called with {what}"))
    raise _refusals[-1]


def _texts(value, keyword: str) -> tuple[str, ...]:
    if type(value) is str:
        return (value,)
    if (type(value) is list or type(value) is tuple) and all(type(v) is str for v in value):
        return tuple(value)
    _refuse(f"a `{keyword}` that is not a string or a list of strings")


def gated_load_inline(name, cpp_sources, cuda_sources=None, *more, functions=None, **kwargs):
    """load_inline with every argument checked as passed (copies of lists, so nothing changes
    between the check and the build)."""
    if more:
        _refuse("arguments after the sources by position; pass them by name")
    if type(name) is not str or not IDENTIFIER.fullmatch(name):
        _refuse("a `name` that is not an identifier (it is written into the build's shell commands)")
    cpp = _texts(cpp_sources, "cpp_sources")
    cuda = _texts(cuda_sources, "cuda_sources") if cuda_sources is not None else None
    names = ()
    if functions is not None:
        names = _texts(functions, "functions")
        if not all(IDENTIFIER.fullmatch(f) for f in names):
            _refuse("`functions` that are not identifiers (no docstrings: they are pasted into "
                    "the binding's C++)")
        functions = list(names)
    for keyword, value in kwargs.items():
        if keyword not in LOAD_INLINE_KEYWORDS:
            _refuse(f"`{keyword}` (the build is the evaluator's; allowed: "
                    f"{', '.join(sorted(LOAD_INLINE_KEYWORDS))})")
        if keyword in _FLAGS:
            flags = _texts(value, keyword)
            problem = next((p for p in (flag_problem(keyword, f) for f in flags) if p), None)
            if problem:
                _refuse(problem)
            kwargs[keyword] = list(flags)
        elif keyword in _SWITCHES and type(value) is not bool and value is not None:
            _refuse(f"a `{keyword}` that is not True or False")
    try:
        # each file as torch writes it, and the functions bound to Python defined there
        check_cuda_sources("\n".join(cpp), "\n".join(cuda or ()), bound=names)
    except StageFailure as failure:
        _refuse(f"sources the rules refuse: {failure.feedback}", failure.error_class)
    return _original["load_inline"](name, list(cpp), list(cuda) if cuda is not None else None,
                                    functions=functions, **kwargs)
