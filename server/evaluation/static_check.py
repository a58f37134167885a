"""Stage 1, static checks: fast AST rules applied before any code runs.

They reject what cannot be a hand-written kernel (no ModelNew, no Triton kernel launched, generated
code via torch.compile, library kernels, subclassing the reference) and the escape hatches a
runtime guard cannot see (threads, processes, native calls, introspection of the evaluator).
Import aliases are resolved, so `import torch as T; T.compile(...)` is caught like `torch.compile`.
"""

from __future__ import annotations

import ast
import codecs
import dataclasses
import builtins
import importlib
import io
import importlib.util
import re
import sys
import tokenize
import types
from dataclasses import dataclass

from .cuda_sources import CLOCKS_REASON, PROFILER_REASON, STREAMS_REASON, check_cuda_sources, load_inline_sources
from .kernel_body import check_kernel, kernel_globals
from .own_attributes import misused_class, own_accesses, plain_class_accesses
from .source_names import (binding_counts, bound_names, dotted, import_aliases, literal_getattr, nodes,
                           root, type_test, where)
from .stages import STATIC_CHECK, StageFailure

_GENERATED = "generated code is not a hand-written kernel; write the kernel yourself"
_DISPATCH = "reaching into PyTorch's dispatcher, custom ops or modes can hide work from the guard"
_GRAPHS = "CUDA graphs replay work the dispatch guard cannot see"
_CONCURRENCY = "threads, processes and native calls run work the dispatch guard cannot see"
_ARRAYS = "other array libraries compute outside your kernel"
INTROSPECTION = "introspection can reach into the evaluator"
_INTROSPECTION = INTROSPECTION
_LIBRARY = "library kernels are not your kernel; write it yourself"
_EVALUATOR = "the evaluator and the task's reference are not yours to import"
_FILES = ("submissions may not touch files, descriptors, sockets or processes (of os and sys only "
          "environ, getenv, path, cpu_count, getpid, exit, stdout and stderr are available)")
# The only `os` names a kernel file has a use for; everything else in `os` is refused (it reaches
# descriptors, files and processes).
OS_ALLOWED = {"os", "os.environ", "os.getenv", "os.path", "os.cpu_count", "os.getpid", "os._exit"}
SYS_ALLOWED = {"sys", "sys.exit", "sys.maxsize", "sys.version_info", "sys.platform", "sys.stdout",
               "sys.stderr", "sys.float_info"}

