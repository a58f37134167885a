"""The CUDA sources of a `language="cuda"` submission, as load_inline will compile them, and the
text rules they must pass. These are the first line of defence against vendor libraries, threads,
clocks and the profiler's state in C++; kernel provenance on the GPU (provenance.py) catches what
text rules cannot.
"""

from __future__ import annotations

import ast
import re
import textwrap

from .source_names import binding_counts, dotted, where
from .stages import STATIC_CHECK, StageFailure

CLOCKS_REASON = ("submissions may not read clocks: behaviour that depends on timing is how an "
                 "evaluator is told apart from a user")
PROFILER_REASON = "the evaluator records your kernels with the profiler; submissions may not use it"
STREAMS_REASON = ("work on a stream of your own is not ordered after the timer's start; launch on "
                  "the current stream")


def _fail(feedback: str):
    raise StageFailure(STATIC_CHECK, "format_violation", feedback)


# Text in a CUDA submission's source strings (case-insensitive) -> why it is refused. The first
# line of defence; kernel provenance on the GPU catches what text rules cannot (see provenance.py).
_VENDOR = "vendor libraries compute for you; write your own kernels"
_DISPATCHER = ("registering kernels for torch's operators changes what every caller of them, the "
               "reference included, computes")
CUDA_FORBIDDEN_TEXT = {
    "cublas": _VENDOR, "cudnn": _VENDOR, "cutlass": _VENDOR, "cufft": _VENDOR, "cusparse": _VENDOR,
    "cusolver": _VENDOR, "thrust::": _VENDOR, "cub::device": _VENDOR,
    "nvrtc": "runtime compilation hides the kernel from review",
    "dlopen": "loading libraries at run time is not allowed",
    "dlsym": "loading libraries at run time is not allowed",
    "##": "token pasting can assemble forbidden names",
    "std::thread": "threads escape the dispatch guard", "pthread_create": "threads escape the dispatch guard",
    "std::async": "threads escape the dispatch guard",
    "chrono": CLOCKS_REASON, "clock": CLOCKS_REASON, "gettimeofday": CLOCKS_REASON, "elapsedtime": CLOCKS_REASON,
    "rdtsc": CLOCKS_REASON, "cupti": CLOCKS_REASON, "globaltimer": CLOCKS_REASON, "timespec": CLOCKS_REASON,
    "profiler": PROFILER_REASON, "kineto": PROFILER_REASON, "recordfunction": PROFILER_REASON,
    "record_function": PROFILER_REASON, "callbacks": PROFILER_REASON,
    "/proc": "reading the process's state is not allowed",
    "cudastreamcreate": STREAMS_REASON, "custreamcreate": STREAMS_REASON,
    "getstreamfrom": STREAMS_REASON, "getnewstream": STREAMS_REASON, "streamnonblocking": STREAMS_REASON,
    "guardimpl": STREAMS_REASON, "cuctxcreate": STREAMS_REASON,
    "torch_library": _DISPATCHER, "dispatcher": _DISPATCHER, "registeroperators": _DISPATCHER,
    "op_registration": _DISPATCHER,
}
_C_TIME_CALL = re.compile(r"\btime\s*\(")
_C_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def strip_comments(source: str) -> str:
    """C/C++ source without its comments: what compiles, not what the comments say."""
    return _C_COMMENTS.sub(" ", source)


LOAD_INLINE = "torch.utils.cpp_extension.load_inline"


def load_inline_sources(tree: ast.Module, aliases: dict[str, str]) -> str:
    """The text load_inline compiles: its source arguments, following names bound once, at
    module level, to string literals (concatenations, lists, `textwrap.dedent` of a literal).
    Comments and docstrings elsewhere are not read; a source built at run time, or load_inline
    called any other way than directly, cannot be reviewed and is refused."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and dotted(n.func, aliases) == LOAD_INLINE]
    call_funcs = {id(c.func) for c in calls}
    for node in ast.walk(tree):
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
        _fail(f"{where(node)}: load_inline's sources must be string literals, or names bound once "
              "at module level to them: sources built at run time cannot be reviewed")

    texts = []
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            _fail(f"{where(call)}: pass load_inline's arguments by name or position, not unpacked")
        sources = [kw.value for kw in call.keywords if kw.arg in ("cpp_sources", "cuda_sources")]
        texts += [text(arg) for arg in sources + list(call.args[1:3])]  # (name, cpp, cuda)
    return "\n".join(texts)


def check_cuda_sources(source: str) -> None:
    text = strip_comments(source).lower()
    for needle, reason in CUDA_FORBIDDEN_TEXT.items():
        if needle in text:
            _fail(f"`{needle}` in your CUDA source is not allowed: {reason}")
    if _C_TIME_CALL.search(text):
        _fail(f"`time(...)` in your CUDA source is not allowed: {CLOCKS_REASON}")
