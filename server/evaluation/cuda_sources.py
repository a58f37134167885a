"""The CUDA sources of a `language="cuda"` submission, as load_inline will compile them, and the
text rules they must pass. These are the first line of defence against vendor libraries, threads,
clocks and the profiler's state in C++; kernel provenance on the GPU (provenance.py) catches what
text rules cannot.
"""

from __future__ import annotations

import ast
import re
import string
import textwrap
from types import MappingProxyType

from . import precision
from .source_names import binding_counts, dotted, nodes, where
from .stages import STATIC_CHECK, StageFailure

CLOCKS_REASON = ("submissions may not read clocks: behaviour that depends on timing is how an "
                 "evaluator is told apart from a user")
PROFILER_REASON = "the evaluator records your kernels with the profiler; submissions may not use it"
STREAMS_REASON = ("work on a stream of your own is not ordered after the timer's start; launch on "
                  "the current stream")
SCHEDULING_REASON = ("the device's scheduling flags (spin, yield, blocking synchronisation) set how "
                     "the host wakes up, which the timer calibrates; leave them as they are")


def _fail(feedback: str):
    raise StageFailure(STATIC_CHECK, "format_violation", feedback)


# Text in a CUDA submission's source strings (case-insensitive) -> why it is refused. The first
# line of defence; kernel provenance on the GPU catches what text rules cannot (see provenance.py).
_VENDOR = "vendor libraries compute for you; write your own kernels"
_DISPATCHER = ("registering kernels for torch's operators changes what every caller of them, the "
               "reference included, computes")
_FILES = "files, the environment and the process's state are not a kernel's to touch"
_PROCESSES = "programs and processes run work no guard or recorder sees"
_PYTHON = "Python run from C++ escapes every rule the Python source is held to"
_HOST_VISIBLE = ("memory the host reads without a copy (managed, mapped or pinned) lets host code "
                 "compute what a kernel should, with no copy for kernel provenance to see")
# Red-team pass 73: a worker host's evaluations share its own CPUs (pool.cpu_shares), which
# host code could leave, or impose on other processes of the same user (another slot's reference
# being profiled, whose time is cached), by pid, with no file read
_CPU_SCHEDULING = ("CPU affinity and scheduling (`sched_setaffinity`, priorities, namespaces) are "
                   "the evaluator's: each slot runs on its own share of the host's CPUs")
_RUNTIME_CODE = ("device code loaded or registered at run time hides the kernel from review: "
                 "launch kernels compiled from your sources with <<<...>>>")