# Dotted-name prefix -> why it is forbidden. Matched against resolved names (aliases followed).
FORBIDDEN_NAMES = {
    # tensor memory exits named as values (`map(torch.Tensor.numpy, ...)`): a library frame
    # calls them for the submission
    **dict.fromkeys(("torch.Tensor.numpy", "torch.Tensor.__array__", "torch.Tensor.data_ptr",
                     "torch.Tensor.untyped_storage", "torch.Tensor.storage"),
                    "views of tensor memory let host code compute what a kernel should"),
    "torch.compile": _GENERATED,
    "torch._dynamo": _GENERATED,
    "torch._inductor": _GENERATED,
    "torch.jit": _GENERATED,
    "torch.fx": _GENERATED,
    "torch.export": _GENERATED,
    "torch._C": _DISPATCH,
    "torch._ops": _DISPATCH,
    "torch.ops": _DISPATCH,
    "torch.library": _DISPATCH,
    "torch.overrides": _DISPATCH,
    "torch.utils._python_dispatch": _DISPATCH,
    "torch._subclasses": _DISPATCH,
    "torch.utils.dlpack": _ARRAYS,
    "torch._tensor_str": _INTROSPECTION,
    "torch.cuda.graph": _GRAPHS,
    "torch.cuda.graphs": _GRAPHS,
    "torch.cuda.CUDAGraph": _GRAPHS,
    "torch.cuda.make_graphed_callables": _GRAPHS,
    "torch.utils.cpp_extension.load": "build CUDA sources inline with load_inline",
    "torch.utils.cpp_extension.load_inline.__wrapped__": _INTROSPECTION,
    "ctypes": _CONCURRENCY,
    "cffi": _CONCURRENCY,
    "subprocess": _CONCURRENCY,
    "multiprocessing": _CONCURRENCY,
    "torch.multiprocessing": _CONCURRENCY,
    "torch.distributed": _CONCURRENCY,
    "torch.utils.data": _CONCURRENCY,
    "threading": _CONCURRENCY,
    "_thread": _CONCURRENCY,
    "concurrent": _CONCURRENCY,
    "asyncio": _CONCURRENCY,
    "signal": _CONCURRENCY,
    "pty": _CONCURRENCY,
    "cupy": _ARRAYS,
    "numba": _ARRAYS,
    "jax": _ARRAYS,
    "tensorflow": _ARRAYS,
    "pycuda": _ARRAYS,
    "cuda": _ARRAYS,
    "scipy": _ARRAYS,
    "importlib": _INTROSPECTION,
    "builtins": _INTROSPECTION,
    "gc": _INTROSPECTION,
    "inspect": _INTROSPECTION,
    "sys.modules": _INTROSPECTION,
    "sys._getframe": _INTROSPECTION,
    "sys.settrace": _INTROSPECTION,
    "sys.setprofile": _INTROSPECTION,
    "pickle": _INTROSPECTION,
    "server": _EVALUATOR,
    "kernel_env": _EVALUATOR,
    "kernel_env_reference": _EVALUATOR,
    "submission": _EVALUATOR,
    "__main__": _EVALUATOR,
    "io": _FILES,
    "pathlib": _FILES,
    "shutil": _FILES,
    "tempfile": _FILES,
    "fcntl": _FILES,
    "mmap": _FILES,
    "socket": _FILES,
    "select": _FILES,
    "logging": _CONCURRENCY,
    "queue": _CONCURRENCY,
    "sched": _CONCURRENCY,
    "socketserver": _CONCURRENCY,
    "weakref": _INTROSPECTION,
    "atexit": _INTROSPECTION,
    "torch.cuda.cudart": _DISPATCH,
    "operator.attrgetter": _INTROSPECTION,
    "operator.methodcaller": _INTROSPECTION,
    "torch.Event": CLOCKS_REASON,
    "torch.cuda.streams.Event": CLOCKS_REASON,
    "torch.cuda.Stream": STREAMS_REASON,
    "torch.cuda.stream": STREAMS_REASON,
    "torch.cuda.streams": STREAMS_REASON,
    "torch.cuda.set_stream": STREAMS_REASON,
    "torch.cuda.ExternalStream": STREAMS_REASON,
    "torch.cuda.StreamContext": STREAMS_REASON,
    "torch.Stream": STREAMS_REASON,
    "torch.accelerator.set_stream": STREAMS_REASON,
    "torch.compiler": "generated kernels are not your own",
    "torch.nn.Module.compile": "generated kernels are not your own",
    "torch.get_device_module": "it returns torch.cuda under a name the static check cannot follow; "
                               "use torch.cuda directly",
    "torch.utils.collect_env": _CONCURRENCY,
    "torch.cpu.Stream": STREAMS_REASON,
    "torch.cpu.stream": STREAMS_REASON,
    "torch.xpu": STREAMS_REASON,
    "torch.mtia": STREAMS_REASON,
    "torch.mps": STREAMS_REASON,
    "triton.runtime": _INTROSPECTION,
    "types": _INTROSPECTION,
    "typing.get_type_hints": "it evaluates annotation strings the static check cannot read",
    "typing.get_args": "it hands back the types a generic or union names, a legacy tensor "
                       "constructor among them (`get_args(Tuple[torch.FloatTensor])[0](array)`)",
    "typing.ForwardRef": "it evaluates annotation strings the static check cannot read",
    "functools.singledispatch": "it evaluates annotation strings the static check cannot read",
    "functools.singledispatchmethod": "it evaluates annotation strings the static check cannot read",
    "numpy.load": _FILES, "numpy.save": _FILES, "numpy.savez": _FILES, "numpy.savez_compressed": _FILES,
    "numpy.savetxt": _FILES, "numpy.loadtxt": _FILES, "numpy.genfromtxt": _FILES, "numpy.fromfile": _FILES,
    "numpy.memmap": _FILES, "numpy.ctypeslib": _CONCURRENCY, "numpy.f2py": _CONCURRENCY,
    "numpy.testing": _INTROSPECTION, "numpy.lib": _FILES, "numpy.distutils": _CONCURRENCY,
    "torch.load": _FILES, "torch.save": _FILES, "torch.hub": _FILES, "torch.package": _FILES,
    "torch.serialization": _FILES, "torch.classes": _DISPATCH, "torch.from_file": _FILES,
    "torch.utils.weak": "weak-reference callbacks run after the guard has exited",
    "torch.utils.hooks": "hooks run code the evaluator does not call",
    "torch.autograd.graph": "hooks run code the evaluator does not call",
    "time": CLOCKS_REASON,
    "datetime": CLOCKS_REASON,
    "timeit": CLOCKS_REASON,
    "triton.testing": CLOCKS_REASON,
    "torch.cuda.Event": CLOCKS_REASON,
    "torch.utils.benchmark": CLOCKS_REASON,
    "torch.profiler": PROFILER_REASON,
    "torch.autograd.profiler": PROFILER_REASON,
    "torch.autograd.profiler_util": PROFILER_REASON,
    "torch.autograd.profiler_legacy": PROFILER_REASON,  # its events' timestamps are a clock
    "torch.cuda.profiler": PROFILER_REASON,
    # torch modules whose functions read the host clock: a kernel that spins longer when its
    # data says so, timed from forward, hands that data to host code (red-team pass 24).
    # Every other torch and Triton module importing time, datetime or timeit is refused already.
    "torch.utils.jit": CLOCKS_REASON,  # log_extract.time_cpu: perf_counter around a call
    "torch.utils.tensorboard": CLOCKS_REASON,  # SummaryWriter: wall-clock stamps, files
    "numpy.datetime64": CLOCKS_REASON,  # np.datetime64("now"): a clock of whole seconds
    "numpy.timedelta64": CLOCKS_REASON,
    "marshal": _INTROSPECTION,
    "triton.ops": _LIBRARY,
    "triton.kernels": _LIBRARY,
    "triton_kernels": _LIBRARY,
    "triton.runtime.interpreter": _INTROSPECTION,
    # Triton's drivers and compilers: they build and load native modules from source strings
    "triton.backends": _CONCURRENCY,
    # Triton's settings (`knobs.setenv`, launch hooks) and its profiler (it takes CUPTI)
    "triton.knobs": _INTROSPECTION, "triton.profiler": PROFILER_REASON,
    "triton.JITFunction": _INTROSPECTION,
    # Triton's compiler's own objects and entry points (`AsmDict`, a dict subclass, carried a
    # Python function into a kernel body); kernels are compiled by launching them
    "triton.compiler": _INTROSPECTION, "triton.compile": _INTROSPECTION,
    # a C++ thread pool running a Python module: threads the guard is not entered on
    "torch.utils.throughput_benchmark": _CONCURRENCY,
    # torch._C's, public at torch's top level: switches off __torch_function__ handling (the cpu
    # evaluator's escape check among it)
    "torch.DisableTorchFunction": _DISPATCH, "torch.DisableTorchFunctionSubclass": _DISPATCH,
    # torch's top-level re-exports of the dispatcher's key sets: excluding the Python key hides
    # every operation from the dispatch guard (red-team pass 20: torch.relu ran unseen)
    "torch.ExcludeDispatchKeyGuard": _DISPATCH, "torch.DispatchKeySet": _DISPATCH,
    "torch.DispatchKey": _DISPATCH,
    "torch.utils.file_baton": _FILES,
    "numpy.ma.dump": _FILES, "numpy.ma.load": _FILES, "numpy.rec.fromfile": _FILES,
    "numpy.fromregex": _FILES,
    "flash_attn": _LIBRARY,
    "xformers": _LIBRARY,
    "apex": _LIBRARY,
    "liger_kernel": _LIBRARY,
    "torchao": _LIBRARY,
    "transformer_engine": _LIBRARY,
}

# Names that run code or programs, on whatever object getattr reads them from.
RUNNERS = {"system", "popen", "fork", "forkpty", "spawnv", "spawnl", "execv", "execve", "execl",
           "run", "call", "check_output", "Popen", "load_library", "CDLL", "dlopen"}

FORBIDDEN_BUILTINS = {
    "exec": _INTROSPECTION,
    "eval": _INTROSPECTION,
    "compile": _INTROSPECTION,
    "__import__": _INTROSPECTION,
    "globals": _INTROSPECTION,
    "locals": _INTROSPECTION,
    "dir": _INTROSPECTION,
    "memoryview": "submissions may not read tensor memory on the host",
    "vars": _INTROSPECTION,
    "open": "submissions may not read or write files",
    "breakpoint": _INTROSPECTION,
    "input": "submissions may not read input",
}
# Common parameter and variable names: a file that binds them means its own value.
REBINDABLE_BUILTINS = {"input", "dir"}
# Special attributes a kernel may read (on anything): names, docs, versions, super().__init__.
ALLOWED_DUNDER_ATTRIBUTES = {"__init__", "__name__", "__qualname__", "__doc__", "__module__",
                             "__version__", "__call__"}
