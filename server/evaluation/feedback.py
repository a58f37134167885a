"""Turning exceptions into short feedback an agent can act on."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback

MAX_FEEDBACK_CHARS = 2000
HEADLINE_CHARS = 300


def clip(text: str, limit: int = MAX_FEEDBACK_CHARS) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 20] + "\n... (truncated)"


def describe_exception(exc: BaseException, candidate_file: str | None = None) -> str:
    """The exception line plus the frames in the submission's own file (the evaluator's are noise).
    The exception is the submission's: formatting it runs its code (`__str__`, a `__notes__`
    property, a SyntaxError's fields), which may raise too; then only its type is said."""
    try:
        with without_suggestions():
            return _described(exc, candidate_file)
    except BaseException:  # noqa: BLE001 (KeyboardInterrupt from a __str__ included)
        return f"{type_name(exc)} (its message could not be read: formatting it raised)"


@contextlib.contextmanager
def without_suggestions():
    """Exceptions formatted without Python 3.12's "Did you mean" (3.11's traceback module
    computed none; the interpreter's own display did). Computing one calls `dir()` on the object
    an AttributeError names (a submission's `__dir__`) and imports the module an ImportError
    names (`e = ImportError(name="antigravity"); e.name_from = "x"; raise e`) from the
    evaluator's frames, which the audit hook does not charge to the submission: any module,
    imported past the import rules."""
    compute = getattr(traceback, "_compute_suggestion_error", None)
    if compute is None:
        yield
        return
    traceback._compute_suggestion_error = _no_suggestion
    try:
        yield
    finally:
        traceback._compute_suggestion_error = compute


def _no_suggestion(exc_value, tb, wrong_name) -> None:
    return None


def type_name(exc: BaseException) -> str:
    """An exception's class name, read without running any of the class's own code."""
    try:
        name = type.__dict__["__qualname__"].__get__(type(exc))  # not a metaclass's property
        return name if type(name) is str else "an exception"
    except BaseException:  # noqa: BLE001
        return "an exception"


def _described(exc: BaseException, candidate_file: str | None) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if candidate_file and f.filename == candidate_file]
    where = "".join(f"  line {f.lineno}, in {f.name}: {(f.line or '').strip()}\n" for f in own[-3:])
    message = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    reason = _compile_error_reason(exc, message)
    message = _first_real_error(message) + reason + _interpreter_hint(message, candidate_file)
    return clip((where + message) if where else message)


def _compile_error_reason(exc: BaseException, message: str) -> str:
    """Triton reports an error inside a called @triton.jit function as a CompilationError that
    points at the call (its message ends at the caret), the reason down its chain of causes:
    the innermost compile error (where in the helper) and the error under it (what is wrong).
    Only Triton's own error types are followed."""
    errors = sys.modules.get("triton.compiler.errors")
    kinds = () if errors is None else tuple(
        getattr(errors, name, None) for name in
        ("CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"))
    if type(exc) not in kinds or not message.endswith("^"):
        return ""
    cause_of = BaseException.__dict__["__cause__"].__get__  # no property of a subclass
    chain = [exc]
    while len(chain) < 8 and type(chain[-1]) in kinds and cause_of(chain[-1]) is not None:
        chain.append(cause_of(chain[-1]))
    text = lambda e: "".join(traceback.format_exception_only(type(e), e)).strip()  # noqa: E731
    innermost = [e for e in chain if type(e) in kinds][-1]
    where = text(innermost)
    parts = [where] if innermost is not exc else []
    if type(chain[-1]) not in kinds and where.endswith("^"):
        parts.append(text(chain[-1]))
    return "".join("\n" + part for part in parts)


def _interpreter_hint(message: str, candidate_file: str | None) -> str:
    """What the cpu evaluator (Triton's interpreter on CPU tensors, no GPU) cannot do that a GPU
    could: said plainly instead of the low-level error it causes."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return ""
    if (("NoneType" in message or "_semantic` argument must be provided" in message
         or "extern_elementwise not supported" in message)
            and _source_mentions(candidate_file, "libdevice")):
        # `triton.language.extra.libdevice` returns None there; `extra.cuda.libdevice` (the
        # spelling most kernels use) is never patched and fails for want of `_semantic`
        return ("\n(the cpu evaluator runs Triton's interpreter, where libdevice functions are "
                "missing (`tl.extra.cuda.libdevice.*` and `tl.extra.libdevice.*` do not run "
                "there): use triton.language's own (tl.exp, tl.log, tl.sqrt, tl.sigmoid, "
                "tl.erf, tl.math.*; tanh as 2 * tl.sigmoid(2 * x) - 1) or the gpu evaluator)")
    if "inline_asm not supported" in message or "extern_elementwise not supported" in message:
        return ("\n(the cpu evaluator runs Triton's interpreter, which cannot run inline "
                "assembly (`tl.inline_asm_elementwise`) or external functions "
                "(`tl.extern_elementwise`): write the operation with triton.language's own "
                "functions here; both are fine on the gpu evaluator)")
    if "_semantic` argument must be provided" in message:
        return ("\n(the cpu evaluator runs Triton's interpreter, which patches triton.language's "
                "functions only where the module holds them: a name bound to one at module level "
                "(`exp = tl.exp`, `from triton.language import maximum`) stays unpatched; call "
                "`tl.exp(...)` in the kernel (both work on a GPU)")
    if "active drivers" in message:
        return ("\n(the cpu evaluator has no GPU driver: `triton.runtime.driver.active` fails "
                "there; allocate on the inputs' device, `x.device`)")
    if ("NVIDIA driver" in message or "not compiled with CUDA" in message
            or "exchangeDevice" in message or "Expected a cuda device" in message):
        # torch.cuda.synchronize(), torch.cuda.current_device() and `with torch.cuda.device(
        # x.device.index):` (Triton's older tutorials) reach here too, not only allocations
        return ("\n(the cpu evaluator runs on CPU tensors, without a GPU or CUDA driver: "
                "allocate on the inputs' device, `x.device`, not 'cuda', and leave out calls "
                "into torch.cuda (synchronize, current_device, `with torch.cuda.device(...)`), "
                "which fail there; they are fine on the gpu evaluator; a persistent kernel's SM "
                "count: `torch.cuda.get_device_properties(x.device).multi_processor_count if "
                "x.is_cuda else 4`)")
    return ""


def _source_mentions(candidate_file: str | None, word: str) -> bool:
    try:
        with open(candidate_file or "", encoding="utf-8", errors="replace") as f:
            return word in f.read()
    except OSError:
        return False


def _first_real_error(message: str) -> str:
    """Compiler logs bury the first error under the build's command lines, warnings and notes:
    keep the headline (shortened: a build failure's first line holds the whole compiler command)
    and start at the first line that reports an error."""
    lines = message.splitlines()
    for i, line in enumerate(lines[1:], 1):
        low = line.lower().lstrip()
        if "error:" in low or low.startswith("error"):
            return "\n".join([clip(lines[0], HEADLINE_CHARS)] + lines[i: i + 12])
    return "\n".join(lines[:40])