CUDA_FORBIDDEN_TEXT = MappingProxyType({
    "blas": _VENDOR, "cudnn": _VENDOR, "cutlass": _VENDOR, "cufft": _VENDOR, "cusparse": _VENDOR,
    "cusolver": _VENDOR, "curand": _VENDOR, "thrust::": _VENDOR, "cub::device": _VENDOR,
    "nvrtc": "runtime compilation hides the kernel from review",
    "libdl": "loading libraries at run time is not allowed",
    "entrypoint": "looking up driver functions by name hides what runs",
    "getprocaddress": "looking up driver functions by name hides what runs",
    "%:": "digraphs spell `#` and `##`: token pasting can assemble forbidden names",
    "??=": "trigraphs spell `#`: token pasting can assemble forbidden names",
    "mallocmanaged": _HOST_VISIBLE, "allocmanaged": _HOST_VISIBLE, "__managed__": _HOST_VISIBLE,
    "hostalloc": _HOST_VISIBLE, "mallochost": _HOST_VISIBLE, "hostregister": _HOST_VISIBLE,
    "hostgetdevicepointer": _HOST_VISIBLE, "memadvise": _HOST_VISIBLE,
    # libtorch's pinned allocator and pinned tensors (`torch::empty(..., pinned_memory(true))`),
    # memory pools and physical allocations placed on the host, thrust's universal memory
    "pinned": _HOST_VISIBLE, "pin_memory": _HOST_VISIBLE, "mempool": _HOST_VISIBLE,
    "memlocationtypehost": _HOST_VISIBLE, "mem_location_type_host": _HOST_VISIBLE,
    "allocationtypemanaged": _HOST_VISIBLE, "cumemcreate": _HOST_VISIBLE, "cumemmap": _HOST_VISIBLE,
    "universal_": _HOST_VISIBLE,
    # host code queued on a stream runs where no recorder looks
    "launchhostfunc": "host callbacks run host code on the stream; launch kernels",
    "streamaddcallback": "host callbacks run host code on the stream; launch kernels",
    "std::thread": "threads escape the dispatch guard", "pthread": "threads escape the dispatch guard",
    "std::async": "threads escape the dispatch guard",
    "chrono": CLOCKS_REASON, "clock": CLOCKS_REASON, "gettimeofday": CLOCKS_REASON, "elapsed": CLOCKS_REASON,
    "rdtsc": CLOCKS_REASON, "cupti": CLOCKS_REASON, "globaltimer": CLOCKS_REASON, "timespec": CLOCKS_REASON,
    "getrusage": CLOCKS_REASON, "syscall": _PROCESSES, "sysenter": _PROCESSES,
    # libtorch's files by other names: a mapped file (created if missing), serialization
    "mapallocator": _FILES, "newprocesswideshmhandle": _FILES, "pytorchstream": _FILES,
    "pickle_save": _FILES, "pickle_load": _FILES, "outputarchive": _FILES, "inputarchive": _FILES,
    "jit::load": _FILES, "caffe2::serialize": _FILES, "torch::save": _FILES, "torch::load": _FILES,
    "profiler": PROFILER_REASON, "kineto": PROFILER_REASON, "recordfunction": PROFILER_REASON,
    "record_function": PROFILER_REASON, "callbacks": PROFILER_REASON,
    "/proc": _FILES, "environ": _FILES, "setenv": _FILES, "putenv": _FILES, "getenv": _FILES,
    "set_env": _FILES, "get_env": _FILES,  # c10::utils::set_env / get_env
    "fopen": _FILES, "fdopen": _FILES, "freopen": _FILES, "fstream": _FILES, "filesystem": _FILES,
    "unlink": _FILES, "mmap": _FILES, "fwrite": _FILES,
    "popen": _PROCESSES, "posix_spawn": _PROCESSES,
    "cudastreamcreate": STREAMS_REASON, "custreamcreate": STREAMS_REASON,
    "getstreamfrom": STREAMS_REASON, "getnewstream": STREAMS_REASON, "streamnonblocking": STREAMS_REASON,
    "guardimpl": STREAMS_REASON, "cuctxcreate": STREAMS_REASON,
    "setdeviceflags": SCHEDULING_REASON, "ctxsetflags": SCHEDULING_REASON,  # cudaSetDeviceFlags, cuCtxSetFlags
    # torch::Library objects, TORCH_LIBRARY* macros and their expansion (TorchLibraryInit),
    # cudaLibraryLoad*: all spell "library"
    "library": _DISPATCHER, "dispatcher": _DISPATCHER, "registeroperators": _DISPATCHER,
    "op_registration": _DISPATCHER,
    # ATen's DispatchStubs (`add_stub`): a kernel set there replaces aten's own for every caller
    "register_dispatch": _DISPATCHER, "register_cuda_dispatch": _DISPATCHER,
    "dispatchstub": _DISPATCHER, "dispatch_ptr": _DISPATCHER, "_stub": _DISPATCHER,
    "pybind11": _PYTHON, "py::": _PYTHON, "thpvariable": _PYTHON,
    # libtorch's threads, profiler state and direct CPU kernels; CUDA graphs and green contexts
    # (host nodes, streams of their own); libc spelt past word boundaries (`_Fork`, `open64`)
    "threadlocaldebuginfo": PROFILER_REASON, "debuginfokind": PROFILER_REASON,
    "debuginfoguard": PROFILER_REASON,
    "threadpool": "threads escape the dispatch guard", "intraop_launch": "threads escape the dispatch guard",
    "launch_no_thread_state": "threads escape the dispatch guard",
    "greencontext": STREAMS_REASON, "greenctx": STREAMS_REASON, "cudagraph": STREAMS_REASON,
    "cugraph": STREAMS_REASON, "hostnode": "host callbacks run host code on the stream; launch kernels",
    "empty_cpu": _HOST_VISIBLE, "at::detail::": _HOST_VISIBLE, "at::native::": _DISPATCHER,
    "at::cpu::": _DISPATCHER, "dl_iterate_phdr": "loading libraries at run time is not allowed",
    "wordexp": _PROCESSES, "_fork": _PROCESSES, "execveat": _PROCESSES,
    "int $0x80": _PROCESSES, "open64": _FILES,
})
# Whole words and calls the substrings above cannot name without refusing honest identifiers.
CUDA_FORBIDDEN_PATTERNS = MappingProxyType({
    # 8-bit and narrower arithmetic (precision.py; the text is lower-cased): CUDA's fp8/fp6/fp4
    # types and headers, the formats as intrinsics and PTX spell them, byte dot products, and
    # tensor-core products of narrow integers (inline PTX, WMMA's sub-byte and char fragments)
    re.compile(r"fp[468](?!\d)|float[468]_|\b_*nv_(e4m3|e5m2|e2m1|e2m3|e3m2|satfinite)"
               r"|(\b|_)(e4m3|e5m2|e2m1|e2m3|e3m2|ue8m0)|\b_*dp[24]a(\b|_)"
               r"|\b(wgmma|mma)[\w.:]*\.(s8|u8|s4|u4|b1)\b|kind::(i8|f8f6f4|mxf8f6f4|mxf4)"
               r"|experimental::precision|precision::(s4|u4|b1)|\bbmma|_bmma"
               r"|fragment\s*<[^<>;{}]*\b(signed char|unsigned char|u?int8_t|char|b1|s4|u4)\b"):
        precision.REASON,
    re.compile(r"\bdl(open|mopen|sym|vsym|info|addr1?|error|close)\s*\("):
        "loading libraries at run time is not allowed",
    re.compile(r"\btime\s*[()]|\btimes\s*\("): CLOCKS_REASON,  # time(0), (time)(nullptr), times()
    # calls, not methods (`x.clone()`, `v.remove(...)` are fine)
    re.compile(r"(?<![.>])\b_*(system|v?fork|exec[lvpe]*|kill)(at)?\s*\("): _PROCESSES,
    re.compile(r"(?<![.>:])\bclone\s*\("): _PROCESSES,  # clone(2), not at::clone
    re.compile(r"(?<![.>])\b_*(open|creat|remove|rename|truncate|chmod|symlink|link)(at)?(64)?(_2)?\s*\("):
        _FILES,
    re.compile(r"\bpy[a-z]+_[a-z]"): _PYTHON,  # PyRun_SimpleString, PyImport_ImportModule, PyGILState_Ensure
    re.compile(r"\b_?py_\w|\b_py[a-z]|->\s*(tp_\w+|mp_(subscript|ass_subscript|length)|ob_(type|refcnt)"
               r"|sq_(item|ass_item|concat|contains|length|repeat)|nb_(add|subtract|multiply|index|int|float"
               r"|bool|power|call|inplace_\w+|[a-z_]+_divide))\b"): _PYTHON,  # Py_TYPE(o)->tp_getattro
    re.compile(r"\b_*p(read|write)v?2?(64)?(_chk)?\b"): _FILES,  # pread64, __pwrite_chk
    # assembler directives in inline assembly assemble any instruction (`.byte 0x0f, 0x05` and
    # `.long 0x90050f90` are syscall) or generate sections; PTX uses none of them
    re.compile(r'\b(asm|__asm__|__asm)\b(\s*(volatile|__volatile__|__volatile|goto|inline|__inline__|__inline))*\s*\(\s*"[^"]*'
               r'\.(byte|short|hword|word|int|long|quad|octa|value|[248]byte|dcb?(\.\w)?|ds|float|single'
               r'|double|ascii|asciz|string\d*|[su]leb128|incbin|insn|inst|fill|zero|skip|space|rept'
               r'|irpc?|macro|section|pushsection|popsection|previous|subsection|text|data|bss|org|set'
               r'|equiv?|weak|globl)\b'):
        "inline assembly may not use assembler directives (raw bytes, macros, sections): write PTX",
    # an assembler name (`F f __asm__("system");`, after a declarator of any kind): one symbol
    # name as the whole text, where a statement holds instructions (`asm("trap;")`), in one
    # literal or several the compiler joins (`__asm__("__cuda" "RegisterFatBinary")`, review of
    # session 34)
    re.compile(r'\b(asm|__asm__|__asm)\b\s*\(\s*"\s*[a-z_.$][\w.$@]*\s*"(\s*"[\w.$@\s]*")*\s*\)'):
        "assembler names rename functions past the text rules",
    # macros that rename a word the rules read (`#define P py`, then `P::module_::import`)
    re.compile(r"#\s*define\s+\w+(\([^)\n]*\))?[ \t]+([\w:]+[ \t]+)*(::)?(py|pybind11|attr|import"
               r"|eval|exec|getattr|asm|__asm__|__asm|__attribute__|__attribute|__volatile__|__volatile"
               r"|volatile|syscall|rdtsc)\b[\w: \t]*$", re.MULTILINE):
        "macros may not rename the words the rules read (py, attr, import, asm, attributes)",
    # the CUDA runtime's private entry points, which nvcc's generated code calls to register a
    # library's device code and launch it: every built extension imports them (nvcc's stubs), so
    # the import check cannot refuse them (red-team pass 67: a second fatbin carried as data,
    # scrambled, and registered by hand, which no check of the library's `.nv_fatbin` reads)
    re.compile(r"__cuda(register|unregister|initmodule|pushcallconfiguration|popcallconfiguration"
               r"|getkernel|launch|setupargument)|fatbin"): _RUNTIME_CODE,
    # the loader's list of loaded objects (`_r_debug.r_map`): dl_iterate_phdr by hand (pass 67)
    re.compile(r"\b_r_debug\b"): "loading libraries at run time is not allowed",
    re.compile(r"\bint\s+\$\s*(0x80|128)\b"): _PROCESSES,  # the 32-bit system call gate
    # token pasting builds identifiers the rules never see spelt out
    # (`, ##__VA_ARGS__`, GNU's comma elision in a logging macro, pastes no name)
    re.compile(r"(?:^|[^,\s])\s*##|##(?!\s*__va_args__)", re.MULTILINE):
        "token pasting can assemble forbidden names",
    # and its text must be a literal the rules can read (`asm(MACRO)` is not)
    re.compile(r'\b(asm|__asm__|__asm)\b(\s*(volatile|__volatile__|__volatile|goto|inline|__inline__|__inline))*\s*\(\s*(?!["\s])'):
        "inline assembly must be a string literal",
    # where a registration says it came from (integrity.kernels_registered_from reads it)
    re.compile(r"#\s*line\b"): "source locations are the evaluator's to read",
    # universal character names spell identifiers letter by letter (`Libr\u0061ry`)
    re.compile(r"\\u[0-9a-f]{4}|\\u[0-9a-f]{8}"): "universal character names can spell forbidden names",
    # names a rule matches by namespace, reached under another: `namespace th = thrust;`,
    # `using namespace std;` then `thread t(f);`
    re.compile(r"\bnamespace\s+\w+\s*=(?!\s*(::)?(cooperative_groups|nvcuda(::wmma)?)\s*;)"):
        "namespace aliases (other than of cooperative_groups and nvcuda::wmma) hide which "
        "library a name is from",
    re.compile(r"\busing\s+namespace\s+(::)?(thrust|cub|pybind11|py|at|c10|torch(?!::indexing\b)|cuda)\b"):
        "`using namespace` hides which library a name is from (std, nvcuda and torch::indexing "
        "are fine)",
    re.compile(r"\bthrust\b"): _VENDOR,
    re.compile(r"\bat::(launch|parallel_for|internal::launch)\b"): "threads escape the dispatch guard",
    # Python reached through a hand-written module: `m.import("builtins")`, `obj.attr("exec")`
    # (a module of `m.def(...)` bindings only is read as load_inline's `functions`: _BINDINGS)
    re.compile(r"pybind11_module|\.\s*(import|attr|eval|exec)\s*\("): _PYTHON,
})
# Identifiers in the code (string literals left out: words there are messages) that name libc's
# programs, files, environment, library loading and threads, called or not: a function pointer
# (`auto f = &std::system;`) calls them as well as a call does.
CUDA_FORBIDDEN_IDENTIFIERS = MappingProxyType({
    re.compile(r"\b(\w*affinity\w*|sched_set\w*|cpu_set\w*|setpriority|setns|unshare|"
               r"ioprio_set|pthread_setsched\w*)\b"): _CPU_SCHEDULING,
    re.compile(r"\b(system|popen|v?fork|exec[lvpe]*|posix_spawnp?|kill|thrd_create|jthread)\b"):
        _PROCESSES,
    re.compile(r"\b(open|openat|creat|write|pwrite|writev|unlink|rename|remove|truncate|chmod)\b"):
        _FILES,
    re.compile(r"\b(dl(open|mopen|sym|vsym|info|addr1?|error|close)|getenv|setenv|putenv|unsetenv)\b"):
        _FILES,
    # reading the process's own output back (a device printf's values, captured through a pipe
    # or a buffer of stdout's) hands a kernel's values to host code; `pipe` and `read` are also
    # honest variable names (`auto pipe = cuda::make_pipeline();`), refused as libc's functions:
    # called, taken (`&read`, `::pipe`, `= pipe;`, `(pipe)`)
    re.compile(r"\b(dup[23]?|pipe2|setv?buf|setlinebuf|fread|fgets|getline|v?f?scanf|fmemopen|"
               r"open_memstream|tmpfile|fileno)\b"): _FILES,
    re.compile(r"(?<![.>\w])(pipe|read|f?close)\s*\(|&\s*(::)?(pipe|read)\b|::\s*(pipe|read)\b"
               r"|[=(]\s*(pipe|read)\s*[;)]"): _FILES,
    # unqualified thread objects (`using namespace std;` then `thread t(f);`), in code only: a
    # message may well say "thread block (max 1024)"
    re.compile(r"(?<![.>:\w])(thread|jthread)\s+\w+\s*[({]|(?<![.>:\w])(thread|async)\s*[({]"):
        "threads escape the dispatch guard",
})
# Code run at load and renaming at the linker: `__attribute__((constructor))` runs before anything
# is checked (assembler names, `F f __asm__("system");`, are refused by their text above).
# GNU attributes a kernel may use, in any spelling (`aligned`, `__aligned__`, `gnu::aligned`);
# others run code at load (constructor), rename (alias, weakref, ifunc) or place it (section).
ALLOWED_GNU_ATTRIBUTES = frozenset({"aligned", "unused", "always_inline", "noinline", "packed"})
_ATTRIBUTES_REASON = ("attributes other than aligned, unused, always_inline, noinline and packed "
                      "are not allowed (constructors run at load, aliases rename)")
