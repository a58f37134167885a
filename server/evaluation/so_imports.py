"""What a built CUDA extension links against, read from its ELF dynamic symbol table.

The text rules read the C++ sources, and C++ has many ways to spell a name they do not see (a
raw string's prefix, a digit separator, a macro, a trigraph). What the compiled library imports
cannot be spelt around: every libc, CUDA runtime, vendor or libtorch function the code calls by
name is an undefined symbol of the `.so`. The build gate checks these before the library is
loaded (its static constructors have not run yet) and refuses: process, file, network and
dynamic-loading calls; CUDA's host callbacks, graphs, streams of its own and host-visible memory;
vendor libraries; libtorch's threads, profiler state, stream pools, host allocators and direct
(non-dispatched) CPU kernels; and ATen operators other than the allocation and layout ones the
dispatch guard allows. Code that finds functions without importing them (walking another
library's symbol table in memory) stays out of reach: see the README's threat model.
"""

from __future__ import annotations

import functools
import re
import struct

# libc and the dynamic loader: processes, files, the network, loading code, signals, raw syscalls.
_LIBC = re.compile(
    r"_*(system|popen|exec\w*|fexecve|v?fork|[Ff]ork\w*|clone3?|posix_spawn\w*|dl\w+|libc_dl\w+|wordexp"
    r"|syscall|ptrace|process_vm_\w+|open|openat|open64|openat64|open_by_handle_at|creat|creat64"
    r"|fopen|fopen64|freopen|freopen64|fdopen|tmpfile|tmpfile64|mkstemp\w*|mkostemp\w*|memfd_\w+"
    r"|shm_open|socket|socketpair|connect|bind|listen|accept4?|sendfile|sendfile64|sendmsg|sendto"
    r"|(secure_)?getenv|setenv|putenv|unsetenv|clearenv|prctl|seccomp|kill|tgkill|signal|sigaction"
    r"|mprotect|pkey_\w+|mmap|mmap64|mremap|pthread_create|pipe|pipe2|dup|dup2|dup3|unlink|unlinkat"
    r"|rename|renameat2?|remove|chdir|fchdir|chroot|truncate|truncate64|ftruncate|ftruncate64"
    r"|write|pwrite|pwrite64|writev|pwritev2?|read|pread|pread64|readv|preadv2?|close_range"
    r"|ioctl|splice|tee|vmsplice|io_uring\w*|bpf|personality|setrlimit|prlimit64?"
    r"|r_debug"  # the loader's list of loaded objects: dl_iterate_phdr by hand (red-team pass 67)
    # CPU affinity and scheduling, of this process or another's by pid (red-team pass 73)
    r"|sched_set\w+|pthread_setaffinity_np|pthread_setschedparam|pthread_setschedprio"
    r"|setpriority|setns|unshare|ioprio_set)"
    r"(_2|_chk|64)*")  # glibc's fortified and large-file spellings (`__open_2`, `__pread64_chk`)
# What every extension built on the H200's toolchain imports (the statically linked parts of
# libstdc++: std::random_device reads /dev/urandom with open/read/ioctl/syscall, locales read the
# environment), read off two honest builds' tables (tests/data/h200_*_imports.txt): the import
# check cannot refuse these, the text rules still do.
_TOOLCHAIN = frozenset({"open", "close", "__read_chk", "read", "ioctl", "syscall", "secure_getenv"})
# CUDA runtime and driver: host work in stream order, graphs, streams of its own, host-visible
# memory, driver entry points by name, other contexts, the device's scheduling flags.
_CUDA = re.compile(
    r"(cuda|cu)(LaunchHostFunc\w*|StreamAddCallback\w*|Graph\w*|StreamBeginCapture\w*|"
    r"StreamEndCapture\w*|HostAlloc\w*|MallocHost\w*|HostRegister\w*|MallocManaged\w*|"
    r"StreamCreate\w*|GreenCtx\w*|DevResource\w*|MemAllocHost\w*|MemHostAlloc\w*|MemHostRegister\w*|"
    r"MemAllocManaged\w*|CtxCreate\w*|DevicePrimaryCtx\w*|MemPool\w*|MallocFromPoolAsync\w*|"
    r"DeviceSetMemPool\w*|Ipc\w*|GetDriverEntryPoint\w*|GetProcAddress\w*|LaunchCooperativeKernelMultiDevice\w*|"
    r"UserObject\w*|ThreadExchangeStreamCaptureMode\w*|LogsRegisterCallback\w*|ProfilerStart\w*|"
    r"ProfilerStop\w*|SetDeviceFlags\w*|CtxSetFlags\w*|"
    # device code loaded at run time (PTX or a cubin from a string, linked on the spot): no
    # review of the library's own code can read it (precision.check_library)
    r"LibraryLoad\w*|ModuleLoad\w*|LinkCreate\w*|LinkAdd\w*|LinkComplete\w*)")