ALLOWED_DUNDER_TEXT = {"__main__"}  # `if __name__ == "__main__":`


def _constant_text(node: ast.AST) -> str | None:
    """A string the file spells out, folded: literals, `+` of literals, f-strings and
    `"".join([...])` of literals, so `"__built" + "ins__"` reads as `"__builtins__"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _constant_text(node.left), _constant_text(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [_constant_text(v) for v in node.values]
        return "".join(parts) if all(p is not None for p in parts) else None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))):
        sep = _constant_text(node.func.value)
        parts = [_constant_text(e) for e in node.args[0].elts]
        return sep.join(parts) if sep is not None and all(p is not None for p in parts) else None
    return None

FORBIDDEN_ATTRIBUTES = {
    name: _INTROSPECTION
    for name in (
        "__subclasses__", "__globals__", "__builtins__", "__code__", "__closure__", "__dict__",
        "__import__", "__loader__", "__spec__", "__setattr__", "__delattr__", "f_back", "f_globals", "f_locals", "f_builtins",
        "tb_frame", "gi_frame", "cr_frame", "ag_frame", "__torch_function__", "__torch_dispatch__",
        "__dlpack__", "__cuda_array_interface__", "__array_interface__", "__class__", "__del__",
        "__reduce_ex__", "__getattribute__", "__stdout__", "__stderr__", "__stdin__", "buffer",
        "raw", "fileno", "_stream", "as_subclass", "_make_subclass", "_make_wrapper_subclass",
        # a built-in function's __self__ is its module (len.__self__ is builtins); the others
        # walk from a function or class to what defines it
        "__self__", "__objclass__", "__func__", "__wrapped__", "__mro__", "__bases__", "__base__",
        "mro",
        # a function's defaults, changed in place, change what every caller gets (the reference)
        "__defaults__", "__kwdefaults__",
        # the types a generic or union names (`typing.get_args` too): a legacy constructor among them
        "__args__",
        # a @triton.jit function's view of its module's globals (builtins included)
        "get_capture_scope", "used_global_vals",
    )
}
# Files written or read through a value's method (`ndarray.dump` pickles to a path)
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("tofile", "from_file", "dump"), _FILES))
# The dispatcher's key sets under any name or owner (`torch.ExcludeDispatchKeyGuard`,
# `torch._C.DispatchKeySet`): excluding the Python key hides every operation from the guard.
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(
    ("ExcludeDispatchKeyGuard", "DispatchKeySet", "DispatchKey", "_ExcludeDispatchKeyGuard",
     "_IncludeDispatchKeyGuard", "_ForceDispatchKeyGuard", "_PreserveDispatchKeyGuard"),
    "the dispatcher's key sets decide which checks see an operation: excluding the Python key "
    "hides torch's operations from the dispatch guard"))
# Memory that host code reads without torch: a tensor over a numpy array or a Python buffer, or
# pinned host memory (device kernels reach it), made where no guard runs (import, __init__),
# then filled by a kernel in forward and computed on by numpy, Python or host-side torch.
_SHARED_MEMORY = ("tensors sharing memory with numpy arrays, Python buffers or pinned host "
                  "memory let host code compute what a kernel should; use torch.tensor (it "
                  "copies) and device memory")
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(
    ("from_numpy", "frombuffer", "from_dlpack", "as_tensor", "asarray", "pin_memory",
     "cudaHostRegister", "share_memory_"), _SHARED_MEMORY))
# Printed text captured by the submission (or numpy's print formatter, called per element) hands
# it values that no guard saw leave the kernel.
# Triton's interpreter's own machinery: a rewritten function cached per kernel, its rewriter,
# launch hooks, and a value's numpy array (`.handle.data`)
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(
    ("rewritten_fn", "rewriter", "pre_run_hooks", "add_pre_run_hook", "handle"),
    "Triton's interpreter's own machinery runs code no rule read; launch your kernels as "
    "`kernel[grid](...)`"))
# A raw view of memory: storages hand out addresses that numpy's interface dicts
# (stride_tricks.DummyArray) map for host code; symbolic sizes run their Python methods inside
# aten's kernels, past both guard modes.
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("DummyArray", "ctypeslib"), _SHARED_MEMORY))
_SYMBOLIC = ("symbolic sizes call their Python methods from inside torch's kernels, where no "
             "guard runs; use plain ints")
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("SymInt", "SymFloat", "SymBool", "SymNode"), _SYMBOLIC))


DATETIME_DTYPES = ("m8", "datetime64", "timedelta64")  # numpy dtype strings ("M8[s]" too)
# Refused attribute names that are natural names of a model's own state (`self.buffer`, a scratch
# tensor): allowed on `self` in classes built only on nn.Module when the file stores them.
OWN_NAMES_ALLOWED = frozenset({"buffer", "raw", "handle"})


def forbidden_attribute(name: str) -> str | None:
    """Why an attribute (or imported) name is refused: FORBIDDEN_ATTRIBUTES and every torch
    storage class (`UntypedStorage`, `FloatStorage`, ...). (torch's `sym_*` functions are
    refused by their dotted name, in _forbidden_reason: `self.sym_table` is the file's own.)"""
    if name in FORBIDDEN_ATTRIBUTES:
        return FORBIDDEN_ATTRIBUTES[name]
    if name.endswith("Storage") and name[:1].isupper():
        return _SHARED_MEMORY
    return None


FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(
    ("redirect_stdout", "redirect_stderr", "printoptions", "set_printoptions",
     "set_string_function"), "capturing printed output (or formatting it element by element) "
    "hands values to host code; return results through tensors"))
# Strings that name what only a namespace lookup could use (`ns["exec"]`); `eval`/`compile`/`open`
# are common words, and running them is refused at run time (integrity.guard_submission_actions).
FORBIDDEN_TEXT = {"exec", "globals", "locals", "vars", "breakpoint"} | {
    name for name in FORBIDDEN_ATTRIBUTES if name.startswith(("f_", "tb_", "gi_", "cr_", "ag_"))}

# Module roots whose attributes a submission may not assign (monkeypatching).
PROTECTED_ROOTS = ("torch", "triton", "numpy", "math", "os", "sys")

