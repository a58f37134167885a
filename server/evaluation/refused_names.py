"""What a submission may name, and why the rest is refused: the static check's tables (data, not
branches), matched against dotted names with import aliases resolved (name_rules.py)."""

from __future__ import annotations

import ast

from .cuda_sources import CLOCKS_REASON, PROFILER_REASON, STREAMS_REASON


_GENERATED = "generated code is not a hand-written kernel; write the kernel yourself"


_DISPATCH = "reaching into PyTorch's dispatcher, custom ops or modes can hide work from the guard"


_GRAPHS = "CUDA graphs replay work the dispatch guard cannot see"


_CONCURRENCY = "threads, processes and native calls run work the dispatch guard cannot see"


_ARRAYS = "other array libraries compute outside your kernel"


INTROSPECTION = "introspection can reach into the evaluator"
# functools.update_wrapper sets one object's attributes from another's, by names no rule reads
# (its `__dict__` too): red-team pass 73 gave a kernel the interpreter's `rewriter` of an object
# made with `dataclasses.make_dataclass`, and the interpreter ran a body no rule had read
COPIED_ATTRIBUTES = ("it copies one object's attributes onto another by name, where no rule sees "
                     "them assigned (a kernel's body was swapped that way); `@functools.wraps(f)` "
                     "over a `def` is fine")




_LIBRARY = "library kernels are not your kernel; write it yourself"


# enum.global_enum writes an enum's members into the globals of the module its class names
# (`Enum(..., module="contextlib")`), any module loaded: red-team pass 75 shadowed the builtin
# `next` in contextlib's globals with a callable member, which then ran at every `with` of a
# context manager the evaluator entered, outside the guard, and computed the output there
OTHER_MODULES_GLOBALS = ("it writes the enum's members into the globals of the module the class "
                         "names (any module, by `module=`), where they shadow that module's "
                         "builtins and functions for code the evaluator runs; use the enum's "
                         "members through the enum (`Color.RED`)")


# The warning filters are a list the evaluator's own `warnings.simplefilter` compares its entry
# against after every call, outside the guard: red-team pass 76 put a tuple there whose message
# was a `collections.UserString` with a `data` property, which that comparison ran (and a
# message object's `match` runs at every warning issued). `filterwarnings`/`simplefilter` and
# `catch_warnings` build their entries from strings and classes only.
WARNING_FILTERS = ("the evaluator compares and calls its entries outside the guard; use "
                   "`warnings.filterwarnings`, `warnings.simplefilter` or `warnings.catch_warnings`")


# logging's objects, which torch's modules hold as plain values (`torch.nn.parallel.distributed
# .logger`; its `manager` hands out every logger): red-team pass 77 set `torch.autograd.graph`'s
# logger to DEBUG and added a filter, which then ran, outside the guard, at every node of the
# evaluator's own backward passes (the unit trials' ascents: it knew the next inputs driven)
LOGGERS = ("a logger's filters and handlers run for records the evaluator's own code logs, "
           "outside the guard; submissions may not reach logging's objects")


_EVALUATOR = "the evaluator and the task's reference are not yours to import"
_ATTRIBUTE_PATHS = ("quantization and pruning tools walk attribute paths given as strings, past "
                    "every rule on names; kernels need neither")


FILES = ("submissions may not touch files, descriptors, sockets or processes (of os and sys only "
          "environ, getenv, path, cpu_count, getpid, exit, stdout and stderr are available)")


# The only `os` names a kernel file has a use for; everything else in `os` is refused (it reaches
# descriptors, files and processes).
OS_ALLOWED = {"os", "os.environ", "os.getenv", "os.path", "os.cpu_count", "os.getpid", "os._exit"}


SYS_ALLOWED = {"sys", "sys.exit", "sys.maxsize", "sys.version_info", "sys.platform", "sys.stdout",
               "sys.stderr", "sys.float_info"}