_GNU_ATTRIBUTE_LIST = re.compile(r"__attribute(?:__)?\s*\(\(")
_STANDARD_ATTRIBUTE_LIST = re.compile(r"\[\[")
_RAW_STRING = re.compile(r'(?:u8|u|U|L)?R"')
# C++'s pp-number: a digit (or `.digit`), then digits, letters, `_`, `.`, a separator `'` before
# a digit or letter, and signs after an exponent letter.
_DIGITS = frozenset("0123456789")  # ASCII: `str.isdigit` also takes `²`, which `\d` below may not
_PP_NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*")
_LITERALS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')

# `py::arg("x")` names a binding's argument: hand-written PYBIND11_MODULE blocks use it.
_PY_ARG = re.compile(r"\bpy::arg\b")


def _fail_cuda(needle: str, reason: str):
    _fail(f"`{needle}` in your CUDA source is not allowed: {reason}")


def code_and_literals(source: str, refuse_raw: bool = True) -> str:
    """The source as the compiler reads it, for the text rules: line continuations joined,
    comments removed (but not `//` or `/*` inside a string literal), adjacent string literals
    joined (`"libcu" "blas"` is one literal to the compiler), digit separators (`1'000`) dropped
    from their number. Raw string literals, with any encoding prefix (`LR"(`), are refused
    (`refuse_raw`)."""
    # Line ends as the compiler reads them: a lone `\r` ends a `//` comment, and a backslash
    # followed by blanks still splices the next line (red-team pass 29)
    source = re.sub(r"\\[ \t\f\v]*\n", "", source.replace("\r\n", "\n").replace("\r", "\n"))
    out, i, n, raw = [], 0, len(source), []
    literal_end = -1  # where the last string literal closed in `out`, to join the next to it
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif _RAW_STRING.match(source, i) and (i == 0 or not (source[i - 1].isalnum()
                                                              or source[i - 1] == "_")):
            raw.append(i)
            i = source.index('R"', i)
            j = source.find("(", i + 2)
            delim = source[i + 2:j] if j >= 0 else ""
            end = source.find(")" + delim + '"', j + 1) if j >= 0 else -1
            body = source[j + 1:end] if end >= 0 else source[i + 2:]
            i = n if end < 0 else end + len(delim) + 2
            literal_end = _append_literal(out, body, literal_end)
        elif (c in _DIGITS or (c == "." and source[i + 1:i + 2] in _DIGITS)) and not (
                i and (source[i - 1].isalnum() or source[i - 1] == "_")):
            # a number as the preprocessor reads it (a pp-number: `1'0`, `0x1'F`, `.5'a`,
            # `1e+5`), its digit separators dropped so no later reading takes one for a quote
            j = _PP_NUMBER.match(source, i).end()
            out.append(source[i:j].replace("'", ""))
            i = j
            literal_end = -1
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            body = source[i + 1:j]
            i = j + 1
            if c == '"':
                literal_end = _append_literal(out, body, literal_end)
            else:
                out.append("'" + body + "'")
                literal_end = -1
        else:
            if not c.isspace():
                literal_end = -1
            out.append(c)
            i += 1
    if raw and refuse_raw:
        # the compiler undoes line splices inside a raw string, the reading above does not: the
        # two could disagree on where it ends
        _fail("raw string literals (`R\"(...)\"`) are not allowed in CUDA sources: use "
              "ordinary string literals")
    return "".join(out)