_VENDORS = re.compile(r"_*(cublas|cudnn|cufft|curand|cusparse|cusolver|cutensor|nccl|nvrtc|nvJitLink"
                      r"|cupti|nvtx|nvml|cub|thrust|nvshmem|cutlass)", re.IGNORECASE)
# libtorch, as parts of the mangled name: threads, the profiler's state (behaving honestly
# only while kernels are recorded), stream pools, host memory, CPU kernels called directly.
_TORCH_PARTS = ("ThreadLocalDebugInfo", "ThreadLocalState", "DebugInfoGuard", "GreenContext",
                "ThreadPool", "intraop_launch", "launch_no_thread_state", "getStreamFromPool",
                "getStreamFromExternal", "setCurrentCUDAStream", "CUDAGraph", "HostAllocator",
                "getPinnedMemoryAllocator", "empty_cpu", "empty_strided_cpu", "profiler",
                "RecordFunction", "Kineto", "Dispatcher", "OperatorHandle", "Library",
                "PythonDispatcher", "TorchDispatchModeTLS", "PythonTLSSnapshot", "set_python_dispatcher",
                "tls_set_dispatch_key", "PyInterpreter", "THPVariable_Unpack", "CUDACachingAllocator",
                "getAllocator", "SetAllocator", "MemPool", "cudaMallocAsync", "CPUAllocator",
                "invoke_parallel", "set_num_threads", "_M_start_thread", "set_env", "get_env",  # std::thread, std::async
                # files by other names: a mapped file (created if missing), serialization
                "MapAllocator", "NewProcessWideShmHandle", "PyTorchStreamWriter",
                "PyTorchStreamReader", "FileAdapter", "pickle_save", "pickle_load",
                "OutputArchive", "InputArchive")
_TORCH_NAMESPACES = (("_ZN2at6native", "at::native (kernels called past the dispatcher)"),
                     ("_ZN2at3cpu", "at::cpu (CPU kernels called directly)"),
                     ("_ZN2at6launch", "at::launch (another thread)"),
                     ("_ZN2at8parallel", "at::parallel (other threads)"),
                     ("_ZN2at4meta", "at::meta"), ("_ZN2at6detail9empty", "at::detail allocation"),
                     ("_ZN5torch3jit4load", "torch::jit::load (files, TorchScript)"),
                     ("_ZN6caffe29serialize", "caffe2::serialize (files)"))
_OPS = re.compile(r"_ZN2at4_ops(\d+)")
# ATen's per-backend entry points (`at::cuda::mm`, `at::compositeexplicitautograd::...`) call an
# operator's kernel past the dispatcher: refused for operators outside the allowed ones.
_BACKEND_OPS = re.compile(r"_ZN2at(4cuda|\d+composite[a-z]+)(\d+)")
# Python's C API that runs or finds code: pybind11's own imports (tests/data) use none of these.
_PYTHON_CODE = re.compile(r"_*(PyRun_\w+|PyImport_\w+|Py_Compile\w*|PyEval_Eval\w*|PyEval_GetGlobals"
                          r"|PyEval_GetLocals|PyEval_GetFrame\w*|PyCode_\w+|PyMarshal_\w+|PySys_\w+"
                          r"|PyFunction_\w+|Py_Initialize\w*|Py_RunMain|Py_Main|PyOS_\w+)")