# einops (KernelBench's Mamba2 references import it): its functions, exactly, and nothing else.
# Its other names reach further: `einops.einops.get_backend(x).np` and `.torch` are numpy and
# torch as plain values (files, torch.library), `einops.tests.run_tests.run` starts a shell
# command, `einops.einops.string.Formatter` looks attributes up by any name. What the allowed
# functions compute goes through torch under the dispatch guard: layout (rearrange, repeat, pack,
# unpack) is allowed there, arithmetic (reduce, einsum) refused like any torch computation.
EINOPS_ALLOWED = {"einops", "einops.rearrange", "einops.repeat", "einops.reduce", "einops.einsum",
                  "einops.pack", "einops.unpack", "einops.parse_shape", "einops.EinopsError"}


# Dotted-name prefix -> why it is forbidden. Matched against resolved names (aliases followed).
ALLOCATOR_REASON = ("the allocator's and the device's state (live blocks and their addresses, "
                    "memory in use, utilisation, clocks) locates the evaluator's buffers and tells "
                    "its calls apart; submissions may not read or change it")

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
    # runs any callable under torch._C._DisableTorchDispatch: the guard's dispatch mode is off
    # there (red-team pass 45: torch.relu and torch.matmul scored through it on the cpu evaluator)
    "torch.sparse.semi_structured.fallback_dispatcher": _DISPATCH,
    "torch.sparse._semi_structured_ops": _DISPATCH,
    "torch.utils.dlpack": _ARRAYS,
    "torch._tensor_str": INTROSPECTION,
    "torch.cuda.graph": _GRAPHS,
    "torch.cuda.graphs": _GRAPHS,
    "torch.cuda.CUDAGraph": _GRAPHS,
    "torch.cuda.make_graphed_callables": _GRAPHS,
    "torch.utils.cpp_extension.load": "build CUDA sources inline with load_inline",
    "torch.utils.cpp_extension.load_inline.__wrapped__": INTROSPECTION,
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
    "importlib": INTROSPECTION,
    "builtins": INTROSPECTION,
    "gc": INTROSPECTION,
    "inspect": INTROSPECTION,
    "sys.modules": INTROSPECTION,
    "sys._getframe": INTROSPECTION,
    "sys.settrace": INTROSPECTION,
    "sys.setprofile": INTROSPECTION,
    "pickle": INTROSPECTION,
    "server": _EVALUATOR,
    "kernel_env": _EVALUATOR,
    "kernel_env_reference": _EVALUATOR,
    "submission": _EVALUATOR,
    "__main__": _EVALUATOR,
    "io": FILES,
    "pathlib": FILES,
    "shutil": FILES,
    "tempfile": FILES,
    "fcntl": FILES,
    "mmap": FILES,
    "socket": FILES,
    "select": FILES,
    "logging": _CONCURRENCY,
    "queue": _CONCURRENCY,
    "sched": _CONCURRENCY,
    "socketserver": _CONCURRENCY,
    "weakref": INTROSPECTION,
    "atexit": INTROSPECTION,
    "torch.cuda.cudart": _DISPATCH,
    "operator.attrgetter": INTROSPECTION,
    "operator.methodcaller": INTROSPECTION,
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
    "triton.runtime": INTROSPECTION,
    "types": INTROSPECTION,
    "typing.get_type_hints": "it evaluates annotation strings the static check cannot read",
    "typing.get_args": "it hands back the types a generic or union names, a legacy tensor "
                       "constructor among them (`get_args(Tuple[torch.FloatTensor])[0](array)`)",
    "typing.ForwardRef": "it evaluates annotation strings the static check cannot read",
    "functools.singledispatch": "it evaluates annotation strings the static check cannot read",
    "functools.update_wrapper": COPIED_ATTRIBUTES,
    "enum.global_enum": OTHER_MODULES_GLOBALS,
    "warnings.filters": WARNING_FILTERS, "warnings.onceregistry": WARNING_FILTERS,
    "functools.singledispatchmethod": "it evaluates annotation strings the static check cannot read",
    "numpy.load": FILES, "numpy.save": FILES, "numpy.savez": FILES, "numpy.savez_compressed": FILES,
    "numpy.savetxt": FILES, "numpy.loadtxt": FILES, "numpy.genfromtxt": FILES, "numpy.fromfile": FILES,
    "numpy.memmap": FILES, "numpy.ctypeslib": _CONCURRENCY, "numpy.f2py": _CONCURRENCY,
    "numpy.testing": INTROSPECTION, "numpy.lib": FILES,
    # imports any module named by a string (`toplevel=`) from numpy's frame (red-team pass 85)
    "numpy.info": INTROSPECTION,
    # evaluates part of a type name's text as Python, with the real builtins (red-team pass 88)
    "triton.language.str_to_ty": INTROSPECTION,
    # quantization and pruning tooling walks attribute paths given as strings
    # (`getattr_from_fqn`, `fqn_to_module`, `fuse_modules`: red-team pass 87 reached
    # `enum.Enum.__init__.__globals__`, builtins among them); no kernel needs it
    "torch.ao": _ATTRIBUTE_PATHS, "torch.quantization": _ATTRIBUTE_PATHS,
    "torch.nn.quantized": _ATTRIBUTE_PATHS, "torch.nn.intrinsic": _ATTRIBUTE_PATHS,
    "torch.nn.qat": _ATTRIBUTE_PATHS, "torch.nn.quantizable": _ATTRIBUTE_PATHS, "numpy.distutils": _CONCURRENCY,
    "torch.load": FILES, "torch.save": FILES, "torch.hub": FILES, "torch.package": FILES,
    "torch.serialization": FILES, "torch.classes": _DISPATCH, "torch.from_file": FILES,
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
    # The caching allocator's and the device's state (red-team pass 43): memory_snapshot lists
    # every live block's address (with x.data_ptr() a kernel reaches the evaluator's buffers),
    # and memory_allocated moved by 128 MiB when timing freed its L2-flush buffer, just before
    # kernel provenance's recorded calls (a submission honest only on those would pass them).
    "torch.cuda.memory": ALLOCATOR_REASON,
    "torch.accelerator.memory": ALLOCATOR_REASON,
    **{f"torch.cuda.{name}": ALLOCATOR_REASON for name in (
        "memory_snapshot", "memory_stats", "memory_stats_as_nested_dict", "memory_allocated",
        "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_cached",
        "max_memory_cached", "memory_summary", "mem_get_info", "list_gpu_processes",
        "host_memory_stats", "host_memory_stats_as_nested_dict", "caching_allocator_alloc",
        "caching_allocator_delete", "get_allocator_backend", "set_per_process_memory_fraction",
        "get_per_process_memory_fraction", "change_current_allocator", "CUDAPluggableAllocator",
        "MemPool", "use_mem_pool", "reset_peak_memory_stats", "reset_accumulated_memory_stats",
        "reset_max_memory_allocated", "reset_max_memory_cached", "utilization", "temperature",
        "power_draw", "clock_rate", "device_memory_used", "memory_usage")},
    **{f"torch.accelerator.{name}": ALLOCATOR_REASON for name in (
        "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
        "memory_stats", "get_memory_info", "reset_accumulated_memory_stats",
        "reset_peak_memory_stats")},
    # torch modules whose functions read the host clock: a kernel that spins longer when its
    # data says so, timed from forward, hands that data to host code (red-team pass 24).
    # Every other torch and Triton module importing time, datetime or timeit is refused already.
    "torch.utils.jit": CLOCKS_REASON,  # log_extract.time_cpu: perf_counter around a call
    "torch.utils.tensorboard": CLOCKS_REASON,  # SummaryWriter: wall-clock stamps, files
    "numpy.datetime64": CLOCKS_REASON,  # np.datetime64("now"): a clock of whole seconds
    "numpy.timedelta64": CLOCKS_REASON,
    "marshal": INTROSPECTION,
    "triton.ops": _LIBRARY,
    "triton.kernels": _LIBRARY,
    "triton_kernels": _LIBRARY,
    "triton.runtime.interpreter": INTROSPECTION,
    # Triton's drivers and compilers: they build and load native modules from source strings
    "triton.backends": _CONCURRENCY,
    # Triton's settings (`knobs.setenv`, launch hooks) and its profiler (it takes CUPTI)
    "triton.knobs": INTROSPECTION, "triton.profiler": PROFILER_REASON,
    "triton.JITFunction": INTROSPECTION,
    # Triton's compiler's own objects and entry points (`AsmDict`, a dict subclass, carried a
    # Python function into a kernel body); kernels are compiled by launching them
    "triton.compiler": INTROSPECTION, "triton.compile": INTROSPECTION,
    # a C++ thread pool running a Python module: threads the guard is not entered on
    "torch.utils.throughput_benchmark": _CONCURRENCY,
    # torch._C's, public at torch's top level: switches off __torch_function__ handling (the cpu
    # evaluator's escape check among it)
    "torch.DisableTorchFunction": _DISPATCH, "torch.DisableTorchFunctionSubclass": _DISPATCH,
    # torch's top-level re-exports of the dispatcher's key sets: excluding the Python key hides
    # every operation from the dispatch guard (red-team pass 20: torch.relu ran unseen)
    "torch.ExcludeDispatchKeyGuard": _DISPATCH, "torch.DispatchKeySet": _DISPATCH,
    "torch.DispatchKey": _DISPATCH,
    "torch.utils.file_baton": FILES,
    # Library functions that write, copy or run files for their caller (red-team pass 50): the
    # audit hook charges an action to the first library frame, so these acted unseen. hipify's
    # `file_specific_replacement` edits any text file, `hipify(...)` copies a whole tree;
    # `triton.tools.compile.compile_kernel` executes the Python file it is given (a copy of the
    # submission edited that way ran unchecked code, listed and wrote other evaluations' folders);
    # `GdsFile` calls os.open with the caller's flags (create, truncate); ONNX export writes its
    # file; TunableOp reads and writes results files. triton.tools' tensor descriptors stay.
    "torch.utils.hipify": FILES,
    "triton.tools.compile": FILES, "triton.tools.link": FILES, "triton.tools.disasm": FILES,
    "triton.tools.build_extern": FILES, "triton.tools.triton_to_gluon_translater": FILES,
    "torch.cuda.gds": FILES, "torch.onnx": FILES, "torch.cuda.tunable": FILES,
    # the same pass: readers of any file (`show_pickle.main`, `model_dump.get_model_info`) and
    # TorchScript builders that compile source strings (bundled inputs, mobile optimizer)
    "torch.utils.show_pickle": FILES, "torch.utils.model_dump": FILES,
    "torch.utils.bundled_inputs": _GENERATED, "torch.utils.mobile_optimizer": _GENERATED,
    # launchers: `run_cpu.main(args)` starts `python <any .py>` or, with no_python, any program
    # with any arguments (`sh -c <text>`), outside every guard; numa binding wraps commands for
    # numactl; this one deletes files of torch's own
    "torch.backends.xeon": _CONCURRENCY, "torch.numa": _CONCURRENCY,
    "torch.utils.cpp_extension.remove_extension_h_precompiler_headers": FILES,
    "numpy.ma.dump": FILES, "numpy.ma.load": FILES, "numpy.rec.fromfile": FILES,
    "numpy.fromregex": FILES,
    # red-team pass 89: `fromtextfile(path)` opens any file from numpy's frame; `loads` (older
    # numpys) is pickle's and `safe_eval` evaluates text
    "numpy.ma.mrecords": FILES, "numpy.ma.loads": FILES, "numpy.ma.dumps": FILES,
    "numpy.safe_eval": INTROSPECTION,
    # red-team pass 89: gluon's descriptors carry a layout whose repr Triton's launch path
    # evaluates as Python (refused at launch today as a foreign argument; gluon kernels are not
    # @triton.jit kernels either); the jiterator compiles CUDA text past CUDA mode's checks
    "triton.experimental": _GENERATED, "torch.cuda.jiterator": _GENERATED,
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
    "exec": INTROSPECTION,
    "eval": INTROSPECTION,
    "compile": INTROSPECTION,
    "__import__": INTROSPECTION,
    "globals": INTROSPECTION,
    "locals": INTROSPECTION,
    "dir": INTROSPECTION,
    "memoryview": "submissions may not read tensor memory on the host",
    "vars": INTROSPECTION,
    "open": "submissions may not read or write files",
    "breakpoint": INTROSPECTION,
    "input": "submissions may not read input",
}