def _append_literal(out: list, body: str, literal_end: int) -> int:
    """Append a string literal's text, joined to the previous one when only space separates
    them; returns the new end marker."""
    if literal_end >= 0:
        del out[literal_end:]  # the whitespace after the previous literal
        out[-1] = out[-1][:-1]  # and its closing quote
        out.append(body + '"')
    else:
        out.append('"' + body + '"')
    return len(out)


LOAD_INLINE = "torch.utils.cpp_extension.load_inline"
MAX_SOURCE_CHARS = 1 << 20  # a name folded into itself ten deep (`"".join([A] * 2)`) is not code


def load_inline_sources(tree: ast.Module, aliases: dict[str, str]) -> str:
    """The text load_inline compiles: its source arguments, following names bound once, at
    module level, to string literals (concatenations, lists, `str.join` of a list,
    `textwrap.dedent` of a literal, f-strings and `.format` of numbers and strings bound so).
    Comments and docstrings elsewhere are not read; a source built at run time, or load_inline
    called any other way than directly, cannot be reviewed and is refused."""
    calls = [n for n in nodes(tree) if isinstance(n, ast.Call) and dotted(n.func, aliases) == LOAD_INLINE]
    call_funcs = {id(c.func) for c in calls}
    for node in nodes(tree):
        if (isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in call_funcs
                and dotted(node, aliases) == LOAD_INLINE):
            _fail(f"{where(node)}: load_inline may only be called directly (aliases and partials "
                  "hide which sources it builds)")
    bound = {t.id: node.value for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             and node.value is not None
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
             if isinstance(t, ast.Name)}
    bindings = binding_counts(tree)

    def text(node: ast.AST, hops: int = 0) -> str:
        folded = _text(node, hops)
        if len(folded) > MAX_SOURCE_CHARS:
            _fail(f"{where(node)}: load_inline's sources are longer than {MAX_SOURCE_CHARS} "
                  "characters")
        return folded

    def _text(node: ast.AST, hops: int = 0) -> str:
        if isinstance(node, ast.Constant) and (isinstance(node.value, str) or node.value is None):
            return node.value or ""
        if isinstance(node, ast.Name) and node.id in bound and bindings.get(node.id) == 1 and hops < 20:
            return text(bound[node.id], hops + 1)
        if isinstance(node, (ast.List, ast.Tuple)):
            return "\n".join(text(item, hops) for item in node.elts)  # torch joins lists by lines
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return text(node.left, hops) + text(node.right, hops)
        if (isinstance(node, ast.Call) and dotted(node.func, aliases) == "textwrap.dedent"
                and len(node.args) == 1 and not node.keywords):
            return textwrap.dedent(text(node.args[0], hops))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
                and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], (ast.List, ast.Tuple))):  # "\n".join([HEADER, KERNEL])
            return text(node.func.value, hops).join(text(item, hops) for item in node.args[0].elts)
        if isinstance(node, ast.JoinedStr):  # f"#define TILE {TILE}" of constants
            return "".join(part.value if isinstance(part, ast.Constant) else _formatted(part, hops)
                           for part in node.values)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "format"):  # TEMPLATE.format(threads=THREADS) of constants
            template = text(node.func.value, hops)
            if any(k.arg is None for k in node.keywords):
                _fail(f"{where(node)}: pass `.format`'s values by name (`TILE=TILE`), not `**`")
            try:
                fields = [(f, spec, conversion) for _, f, spec, conversion
                          in string.Formatter().parse(template) if f is not None]
                if any(spec or conversion or not (f.isidentifier() or f.isdigit())
                       for f, spec, conversion in fields):
                    _fail(f"{where(node)}: format values into load_inline's sources plainly "
                          "(`{TILE}`: no format specs, conversions, attributes or indexes; C++ "
                          "braces in a `.format` template are written doubled, `{{` and `}}`)")
                return template.format(*(scalar(a, hops) for a in node.args),
                                       **{k.arg: scalar(k.value, hops) for k in node.keywords})
            except (IndexError, KeyError, ValueError) as error:
                _fail(f"{where(node)}: load_inline's source template does not format ({error}); "
                      "C++ braces in a `.format` template are written doubled (`{{`, `}}`)")
        _fail(f"{where(node)}: load_inline's sources must be string literals, or names bound once "
              "at module level to them: sources built at run time cannot be reviewed")

    def scalar(node: ast.AST, hops: int = 0):
        """A number or string written in the file (or a name bound once to one)."""
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, str, bool):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = scalar(node.operand, hops)
            if type(value) in (int, float):
                return -value
        if isinstance(node, ast.Name) and node.id in bound and bindings.get(node.id) == 1 and hops < 20:
            return scalar(bound[node.id], hops + 1)
        _fail(f"{where(node)}: values formatted into load_inline's sources must be numbers or "
              "strings written in the file (or names bound once to them)")

    def _formatted(part: ast.FormattedValue, hops: int) -> str:
        if part.conversion != -1 or part.format_spec is not None:
            _fail(f"{where(part)}: format values into load_inline's sources plainly (`{{TILE}}`)")
        return str(scalar(part.value, hops))

    texts = []
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            _fail(f"{where(call)}: pass load_inline's arguments by name or position, not unpacked")
        if len(call.args) > 3:
            _fail(f"{where(call)}: pass load_inline's arguments after the sources by name")
        for kw in call.keywords:
            _check_build_argument(kw, bound, bindings)
        sources = [kw.value for kw in call.keywords if kw.arg in ("cpp_sources", "cuda_sources")]
        chunks = [text(arg) for arg in sources + list(call.args[1:3])]  # (name, cpp, cuda)
        functions = next((kw.value for kw in call.keywords if kw.arg == "functions"), None)
        names = [f.value for f in (functions.elts if isinstance(functions, (ast.List, ast.Tuple))
                                   else [functions] if functions is not None else [])
                 if isinstance(f, ast.Constant) and isinstance(f.value, str)]
        check_cuda_sources(*chunks, bound=tuple(names))  # each file as torch writes it
        texts += chunks
    return "\n".join(texts)