# ATen operators an extension may call by name (through the dispatcher, where the dispatch guard
# sees them too): allocations, views, layout copies.
_EXTRA_OPS = ("copy_",)


def undefined_symbols(path: str) -> list[str]:
    """Names of the undefined dynamic symbols of an ELF64 little-endian shared library, read the
    way the dynamic loader reads them: the PT_DYNAMIC segment's symbol and string tables, counted
    by its hash table and by where the string table starts (section headers can be absent or
    overflowing, and the loader ignores them), together with the dynamic symbol section's, where
    the headers exist. A library the reading cannot follow is refused (ValueError)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4:6] != b"\x02\x01":
        raise ValueError(f"{path} is not a 64-bit little-endian ELF file")
    try:
        loaded = _dynamic_imports(data)
    except (struct.error, IndexError, KeyError, ValueError) as error:
        raise ValueError(f"{path}: its dynamic symbol table cannot be read ({error})") from None
    try:  # the section headers' count, where they exist: a GNU hash table of no defined symbol
        listed = _section_imports(data)  # counts none of the undefined ones
    except (struct.error, IndexError, ValueError):
        listed = []
    return list(dict.fromkeys(loaded + listed))


def section_headers(data: bytes) -> list[tuple]:
    """An ELF64 little-endian file's section headers: (name offset, type, flags, address, file
    offset, size, link, info, alignment, entry size) each."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    return [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]