# Common parameter and variable names: a file that binds them means its own value.
REBINDABLE_BUILTINS = {"input", "dir"}


# Special attributes a kernel may read (on anything): names, docs, versions, super().__init__.
ALLOWED_DUNDER_ATTRIBUTES = {"__init__", "__name__", "__qualname__", "__doc__", "__module__",
                             "__version__", "__call__"}


ALLOWED_DUNDER_TEXT = {"__main__"}  # `if __name__ == "__main__":`


def constant_text(node: ast.AST) -> str | None:
    """A string the file spells out, folded: literals, `+` of literals, `*` of a literal by a
    small int, f-strings and `"".join([...])` of literals, so `"__built" + "ins__"` reads as
    `"__builtins__"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = constant_text(node.left), constant_text(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # "_" * 2 (red-team pass 90)
        for text, count in ((node.left, node.right), (node.right, node.left)):
            folded = constant_text(text)
            if (folded is not None and isinstance(count, ast.Constant)
                    and type(count.value) is int and 0 <= count.value <= 64):
                return folded * count.value
        return None
    if isinstance(node, ast.JoinedStr):
        parts = [constant_text(v) for v in node.values]
        return "".join(parts) if all(p is not None for p in parts) else None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))):
        sep = constant_text(node.func.value)
        parts = [constant_text(e) for e in node.args[0].elts]
        return sep.join(parts) if sep is not None and all(p is not None for p in parts) else None
    return None


FORBIDDEN_ATTRIBUTES = {
    name: INTROSPECTION
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


# Objects handed back by library objects that lead anywhere (red-team pass 84): an
# AttributeError's `obj` is the object whose lookup failed (`enum.nope` gives the enum module,
# whose `bltns` is builtins); a Signature's `from_callable(f, eval_str=True)` (Triton's
# `triton.cdiv.signature`) evaluates string annotations as code; a numpy bit generator's `cffi`
# hands out raw addresses and function pointers.
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("obj", "from_callable", "str_to_ty"), INTROSPECTION))
# Refused only as an attribute read (`e.obj`): a variable of one's own may well be called `obj`.
ATTRIBUTE_ONLY = frozenset({"obj"})
FORBIDDEN_ATTRIBUTES["cffi"] = ("raw addresses and native function pointers reach memory no "
                                "guard sees; pass tensors to your kernels")


# Files written or read through a value's method (`ndarray.dump` pickles to a path)
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("tofile", "from_file", "dump"), FILES))


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
SHARED_MEMORY = ("tensors sharing memory with numpy arrays, Python buffers or pinned host "
                  "memory let host code compute what a kernel should; use torch.tensor (it "
                  "copies) and device memory")


FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(
    ("from_numpy", "frombuffer", "from_dlpack", "as_tensor", "asarray", "pin_memory",
     "cudaHostRegister", "share_memory_"), SHARED_MEMORY))


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
FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("DummyArray", "ctypeslib"), SHARED_MEMORY))


SYMBOLIC = ("symbolic sizes call their Python methods from inside torch's kernels, where no "
             "guard runs; use plain ints")


FORBIDDEN_ATTRIBUTES.update(dict.fromkeys(("SymInt", "SymFloat", "SymBool", "SymNode"), SYMBOLIC))


DATETIME_DTYPES = ("m8", "datetime64", "timedelta64")  # numpy dtype strings ("M8[s]" too)


# Refused attribute names that are natural names of a model's own state (`self.buffer`, a scratch
# tensor): allowed on `self` in classes built only on nn.Module when the file stores them.
OWN_NAMES_ALLOWED = frozenset({"buffer", "raw", "handle", "obj"})


def forbidden_attribute(name: str) -> str | None:
    """Why an attribute (or imported) name is refused: FORBIDDEN_ATTRIBUTES and every torch
    storage class (`UntypedStorage`, `FloatStorage`, ...). (torch's `sym_*` functions are
    refused by their dotted name, in _forbidden_reason: `self.sym_table` is the file's own.)"""
    if name in FORBIDDEN_ATTRIBUTES:
        return FORBIDDEN_ATTRIBUTES[name]
    if name.endswith("Storage") and name[:1].isupper():
        return SHARED_MEMORY
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
    "__getattr__": INTROSPECTION,
    "__getattribute__": INTROSPECTION,
    "__array_function__": _ARRAYS,
    "__array_ufunc__": _ARRAYS,
    # class patterns and isinstance consult these: `case Any(B)` reads attributes by string
    "__match_args__": INTROSPECTION,
    "__subclasshook__": INTROSPECTION,
    "__instancecheck__": INTROSPECTION,
    "__subclasscheck__": INTROSPECTION,
    # what an object claims to be (isinstance() reads `__class__`; a property there ran the
    # submission's code wherever the evaluator asked), and descriptors, which run on attribute
    # reads the evaluator makes
    "__class__": INTROSPECTION, "__dict__": INTROSPECTION, "__mro_entries__": INTROSPECTION,
    "__get__": INTROSPECTION, "__set__": INTROSPECTION, "__delete__": INTROSPECTION,
    # a class's annotations name its dataclass fields, and dataclasses paste each field's name
    # into the source of the methods they generate: a key that is no identifier
    # (`"inp,(...),self.inp"`) was an expression run by the generated `__eq__` (red-team pass 68)
    "__annotations__": "dataclasses paste annotated names into the source of the methods they "
                       "generate (`__init__`, `__eq__`), so a name that is not an identifier is "
                       "code no rule has read; annotate fields in the class body (`x: int = 0`)",
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


# What a submission may import at all: the standard library is too large to deny-list (debuggers,
# profilers, consoles and name resolvers all run or fetch code from strings).
ALLOWED_IMPORTS = {"torch", "triton", "math", "cmath", "numpy", "functools", "itertools", "operator",
                   "typing", "dataclasses", "collections", "enum", "abc", "textwrap", "os", "sys", "__future__",
                   "warnings", "contextlib", "random", "re", "numbers", "statistics", "einops"}


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


# A named tuple's documented methods and fields, underscored only to stay clear of field names.
NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_make", "_fields", "_field_defaults"})


# Where the types of the import machinery and of introspection live: an instance of one is refused
# by any name (red-team pass 84: `triton.language.extra.spec`, a loop variable its package left,
# is a ModuleSpec whose `loader` wrote, read and ran files with no rule reading them; a
# `Signature` evaluates annotations).
INTERNAL_TYPE_MODULES = ("inspect", "importlib", "_frozen_importlib", "_frozen_importlib_external",
                         "zipimport", "_imp", "gc", "ctypes", "_ctypes", "subprocess", "pickle",
                         "_pickle", "marshal", "socket", "_socket", "shutil", "code", "codeop")


# Modules that other modules happen to import: `os.path.sys`, `torch.sys` reach them past the rules.
SHADOWED_MODULES = {"sys", "os", "builtins", "importlib", "gc", "inspect", "subprocess", "ctypes",
                    "threading", "types", "pickle", "marshal", "io", "shutil", "socket", "weakref"}


ENVIRON_READS = {"os.environ", "os.environ.get", "os.environ.keys", "os.environ.items",
                 "os.environ.values", "os.environ.copy"}


# Where torch's natively implemented API says it was defined (`torch.nn.functional.linear` is
# `torch._C._nn.linear`, `torch.Generator` is `torch._C.Generator`): judged by the name used, and
# by the dispatch guard when it runs.
NATIVE_TORCH = ("torch._C", "torch._ops")

# In any string (inline PTX through tl.inline_asm_elementwise, for one): the GPU's own clocks.
GPU_CLOCK_TEXT = ("globaltimer", "%clock")
# Functions whose own inline assembly reads them (Triton's tl.extra.cuda / tl.extra.hip): by any
# name a submission gives them (`from triton.language.extra.cuda import globaltimer as t`)
GPU_CLOCK_FUNCTIONS = ("globaltimer", "memrealtime")