# load_inline's keywords a submission may pass; the build directory is the evaluator's (per
# evaluation), and include paths and linker flags would reach libraries the text rules never see.
LOAD_INLINE_KEYWORDS = frozenset({"name", "cpp_sources", "cuda_sources", "functions", "verbose", "with_cuda",
                        "extra_cflags", "extra_cuda_cflags", "extra_ldflags", "is_python_module",
                        "with_pytorch_error_handling"})
# Compiler flags that change code generation only (`-D` could spell a vendor call, `-l` link one).
ALLOWED_FLAG = re.compile(
    r"|-O[0-3s]?|--?use_fast_math|-lineinfo|--generate-line-info|--?std=c\+\+(17|20|23)"
    r"|--expt-[a-z-]+|--extended-lambda|(-arch=|--gpu-architecture=)(sm|compute)_\d+a?"
    r"|(-gencode=|--generate-code=)?arch=compute_\d+a?,code=(sm|compute)_\d+a?|-gencode|-w"
    r"|-Wno-[a-z-]+|-Wall|-U__CUDA_NO_[A-Z0-9_]+__|--?(ftz|prec-div|prec-sqrt|fmad)=(true|false)"
    r"|--?maxrregcount=\d+|-Xptxas|(-Xptxas=|--ptxas-options=)?-(v|O[0-3])(,-(v|O[0-3]))*"
    r"|-res-usage|--resource-usage|-DNDEBUG|-fPIC|-ffast-math|-march=native|-fopenmp-simd"
    r"|-funroll-loops"
    # host-compiler flags through nvcc: alone (the next flag is checked as any other) or joined
    r"|-Xcompiler|(-Xcompiler=|--compiler-options=)(-fPIC|-O[0-3]|-Wall|-ffast-math|-funroll-loops)"
    r"(,(-fPIC|-O[0-3]|-Wall|-ffast-math|-funroll-loops))*")


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def _check_build_argument(kw: ast.keyword, bound: dict, bindings: dict) -> None:
    if kw.arg not in LOAD_INLINE_KEYWORDS:
        _fail(f"{where(kw.value)}: load_inline's `{kw.arg}` is not allowed (the build is the "
              f"evaluator's; allowed: {', '.join(sorted(LOAD_INLINE_KEYWORDS))})")
    if kw.arg in ("name", "functions"):
        # torch writes both into generated files unescaped: the name into build.ninja's shell
        # commands, each function's name and docstring into the binding's C++
        names = kw.value.elts if kw.arg == "functions" and isinstance(kw.value, (ast.List, ast.Tuple)) \
            else [kw.value]
        if not all(isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and IDENTIFIER.fullmatch(n.value) for n in names):
            _fail(f"{where(kw.value)}: load_inline's `{kw.arg}` must be "
                  + ("a literal identifier" if kw.arg == "name" else
                     "a literal list of function names (identifiers; no docstrings)"))
        return
    if kw.arg not in ("extra_cflags", "extra_cuda_cflags", "extra_ldflags"):
        return
    value = kw.value
    if isinstance(value, ast.Name) and value.id in bound and bindings.get(value.id) == 1:
        value = bound[value.id]
    flags = value.elts if isinstance(value, (ast.List, ast.Tuple)) else None
    if flags is None or not all(isinstance(f, ast.Constant) and isinstance(f.value, str) for f in flags):
        _fail(f"{where(kw.value)}: load_inline's `{kw.arg}` must be a literal list of strings")
    for flag in flags:
        problem = flag_problem(kw.arg, flag.value)
        if problem:
            _fail(f"{where(flag)}: {problem}")