def _section_imports(data: bytes) -> list[str]:
    """The undefined symbols of the SHT_DYNSYM section (the same table, counted by its section)."""
    sections = section_headers(data)
    names = []
    for _, kind, _, _, offset, size, link, _, _, _ in sections:
        if kind == 11:  # SHT_DYNSYM
            names += _undefined(data, offset, size // 24, sections[link][4])
    return names


def _undefined(data: bytes, symtab: int, count: int, strtab: int) -> list[str]:
    names = []
    for index in range(1, count):
        name_at, _, _, shndx, _, _ = struct.unpack_from("<IBBHQQ", data, symtab + 24 * index)
        if shndx == 0 and name_at:
            end = data.index(b"\0", strtab + name_at)
            names.append(data[strtab + name_at:end].decode("ascii", "replace"))
    return names


_DT = {"strtab": 5, "symtab": 6, "hash": 4, "strsz": 10, "gnu_hash": 0x6FFFFEF5}


def _dynamic_imports(data: bytes) -> list[str]:
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segments = [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize) for i in range(phnum)]
    loads = [(vaddr, offset, filesz) for kind, _, offset, vaddr, _, filesz, _, _ in segments if kind == 1]

    def at(address: int) -> int:  # a virtual address's offset in the file
        for vaddr, offset, filesz in loads:
            if vaddr <= address < vaddr + filesz:
                return offset + address - vaddr
        raise ValueError(f"address {address:#x} lies in no loaded segment")

    dynamic = [(offset, filesz) for kind, _, offset, _, _, filesz, _, _ in segments if kind == 2]
    if len(dynamic) != 1:
        raise ValueError("no single PT_DYNAMIC segment")
    tags = {}
    for entry in range(dynamic[0][0], dynamic[0][0] + dynamic[0][1], 16):
        tag, value = struct.unpack_from("<qQ", data, entry)
        if tag == 0:
            break
        tags.setdefault(tag, value)
    symtab, strtab = at(tags[_DT["symtab"]]), at(tags[_DT["strtab"]])
    count = _symbol_count(data, tags, at)
    if strtab > symtab:  # the linker lays the string table right after the symbols: count them all
        count = max(count, (strtab - symtab) // 24)
    return _undefined(data, symtab, count, strtab)


def _symbol_count(data: bytes, tags: dict, at) -> int:
    """Symbols in the dynamic table: DT_HASH's chain count, or past the last GNU hash chain."""
    if _DT["hash"] in tags:
        return struct.unpack_from("<II", data, at(tags[_DT["hash"]]))[1]
    if _DT["gnu_hash"] not in tags:
        raise ValueError("no hash table gives the symbol count")
    base = at(tags[_DT["gnu_hash"]])
    buckets_n, first, bloom_n, _ = struct.unpack_from("<IIII", data, base)
    buckets = base + 16 + 8 * bloom_n
    last = max(struct.unpack_from(f"<{buckets_n}I", data, buckets), default=0)
    if last < first:
        return first
    chains = buckets + 4 * buckets_n
    while not struct.unpack_from("<I", data, chains + 4 * (last - first))[0] & 1:
        last += 1
    return last + 1


def forbidden_import(names, allowed_ops) -> str | None:
    """Why the first refused symbol among `names` is refused, or None."""
    for full in names:
        name = full.split("@")[0]
        if _LIBC.fullmatch(name) and name not in _TOOLCHAIN:
            return (f"`{name}` (processes, files, the network, loading code and the CPUs' "
                    "scheduling are not a kernel's)")
        if _PYTHON_CODE.fullmatch(name):
            return f"`{name}` (Python's C API that runs or imports code)"
        if _CUDA.fullmatch(name):
            return (f"`{name}` (host callbacks, graphs, streams of its own, host-visible memory, "
                    "driver entry points and device code loaded at run time escape the timer and "
                    "the checks)")
        if _VENDORS.match(name) or any(f"{len(v)}{v}" in name for v in ("cublas", "cudnn", "cutlass", "thrust", "cub")):
            return f"`{name}` (vendor libraries compute for you; write your own kernels)"
        if name.startswith("_Z"):
            part = next((p for p in _TORCH_PARTS if p in name), None)
            if part:
                return f"libtorch's `{part}` (in `{name}`): threads, profiler state, streams, " \
                       "allocators and dispatcher internals are not a kernel's to use"
            namespace = next((why for prefix, why in _TORCH_NAMESPACES if name.startswith(prefix)), None)
            if namespace:
                return f"`{name}`: {namespace}"
            for match in _OPS.finditer(name):
                length = int(match.group(1))
                op = name[match.end():match.end() + length]
                if not _allowed_op(op, allowed_ops):
                    return (f"the ATen operator `{op}` (in `{name}`): an extension may call "
                            "allocation, view and copy operators only; compute in your kernels")
            backend = _BACKEND_OPS.match(name)
            if backend:
                length = int(backend.group(2))
                op = name[backend.end():backend.end() + length]
                if _is_aten_op(op) and not _allowed_op(op, allowed_ops):
                    return (f"the ATen operator `{op}` called past the dispatcher (in `{name}`): "
                            "compute in your kernels")
    return None


@functools.lru_cache(maxsize=None)
def _is_aten_op(name: str) -> bool:
    """An operator of ATen's (`mm`, `_softmax`, `addmm_out`), not a helper of the namespace."""
    import torch

    base = name[:-4] if name.endswith("_out") else name
    return any(hasattr(torch.ops.aten, n) for n in (name, base, base.rstrip("_")))


def _allowed_op(op: str, allowed_ops) -> bool:
    """`empty_like`, `view`, or a named overload of an allowed operator (`slice_Tensor`,
    `select_int`, `empty_memory_format`): C++ calls `aten::op.overload` `at::_ops::op_overload`."""
    return op in _EXTRA_OPS or op in _overload_names(tuple(allowed_ops))


@functools.lru_cache(maxsize=4)
def _overload_names(allowed_ops: tuple) -> frozenset:
    import torch
    names = set()
    for base in allowed_ops:
        names.add(base)
        packet = getattr(torch.ops.aten, base, None)
        for overload in (packet.overloads() if packet is not None else ()):
            if overload != "default":
                names.add(f"{base}_{overload}")
    return frozenset(names)