MAGIC_METHODS = {
    "__torch_function__": _DISPATCH,
    "__torch_dispatch__": _DISPATCH,
    "__del__": "finalizers run after the guard has exited",
    "__getattr__": _INTROSPECTION,
    "__getattribute__": _INTROSPECTION,
    "__array_function__": _ARRAYS,
    "__array_ufunc__": _ARRAYS,
    # class patterns and isinstance consult these: `case Any(B)` reads attributes by string
    "__match_args__": _INTROSPECTION,
    "__subclasshook__": _INTROSPECTION,
    "__instancecheck__": _INTROSPECTION,
    "__subclasscheck__": _INTROSPECTION,
    # what an object claims to be (isinstance() reads `__class__`; a property there ran the
    # submission's code wherever the evaluator asked), and descriptors, which run on attribute
    # reads the evaluator makes
    "__class__": _INTROSPECTION, "__dict__": _INTROSPECTION, "__mro_entries__": _INTROSPECTION,
    "__get__": _INTROSPECTION, "__set__": _INTROSPECTION, "__delete__": _INTROSPECTION,
}
# torch calls these while it converts a value (a number inside `torch.tensor([...])`, an index,
# a sequence's items), some of them with its dispatch checks off: code in them ran unguarded.
_CONVERSION = ("torch calls it while converting a value, where no guard runs; pass plain "
               "numbers, tuples, lists and tensors")
MAGIC_METHODS.update(dict.fromkeys(
    ("__float__", "__int__", "__index__", "__complex__", "__bool__", "__trunc__", "__floor__",
     "__ceil__", "__round__", "__len__", "__length_hint__", "__getitem__", "__iter__", "__next__",
     "__reversed__", "__contains__", "__array__", "__array_interface__", "__array_struct__",
     "__array_priority__", "__array_wrap__", "__buffer__", "__release_buffer__", "__dlpack__",
     "__dlpack_device__", "__cuda_array_interface__", "__fspath__"), _CONVERSION))

JIT_DECORATORS = {"triton.jit"}
WRAPPING_DECORATORS = {"triton.autotune", "triton.heuristics"}
ALLOWED_MODEL_BASES = {"torch.nn.Module"}


@dataclass(frozen=True)
class StaticReport:
    kernels: tuple[str, ...]  # names of the @triton.jit functions defined
    autotuned: bool
    cuda_source: str = ""  # CUDA mode: the text load_inline builds (its source arguments)
    source: str = ""  # the text that was checked: what the evaluator imports


def static_check(source: str, language: str) -> StaticReport:
    """Raise StageFailure on the first rule broken; else describe the kernels found. Import
    `report.source`, the text that was checked (its `__main__` block blanked out)."""
    # Line ends as Python's import reads them: a lone `\r` ends a line there, but not for
    # tokenize.detect_encoding on a string's bytes, so `\r# coding: utf-7\r` hid its declaration
    # from the check below while the import honoured it (red-team pass 29)
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    source = without_main_block(_parse(source), source)
    report = _check_source(source, language)
    return dataclasses.replace(report, source=source)


# Nesting the checks walk recursively; Python's own parser stops near 200 levels of brackets.
MAX_NESTING = 100


def _check_source(source: str, language: str) -> StaticReport:
    tree = _parse(source)
    _check_nesting(tree)
    aliases = import_aliases(tree)
    _check_module_values(tree, aliases)
    _check_reserved_names(tree, aliases)
    _check_names(tree, aliases, language)
    _check_legacy_constructors(tree, aliases)
    _check_magic_methods(tree)
    _check_model_new(tree, aliases)
    if language == "cuda":
        _require(_calls(tree, aliases, "torch.utils.cpp_extension.load_inline"),
                 "CUDA mode: build your kernels with torch.utils.cpp_extension.load_inline "
                 "and call them from ModelNew.forward")
        source = load_inline_sources(tree, aliases)
        check_cuda_sources(source)
        return StaticReport(kernels=(), autotuned=False, cuda_source=source)
    return _check_triton(tree, aliases)


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def without_main_block(tree: ast.Module, source: str) -> str:
    """The source with its top-level `if __name__ == "__main__":` blocks blanked out (line
    numbers kept): they never run when the evaluator imports the file, so a local benchmark
    there is neither checked nor kept. What is checked is exactly what is imported."""
    lines = _LINES.findall(source)  # the parser's lines: \r\n, \r or \n (not \f or U+2028)
    for stmt in tree.body:
        if _is_main_guard(stmt):
            for i in range(stmt.lineno - 1, stmt.end_lineno):
                lines[i] = "\n"
    return "".join(lines)