def flag_problem(keyword: str, flag: str) -> str | None:
    allowed = flag.strip() == "" if keyword == "extra_ldflags" else ALLOWED_FLAG.fullmatch(flag.strip())
    if allowed:
        return None
    return (f"the build flag {flag!r} is not allowed: flags may change code generation only (-O3, "
            "--use_fast_math, -arch=..., -lineinfo, ...); no defines, include paths or libraries")


# `PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("f", &f, "doc"); ... }`, the binding block
# LLM-written extensions carry: nothing but bindings of named functions, which is what
# load_inline's `functions=` generates. Anything else in a module block (`m.import(...)`, a
# lambda) leaves the block in place for the rules to refuse.
_BINDINGS = re.compile(
    r'pybind11_module\s*\(\s*torch_extension_name\s*,\s*(?P<m>\w+)\s*\)\s*\{'
    r'(?:\s*(?P=m)\s*\.\s*def\s*\(\s*"\w+"\s*,\s*&?\s*\w+\s*(?:,\s*"[^"\\]*")?'
    r'(?:\s*,\s*py::arg\s*\(\s*"\w+"\s*\)(?:\s*=\s*[\w.+-]+)?)*\s*\)\s*;'
    r'|\s*(?P=m)\s*\.\s*doc\s*\(\s*\)\s*=\s*"[^"\\]*"\s*;)*\s*\}')  # m.doc() = "...";
_BOUND = re.compile(r'\.\s*def\s*\(\s*"\w+"\s*,\s*&?\s*(\w+)')


def check_cuda_sources(*sources: str, bound: tuple[str, ...] = ()) -> None:
    """The text rules on each source as torch writes it (load_inline's C++ and CUDA sources are
    separate files: joined, a C++ source ending in `// \\` hid the first CUDA line from the rules),
    and the functions bound to Python (`functions=` and a binding block's `m.def`s) must be
    defined in the sources: `m.def("sh", &system)` and `functions=["system"]` bound libc."""
    names = set(bound)
    texts = []
    for source in sources:
        text = re.sub(r"\s*::\s*", "::", code_and_literals(source).lower())
        for block in _BINDINGS.finditer(text):
            names.update(_BOUND.findall(block.group(0)))
        # a binding block is read as the names it binds: the rules judge those names
        text = _BINDINGS.sub(lambda b: " " + " ".join(_BOUND.findall(b.group(0))) + " ", text)
        _check_text(text + " " + " ".join(n.lower() for n in bound))
        texts.append(_LITERALS.sub('""', text))
    code = "\n".join(texts)
    for name in sorted(names):
        if not re.search(rf"\b{re.escape(name.lower())}\s*\([^;{{}}]{{0,4000}}\)[\s\w]{{0,200}}\{{", code):
            _fail(f"your extension binds `{name}` to Python, which your sources do not define; bind "
                  "only functions your sources define")