def _is_main_guard(stmt: ast.stmt) -> bool:
    test = getattr(stmt, "test", None)
    return (isinstance(stmt, ast.If) and not stmt.orelse and isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def _fail(feedback: str, error_class: str = "format_violation"):
    raise StageFailure(STATIC_CHECK, error_class, feedback)


def _require(condition: bool, feedback: str) -> None:
    if not condition:
        _fail(feedback)


def _check_nesting(tree: ast.Module) -> None:
    """No expression deeper than MAX_NESTING (`1+1+...+1` with thousands of terms is one chain
    of BinOps): the checks walk the tree recursively, and a RecursionError would be the
    evaluator's failure, not a verdict."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            _fail(f"line {getattr(node, 'lineno', '?')}: expressions nest more than {MAX_NESTING} "
                  "levels deep; split them into statements")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


# What the evaluator writes the submission as, and so the only encodings it may declare.
SOURCE_ENCODINGS = {"utf-8", "utf-8-sig", "ascii"}


def _check_declared_encoding(source: str) -> None:
    """An encoding declaration (`# coding: unicode_escape`, PEP 263) makes Python's import decode
    the file into other text than the string checked here: `\\u000a` in a comment becomes a line
    of code no rule has read. Only the encodings the file is written in may be declared."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source.encode("utf-8")).readline)
    except UnicodeError:
        return  # a lone surrogate: the parse below refuses the text
    except SyntaxError as exc:  # an unknown encoding, or one that contradicts a BOM
        _fail(f"the encoding declaration cannot be used: {exc.msg}; remove it (submissions are "
              "UTF-8)", "syntax_error")
    if codecs.lookup(encoding).name not in SOURCE_ENCODINGS:
        _fail(f"the file declares the encoding `{encoding}` (PEP 263), under which Python would read "
              "other code than the text checked; remove the declaration (submissions are UTF-8)")


def _parse(source: str) -> ast.Module:
    _check_declared_encoding(source)
    try:
        return ast.parse(source.removeprefix("\ufeff"), filename="submission.py")  # a UTF-8 BOM
    except SyntaxError as exc:
        line = (exc.text or "").strip()
        _fail(f"SyntaxError at line {exc.lineno}: {exc.msg}" + (f": `{line}`" if line else ""),
              "syntax_error")
    except UnicodeError:  # a lone surrogate: not UTF-8, so not a Python file
        _fail("the code is not valid UTF-8 text (it holds a lone surrogate)", "syntax_error")
    except ValueError as exc:  # null bytes
        _fail(f"the code cannot be parsed: {exc} (null bytes are not Python text)", "syntax_error")
    except (MemoryError, RecursionError):
        _fail(f"the code is nested too deeply to parse (at most {MAX_NESTING} levels)", "syntax_error")


# In any string (inline PTX through tl.inline_asm_elementwise, for one): the GPU's own clocks.
GPU_CLOCK_TEXT = ("globaltimer", "%clock")


def _is_module(name: str) -> bool:
    """By the object, not the spelling: `torch.nn.functional.torch` is the torch module. A
    top-level module not imported in this process yet is one too (`import torch` in a process
    that never loaded torch)."""
    return isinstance(sys.modules.get(name), types.ModuleType) or isinstance(
        _resolve(name), types.ModuleType) or (
        "." not in name and name in ALLOWED_IMPORTS
        and importlib.util.find_spec(name) is not None)


def _is_data(name: str) -> bool:
    """A plain value the imports reach (a dtype, a number, a string), not a module, class or
    callable that could lead further."""
    value = _resolve(name, load=False)
    return value is not None and not callable(value) and not isinstance(value, types.ModuleType) and (
        isinstance(value, (int, float, str, bool, _dtype_types())))


def _dtype_types() -> tuple:
    """dtype classes of torch and Triton, when loaded (the static check imports neither)."""
    kinds = []
    for module, attr in (("torch", "dtype"), ("triton.language", "dtype")):
        kind = getattr(sys.modules.get(module), attr, None)
        if isinstance(kind, type):
            kinds.append(kind)
    return tuple(kinds)


def _check_module_values(tree: ast.Module, aliases: dict[str, str]) -> None:
    """Modules are used only through their attributes: `t = torch` (or `[torch]`, a default
    argument, a lambda) would carry torch past every rule keyed on resolved names. Simple
    assignments of other names the imports reach (`T = torch.Tensor`) become aliases instead,
    bound once."""
    inner = {id(n.value) for n in nodes(tree) if isinstance(n, ast.Attribute)}
    # `getattr(tl, "float32")`, `hasattr(tl.extra, "cuda")`: attribute reads, checked as names
    inner |= {id(n.args[0]) for n in nodes(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in ("getattr", "hasattr") and len(n.args) >= 2
              and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)}
    called = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call)}
    stores = binding_counts(tree)
    simple = {id(n.value): n.targets[0].id for n in nodes(tree) if isinstance(n, ast.Assign)
              and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    changed = True
    while changed:  # aliases of aliases
        changed = False
        for node in nodes(tree):
            if not isinstance(node, (ast.Name, ast.Attribute)) or id(node) in inner or id(node) in called:
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                continue
            base = root(node)
            if base not in aliases:
                continue
            name = dotted(node, aliases) or ""
            target = simple.get(id(node))
            if target is not None and _is_data(name):
                continue  # `acc = tl.float32` twice: a value, not a route to anything
            if target is not None:
                if stores.get(target, 0) != 1:
                    _fail(f"{where(node)}: `{target}` is bound to `{name}` and to something else; "
                          "bind such names once")
                if aliases.get(target) != name:
                    aliases[target] = name
                    changed = True
            elif _is_module(name) or (isinstance(node, ast.Name) and node.id in aliases
                                        and _is_module(aliases[node.id])):
                _fail(f"{where(node)}: the module `{name}` is used as a value; use modules only "
                      "through their attributes (and bind them with import)")


# Names Triton's interpreter binds for the kernels it rewrites (its semantic layer works on the
# numpy arrays behind a kernel's values): a submission binding them itself could reach them.
INTERPRETER_NAMES = frozenset({"interpreter_semantic", "interpreter_builder"})


def _check_reserved_names(tree: ast.Module, aliases: dict[str, str]) -> None:
    """No import (anywhere, dead code included) or alias may take a builtin's name: the rules
    keyed on a builtin skip a name that resolves to an import, so `import triton.language as
    getattr` in an `if False:` block left the real getattr unchecked. Nor may any name be one the
    interpreter binds."""
    for name in sorted(set(aliases) & set(dir(builtins))):
        _fail(f"{where(_binding_of(tree, name))}: `{name}` is the name of a Python builtin; bind "
              "modules and their objects under names of their own")
    for node in nodes(tree):
        if isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.arg):
            name = node.arg
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[0]
        else:
            continue
        if name in INTERPRETER_NAMES:
            _fail(f"{where(node)}: `{name}` is a name Triton's interpreter binds for itself; "
                  "choose another")


def _binding_of(tree: ast.Module, name: str) -> ast.AST:
    """The first import or assignment that binds `name` (for the message's line)."""
    for node in nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in node.names):
            return node
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
    return tree


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
        return _SYMBOLIC
    return None


# What a submission may import at all: the standard library is too large to deny-list (debuggers,
# profilers, consoles and name resolvers all run or fetch code from strings).
ALLOWED_IMPORTS = {"torch", "triton", "math", "cmath", "numpy", "functools", "itertools", "operator",
                   "typing", "dataclasses", "collections", "enum", "abc", "textwrap", "os", "sys", "__future__",
                   "warnings", "contextlib", "random", "re", "numbers", "statistics"}
# not `copy`: its dispatch_table hands the reference model's own objects to the submission's
# reducer when the evaluator copies the reference


def _check_import_allowed(module: str, node: ast.AST) -> None:
    top = module.split(".")[0]
    if top not in ALLOWED_IMPORTS:
        _fail(f"{where(node)}: importing `{module}` is not allowed; submissions may import "
              f"{', '.join(sorted(ALLOWED_IMPORTS - {'__future__'}))}")


def _check_names(tree: ast.Module, aliases: dict[str, str], language: str) -> None:
    called = {id(n.func) for n in nodes(tree) if isinstance(n, ast.Call)}
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
    misused = misused_class(tree, {id(n) for a in _annotations(tree) for n in nodes(a)}, aliases)
    if misused is not None:
        _fail(f"{where(misused)}: `{getattr(misused, 'id', None) or misused.attr}` (a class of "
              "yours, or one of its methods) may only be called, named as a base, tested with "
              "isinstance/issubclass/super or `is`, iterated, indexed, or have its constants read: "
              "a method read off its class (`Holder.get`), or the class under another name "
              "(`K = Holder`), can be called with any object as `self`")
    for node in nodes(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in known:
            # e.g. what Triton's interpreter copies into a module's globals at the first launch
            _fail(f"{where(node)}: `{node.id}` is not defined in your file; use only names you "
                  "import or bind yourself")
        if isinstance(node, ast.MatchClass):
            _fail(f"{where(node)}: class patterns in `match` are not allowed: they read "
                  f"attributes by name ({_INTROSPECTION})")
        text = _constant_text(node)
        if text is not None and (
                text.startswith("__") and text.endswith("__") and text not in ALLOWED_DUNDER_TEXT
                or text in FORBIDDEN_TEXT):
            _fail(f"{where(node)}: the string {text!r} is not allowed: it names what the rules "
                  f"refuse, for a lookup they cannot see ({_INTROSPECTION})")
        if (isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr.endswith("__")
                and node.attr not in ALLOWED_DUNDER_ATTRIBUTES
                and not (node.attr == "__class__" and id(node) in named)):
            # an allow-list: `__getstate__` of a module is its namespace, `__reduce__` of a method
            # hands out getattr, and new ones appear with Python versions
            _fail(f"{where(node)}: `.{node.attr}` is not allowed: special attributes other than "
                  f"{', '.join(sorted(ALLOWED_DUNDER_ATTRIBUTES))} reach into objects' machinery "
                  f"({_INTROSPECTION})")
        if isinstance(node, ast.Attribute):
            attr = node.attr
            if (attr.startswith("_") and not attr.startswith("__") and root(node) not in aliases
                    and id(node) not in own and attr not in NAMEDTUPLE_API):
                _fail(f"{where(node)}: `.{attr}` is not allowed: private attributes of objects "
                      "other than your own are not an API for kernels (your own: `self._x` or "
                      "`cls._x` in a method of your class, for an `_x` your code binds there)")
            # on `self` too: `self.compile()` is torch.compile (nn.Module.compile)
            if attr in SHADOWED_MODULES and not (root(node) == "os" and attr == "path"):
                _fail(f"{where(node)}: `.{attr}` is not allowed: it names a module the rules "
                      f"refuse ({_INTROSPECTION})")
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
                  f"what it reads): {_INTROSPECTION}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                clock in node.value.lower() for clock in GPU_CLOCK_TEXT):
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
            _fail(f"{where(node.value)}: `pin_memory=` is not allowed: {_SHARED_MEMORY}")
        elif isinstance(node, (ast.Attribute, ast.Name)):
            if isinstance(node, ast.Name) and forbidden_attribute(node.id):  # __builtins__ etc.
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
            _fail(f"{where(node)}: calling `type(...)(...)` is not allowed: {_INTROSPECTION}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
              and "type" not in aliases and id(node) not in compared):
            # `S = type(torch.cuda.current_stream())` is torch.cuda.Stream under a name no rule
            # follows; comparing types (`type(x) is T`) is all a kernel needs.
            _fail(f"{where(node)}: `type(...)` may only be compared with `is` (`type(x) is T`), not "
                  f"bound, passed, called or compared with operators a class can define: {_INTROSPECTION}")
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
                if isinstance(t, ast.Attribute) and root(t) is None:
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


PRIVATE_ROOTS = ("torch", "triton")


# Exact names allowed below a forbidden prefix: harmless, and in Triton's and torch's own examples.
ALLOWED_NAMES = {"triton.runtime.driver.active.get_active_torch_device", "torch._check",
                 "torch._assert", "os._exit", "triton.runtime.driver",
                 "triton.runtime.driver.active.utils.get_device_properties",
                 "triton.runtime.driver.active.get_current_device",
                 # Triton's tutorials' `is_cuda()`: the backend, architecture and warp size
                 "triton.runtime.driver.active.get_current_target",
                 # int-or-tuple normalisers of torch's conv modules, used by custom convolutions
                 "torch.nn.modules.utils._single", "torch.nn.modules.utils._pair",
                 "torch.nn.modules.utils._triple", "torch.nn.modules.utils._quadruple",
                 # nn.Linear.reset_parameters' own helpers, copied into honest __init__s
                 "torch.nn.init._calculate_fan_in_and_fan_out", "torch.nn.init._calculate_correct_fan"}
# os._exit only ends the evaluation (a crash)

# A named tuple's documented methods and fields, underscored only to stay clear of field names.
NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_make", "_fields", "_field_defaults"})


# Modules that other modules happen to import: `os.path.sys`, `torch.sys` reach them past the rules.
SHADOWED_MODULES = {"sys", "os", "builtins", "importlib", "gc", "inspect", "subprocess", "ctypes",
                    "threading", "types", "pickle", "marshal", "io", "shutil", "socket", "weakref"}


def _chain(name: str, load: bool = True, classes: bool = True):
    """(attribute, object) for each step of `a.b.c`, through module (and class) namespaces,
    never a module's __getattr__; a submodule not loaded yet is loaded first (`numpy.ma`) when
    `load`, so what it holds is seen. Stops where the chain cannot be followed."""
    parts = name.split(".")
    value = sys.modules.get(parts[0])
    kinds = (types.ModuleType, type) if classes else types.ModuleType
    for part in parts[1:]:
        if not isinstance(value, kinds):
            return
        found = vars(value).get(part)
        if found is None and load and isinstance(value, types.ModuleType):
            found = _submodule(value, part)
        if found is None:
            return
        value = found
        yield part, value


def _reaches_shadowed_module(name: str) -> str | None:
    """Walk `a.b.c` through the modules already loaded: any step onto `sys`, `builtins` & co.,
    or onto any module a submission could not import (`triton.language.extra.pkgutil`,
    `torch.cuda.tunable.mp`, `triton.compiler.compiler.time`), whatever the attribute is called
    there (`enum.bltns`, `collections._sys`)."""
    for i, (part, value) in enumerate(_chain(name, classes=False), start=1):
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


_forbidden_objects: dict[int, tuple[object, str]] = {}


def _forbidden_object_reason(name: str) -> str | None:
    """A forbidden class or function under another name (`torch.mtia.Stream` is `torch.Stream`,
    `torch.mtia.Event` is `torch.Event`), or a subclass of a forbidden class."""
    if not _forbidden_objects:
        for forbidden, reason in FORBIDDEN_NAMES.items():
            obj = _resolve(forbidden, load=False)  # what is not loaded cannot be aliased yet
            if obj is not None and not isinstance(obj, types.ModuleType):
                _forbidden_objects[id(obj)] = (obj, reason)
    obj = _resolve(name)
    if obj is None or isinstance(obj, types.ModuleType):
        return None
    if id(obj) in _forbidden_objects and _forbidden_objects[id(obj)][0] is obj:
        return _forbidden_objects[id(obj)][1]
    if isinstance(obj, type):
        for other, reason in _forbidden_objects.values():
            if isinstance(other, type) and issubclass(obj, other):
                return reason
    return None


ENVIRON_READS = {"os.environ", "os.environ.get", "os.environ.keys", "os.environ.items",
                 "os.environ.values", "os.environ.copy"}


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
    head = ".".join(name.split(".")[:2])
    if (name.split(".")[0] == "os" and head not in OS_ALLOWED) or (
            name.split(".")[0] == "sys" and head not in SYS_ALLOWED):
        _fail(f"{where(node)}: `{name}` is not allowed: {_FILES}")
    canonical = _canonical(name)
    defined = _defined_name(name)
    reason = (_forbidden_reason(name, language) or _forbidden_reason(canonical, language)
              or _forbidden_object_reason(name))
    if not reason and defined:
        reason, canonical = _forbidden_reason(defined, language), defined
    if reason:
        also = "" if canonical == name else f" (it is `{canonical}`)"
        _fail(f"{where(node)}: `{name}`{also} is not allowed: {reason}")


# Where torch's natively implemented API says it was defined (`torch.nn.functional.linear` is
# `torch._C._nn.linear`, `torch.Generator` is `torch._C.Generator`): judged by the name used, and
# by the dispatch guard when it runs.
NATIVE_TORCH = ("torch._C", "torch._ops")


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
    for i, (_, value) in enumerate(_chain(name, classes=False), start=1):
        if isinstance(value, types.ModuleType):
            canonical = ".".join([value.__name__] + parts[i + 1:])
    return canonical


# torch's legacy constructors: `torch.Tensor(ndarray)`, `torch.FloatTensor(ndarray)` and
# `t.new(ndarray)` make a plain tensor over the array's memory (red-team pass 22: numpy computed
# in it while copy kernels moved the data), and no torch mode sees the type's constructor.
_LEGACY_TENSOR_TYPES = {f"torch.{prefix}{kind}Tensor" for prefix in ("", "cuda.")
                        for kind in ("", "Float", "Double", "Half", "BFloat16", "Byte", "Char",
                                     "Short", "Int", "Long", "Bool", "ComplexFloat", "ComplexDouble")}


def _check_legacy_constructors(tree: ast.Module, aliases: dict[str, str]) -> None:
    """Legacy constructors only called, with a size (two or more arguments, or one int literal:
    one other argument is data, whose memory the tensor shares); their types only named in
    annotations, type tests and typing generics (`(torch.FloatTensor,)[0](arr)` and
    `m = x.new; m(arr)` call them unseen)."""
    annotations = {id(n) for a in _annotations(tree) for n in nodes(a)}
    parents = {id(c): p for p in nodes(tree) for c in ast.iter_child_nodes(p)}
    rebound = bound_names(tree)
    for node in nodes(tree):
        if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
            continue
        name = dotted(node, aliases) or ""
        new = (isinstance(node, ast.Attribute) and node.attr == "new"
               and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")))
        if not (new or name in _LEGACY_TENSOR_TYPES) or id(node) in annotations:
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            if not (any(isinstance(a, ast.Starred) for a in parent.args)
                    or any(k.arg is None for k in parent.keywords)
                    or (len(parent.args) == 1 and not _certainly_int(parent.args[0], rebound))):
                continue
        elif not new and _type_use(node, parents, aliases):
            continue
        _fail(f"{where(node)}: `{name or '.new'}` may be called only with a size (one argument: an "
              "int literal, `int(...)` or `len(...)`; its type named only in annotations, type "
              f"tests and typing constructs): {_SHARED_MEMORY} (a legacy constructor given an "
              "array shares its memory); use torch.empty/zeros(size) or torch.tensor(data)")


def _certainly_int(expr: ast.AST, rebound: set[str]) -> bool:
    """An int literal, the builtins `int(...)` or `len(...)` (names the file does not rebind), or
    arithmetic of those: a size, never an array (`int(array)` is a Python int or an error)."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return expr.func.id in ("int", "len") and expr.func.id not in rebound
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        return _certainly_int(expr.left, rebound) and _certainly_int(expr.right, rebound)
    return False


def _type_use(node, parents: dict, aliases: dict[str, str]) -> bool:
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
            or name.value in SHADOWED_MODULES):  # getattr(a_module, "sys") is `.sys`
        _fail(f"{where(node)}: `{node.func.id}(..., {name.value!r})` is not allowed: {_INTROSPECTION}")


def _annotations(tree: ast.Module):
    for node in nodes(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


_TYPE_TEXT_NODES = (ast.Expression, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List,
                    ast.Load, ast.BinOp, ast.BitOr, ast.Constant)


def _plain_type_text(text: str) -> bool:
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


def _check_magic_methods(tree: ast.Module) -> None:
    """Methods that run evaluator-invisible code later, or intercept torch for a whole type."""
    for annotation in _annotations(tree):
        for n in nodes(annotation):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and not _plain_type_text(n.value):
                _fail(f"line {annotation.lineno}: string annotations other than plain type names "
                      "(`\"torch.Tensor\"`, `\"Optional[int]\"`) are not allowed: evaluated later, "
                      "they are code the static check cannot read")
    for node in nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in MAGIC_METHODS:
            _fail(f"line {node.lineno}: defining `{node.name}` is not allowed: {MAGIC_METHODS[node.name]}")
        # bound any other way in a class body: `for __float__ in ...`, `import f as __index__`
        bound = (node.id if isinstance(node, ast.Name) else node.asname if isinstance(node, ast.alias)
                 else node.arg if isinstance(node, ast.arg) else None)
        if bound in MAGIC_METHODS:
            _fail(f"{where(node)}: the name `{bound}` is not allowed: {MAGIC_METHODS[bound]}")
        if isinstance(node, ast.ClassDef):
            if any(k.arg == "metaclass" for k in node.keywords) or any(
                    isinstance(b, ast.Name) and b.id == "type" for b in node.bases):
                _fail(f"line {node.lineno}: metaclasses are not allowed: a class's `__eq__` or "
                      f"`__instancecheck__` would run wherever the evaluator compares types "
                      f"({_INTROSPECTION})")
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
                for t in targets:
                    if isinstance(t, ast.Name) and t.id in MAGIC_METHODS:
                        _fail(f"line {stmt.lineno}: defining `{t.id}` is not allowed: {MAGIC_METHODS[t.id]}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
                and len(node.args) == 3):
            _fail(f"line {node.lineno}: creating classes with `type(name, bases, namespace)` is not "
                  f"allowed: {_INTROSPECTION}")


def _check_model_new(tree: ast.Module, aliases: dict[str, str]) -> None:
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"]
    _require(bool(classes), "define a top-level `class ModelNew(nn.Module)` with the same "
             "constructor arguments as the reference Model and a forward method")
    cls = classes[-1]
    bases = [dotted(b, aliases) for b in cls.bases]
    _require(len(bases) == 1 and bases[0] in ALLOWED_MODEL_BASES,
             f"line {cls.lineno}: ModelNew must subclass nn.Module directly and define its "
             f"own forward (found bases: {', '.join(str(b) for b in bases) or 'none'}); no base "
             "class of your own, and not the reference Model")
    _require(any(isinstance(n, ast.FunctionDef) and n.name == "forward" for n in cls.body),
             f"line {cls.lineno}: ModelNew has no forward method")


def _decorator_names(fn: ast.FunctionDef, aliases: dict[str, str]) -> list[str]:
    names = []
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        names.append(dotted(target, aliases) or "")
    return names


def _check_jit_as_decorator(tree: ast.Module, aliases: dict[str, str]) -> None:
    """`triton.jit` only as a decorator: `kernel = triton.jit(body)` makes a kernel whose body
    the kernel-body rules would never read (in the interpreter it ran numpy)."""
    decorating = {id(d.func if isinstance(d, ast.Call) else d) for fn in nodes(tree)
                  if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  for d in fn.decorator_list}
    for node in nodes(tree):
        if (isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in decorating
                and isinstance(getattr(node, "ctx", None), ast.Load)
                and dotted(node, aliases) in JIT_DECORATORS):
            _fail(f"{where(node)}: `triton.jit` may only decorate a kernel (`@triton.jit`), so "
                  "that its body is checked as one")
    for fn in nodes(tree):  # and it wraps that very body: under it no other decorator
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        names = _decorator_names(fn, aliases)
        if not any(n in JIT_DECORATORS for n in names):
            continue
        if not isinstance(fn, ast.FunctionDef):
            _fail(f"{where(fn)}: `@triton.jit` may only decorate a plain `def`")
        first_jit = next(i for i, n in enumerate(names) if n in JIT_DECORATORS)
        if first_jit != len(names) - 1 or any(n not in (*WRAPPING_DECORATORS, "staticmethod")
                                              for n in names[:first_jit]):
            _fail(f"{where(fn)}: `@triton.jit` must be the innermost decorator of `{fn.name}`, with "
                  "only @triton.autotune, @triton.heuristics and @staticmethod above it: a "
                  "decorator under it would hand Triton a body other than the one checked")


def _check_triton(tree: ast.Module, aliases: dict[str, str]) -> StaticReport:
    _check_jit_as_decorator(tree, aliases)
    kernels, autotuned = [], False
    functions = [n for n in nodes(tree) if isinstance(n, ast.FunctionDef)]
    jitted = [fn for fn in functions if any(d in JIT_DECORATORS for d in _decorator_names(fn, aliases))]
    _check_kernels_at_module_level(tree, {id(fn) for fn in jitted})
    allowed_globals, constants = kernel_globals(tree, aliases, jitted)
    for fn in jitted:
        kernels.append(fn.name)
        autotuned |= any(d in WRAPPING_DECORATORS for d in _decorator_names(fn, aliases))
        check_kernel(fn, aliases, allowed_globals, constants)
    _check_kernels_read_only(tree, {fn.name for fn in jitted})
    _require(bool(kernels), "Triton mode: define at least one `@triton.jit` kernel and launch it "
             "from ModelNew.forward as `kernel[grid](...)`")
    launched = {
        n.func.value.id
        for n in nodes(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)
        and isinstance(n.func.value, ast.Name)
    }
    launched |= {n.func.value.attr for n in nodes(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Subscript) and isinstance(n.func.value, ast.Attribute)}
    if not launched & set(kernels) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)
                                           for n in nodes(tree)):
        # `kernel = a if ... else b; kernel[grid](...)`, `self.kernel = k`, `KERNELS["k"]`: a
        # launch of something a kernel's name was read into, outside kernel bodies
        in_kernels = {id(n) for fn in jitted for n in nodes(fn)}
        launched |= {n.id for n in nodes(tree) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Load) and id(n) not in in_kernels}
    _require(bool(launched & set(kernels)),
             f"Triton mode: your kernels ({', '.join(kernels)}) are never launched; launch one "
             "from ModelNew.forward as `kernel[grid](...)`")
    return StaticReport(kernels=tuple(kernels), autotuned=autotuned)


def _check_kernels_at_module_level(tree: ast.Module, jitted: set[int]) -> None:
    """A kernel defined inside a function (a factory, forward) reads its enclosing function's
    names as closure cells: what they hold at run time (any host function, handed to
    `tl.reduce` as a combine and run by the interpreter on the block's values) is no binding the
    rules can read. Kernels live at module level, or in a class at module level."""
    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if id(child) in jitted and in_function:
                _fail(f"{where(child)}: the kernel `{child.name}` is defined inside a function; "
                      "define @triton.jit functions at module level (or in a class there): the "
                      "names a nested kernel reads from its enclosing function are closure "
                      "cells, which no rule can check")
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                           ast.Lambda)))
    visit(tree, False)


def _check_kernels_read_only(tree: ast.Module, kernels: set[str]) -> None:
    """A kernel object is launched, never changed: assigning into it (`k.rewritten_fn[k.fn] =
    body`, `k.fn = other`, `setattr(k, ...)`, `del k.x`) swapped what the interpreter runs for a
    function no rule had read."""
    for node in nodes(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            targets = [ast.Attribute(value=node.args[0], attr="?", ctx=ast.Store(), lineno=node.lineno)]
        for target in targets:
            for part in nodes(target):
                if isinstance(part, (ast.Attribute, ast.Subscript)) and root(part) in kernels:
                    _fail(f"{where(node)}: `{root(part)}` is a kernel: launch it, do not change it "
                          "(its attributes and caches decide what runs)")


def _calls(tree: ast.Module, aliases: dict[str, str], name: str) -> bool:
    return any(
        isinstance(n, ast.Call) and dotted(n.func, aliases) == name for n in nodes(tree)
    )