_ESCAPE = re.compile(r"\\(x|[0-7]{1,3}|.)", re.DOTALL)


def _check_escapes(text: str) -> None:
    """Characters by number (`"sys\\143all"`, `"\\x73ystem"`) spell, inside a literal the
    compiler decodes (an assembler name, an asm template), what the rules read as text."""
    for literal in _LITERALS.finditer(text):
        for escape in _ESCAPE.finditer(literal.group(0)[1:-1]):
            code = escape.group(1)
            if code[0] == "x" or (code[0] in "01234567" and code != "0"):
                _fail(f"the escape `\\{code}` in your CUDA source's literal {literal.group(0)[:40]} "
                      "is not allowed: characters written by number can spell names the rules "
                      "refuse; write the characters themselves (`\\0`, `\\n`, `\\t` are fine)")


def _attribute_lists(code: str, opener: re.Pattern, closer: str):
    """The attributes of each `__attribute__((...))` or `[[...]]` list, split at top-level commas."""
    for found in opener.finditer(code):
        items, part, depth = [], [], 0
        for i in range(found.end(), len(code)):
            c = code[i]
            if depth == 0 and (code.startswith(closer, i) or c == ","):
                items.append("".join(part).strip())
                part = []
                if c != ",":
                    break
                continue
            depth += (c in "([{") - (c in ")]}")
            part.append(c)
        else:
            items.append("".join(part).strip())
        yield found.group(0), items


def _attribute_spelling(code: str) -> str:
    """Attribute brackets as the compiler reads them: digraphs (`<:` is `[`, `:>` is `]`, but
    `<::` followed by neither `:` nor `>` is `<` then `::`), and blanks between the two brackets
    (`[ [gnu::constructor] ]`, `__attribute__( (constructor) )`: red-team pass 29)."""
    code = re.sub(r"<:(?!:(?![:>]))", "[", code).replace(":>", "]")
    code = re.sub(r"\[\s+\[", "[[", re.sub(r"\]\s+\]", "]]", code))
    return re.sub(r"\(\s+\(", "((", re.sub(r"\)\s+\)", "))", code))


def _check_attributes(code: str) -> None:
    """Every attribute of every list, not only the first (`aligned(16), constructor`)."""
    for opener, items in _attribute_lists(code, _GNU_ATTRIBUTE_LIST, "))"):
        for item in items:
            name = re.match(r"\w*", item).group(0).strip("_")
            if item and name not in ALLOWED_GNU_ATTRIBUTES:
                _fail_cuda(f"{opener}{item}", _ATTRIBUTES_REASON)
    for opener, items in _attribute_lists(code, _STANDARD_ATTRIBUTE_LIST, "]]"):
        for item in items:
            scoped = re.match(r"(using\b|\w+\s*::\s*(\w*))", item)
            if scoped and (scoped.group(0).startswith("using") or scoped.group(2).strip("_")
                           not in ALLOWED_GNU_ATTRIBUTES):
                _fail_cuda(f"[[{item}", _ATTRIBUTES_REASON)


def _check_text(text: str) -> None:
    _check_escapes(text)
    for needle, reason in CUDA_FORBIDDEN_TEXT.items():
        if needle in (_PY_ARG.sub(" ", text) if needle.startswith("py") else text):
            _fail_cuda(needle, reason)
    for pattern, reason in CUDA_FORBIDDEN_PATTERNS.items():
        found = pattern.search(text)
        if found:
            _fail_cuda(found.group(0), reason)
    code = _LITERALS.sub('""', text)
    _check_attributes(_attribute_spelling(code))
    for pattern, reason in CUDA_FORBIDDEN_IDENTIFIERS.items():
        found = pattern.search(code)
        if found:
            _fail_cuda(found.group(0).strip(), reason)
