"""Triton's own front end run on each interpreted launch (cpu evaluator).

The interpreter runs a kernel's body as Python: it accepts kernels Triton's compiler refuses (a
global the compiler cannot read, a block shaped by a run-time value, a loop-carried value that
changes type, a `tl.dot` on tiles smaller than 16) and lets host Python compute where a GPU
would compile. Before each interpreted launch the kernel goes through the code generator that a
GPU launch runs (its AST to TTIR for an sm_90 target, which needs no GPU) with the launch's own
signature and compile-time values; what it refuses fails the step with the compiler's own error,
as the launch would on a GPU; so does a kernel computing in 8-bit or narrower formats
(precision.py: the gpu evaluator reads the same TTIR off its compiled kernels). The static
kernel rules stay, as defence in depth and as earlier, clearer feedback.

Under TRITON_INTERPRET every `@triton.jit` function (triton.language's standard library
included) is an InterpretedFunction, which the code generator does not compile: for the length
of one front-end run each is seen as the JITFunction a GPU process holds."""

import ast
import contextlib
import functools
import re
import sys
import textwrap
import types

from . import precision

_TARGET = ("cuda", 90, 32)
# Triton 3.6's interpreter keeps bfloat16 values as their raw 16 bits (numpy has no bfloat16) and
# its arithmetic, dots and reductions compute on those bits as integers (red-team pass 63: an
# honest bfloat16 tl.dot returned 1.4e11 for -13.1); its casts to and from float32 work (they
# truncate where a GPU rounds to nearest). A launch computing in bfloat16 fails here with that
# said, not with a wrong result to chase.
_BF16_ARITHMETIC = re.compile(r"\b(arith\.(addf|subf|mulf|divf|remf|negf|maximumf|minimumf|maxnumf"
                              r"|minnumf|cmpf|select)|math\.\w+|tt\.(dot|reduce|scan|precise_\w+"
                              r"|extern_elementwise|atomic_rmw|atomic_cas|clampf))\b.*(\b|x)bf16\b")
BF16_MESSAGE = ("the cpu evaluator cannot compute in bfloat16: Triton's interpreter keeps "
                "bfloat16 values as raw bits and its arithmetic gives wrong results; compute in "
                "float16 or float32 on the cpu evaluator (bfloat16 is fine on the gpu evaluator)")


class InterpreterCompilationLimit(Exception):
    """What the interpreter cannot run although a GPU compiles it (a compile_error here)."""


# the decorator's arguments that change what compiles (not `repr`/`launch_metadata`: callables
# the submission could pass, used only to name and profile launches)
_JIT_OPTIONS = ("version", "do_not_specialize", "do_not_specialize_on_alignment", "debug", "noinline")
_compiled: set = set()
# (kernel, its module's compile-readable names) -> the JITFunction twins and the binder, made
# once per launch site rather than on every launch; holding the names keeps their ids unused
_prepared: dict[tuple, tuple] = {}


def prime() -> None:
    """Imports the code generator and builds its backend and triton.language's JITFunctions in
    the warm parent: a forked evaluation pays only its own kernels' runs (~10-40 ms each)."""
    import triton.compiler.code_generator  # noqa: F401
    _mark_tensor_method_math()
    _context()
    with _standard_library_as_jit():
        pass


def _mark_tensor_method_math() -> None:
    """Triton 3.6 makes `x.exp()`, `x.rsqrt()` & co. (12 math functions) tensor methods before
    it marks the functions builtins, so their methods are not marked; the interpreter patches
    only marked members and called them without a semantic ("'NoneType' object has no attribute
    'to_tensor'"), where a GPU's code generator hands one to any method of a tensor: an honest
    `x.exp()` failed to compile on the cpu evaluator alone (session 44's honest sweep). Marked
    here as the functions they forward to are, the interpreter runs them as a GPU compiles them."""
    from triton.language import core
    from triton.language import math as tl_math
    for name, member in vars(core.tensor).items():
        forwarded = getattr(tl_math, name, None)
        if (isinstance(member, types.FunctionType) and not core.is_builtin(member)
                and (member.__doc__ or "").startswith("Forwards to")
                and core.is_builtin(forwarded)):
            setattr(member, core.TRITON_BUILTIN, True)


def check_launch(kernel, args: tuple, kwargs: dict, unwatched=contextlib.nullcontext) -> None:
    """Raises the compiler's error for this launch of an InterpretedFunction, if it has one.
    `unwatched` is the guard's pause, for Triton's reading of the (checked) arguments' types and
    pointers only: the code generator itself runs watched, as on a GPU (a
    `triton.constexpr_function` runs the submission's Python there)."""
    from triton.compiler.compiler import ASTSource
    backend, target = _backend()
    # the module's names the compiler can read are in the keys: on a GPU such a global, rebound
    # after the kernel compiled, fails the launch ("has changed since we compiled this kernel");
    # here the launch compiles again, so what the interpreter runs is what the compiler accepted
    # as it stands (tensors and other objects it cannot read are left out, and not kept alive)
    names = [(name, value) for name, value in list(kernel.fn.__globals__.items()) if _compile_time(value)]
    site = (id(kernel), tuple((name, id(value)) for name, value in names))
    if site not in _prepared:
        _prepared[site] = (kernel, names, *_prepare(kernel, backend))
    _, _, twins, jit, binder = _prepared[site]
    args = tuple(twins.value(a) for a in args)
    kwargs = {k: twins.value(v) for k, v in kwargs.items()}
    with unwatched():
        bound, specialization, options = binder(*args, **kwargs)
    options, signature, constexprs, attrs = jit._pack_args(backend, kwargs, bound, specialization, options)
    key = (site, repr(signature), _constexpr_key(sorted(constexprs.items(), key=repr)), repr(options))
    if key in _compiled:
        return
    with _standard_library_as_jit():
        module = ASTSource(jit, signature, constexprs, attrs).make_ir(
            target, options, backend.get_codegen_implementation(options), backend.get_module_map(), _context())
    ttir = str(module)
    found = precision.narrow_arithmetic(ttir)  # what the gpu evaluator reads off its TTIR
    if found is not None:
        raise precision.NarrowArithmetic(precision.feedback(found))
    # (the source's names dropped: a float32 value named `bf16` is `%bf16`, red-team pass 65)
    bf16 = next((line for line in ttir.splitlines()
                 if _BF16_ARITHMETIC.search(precision.without_names(line))), None)
    if bf16 is not None:
        raise InterpreterCompilationLimit(f"{BF16_MESSAGE} (in the kernel's TTIR: "
                                          f"{' '.join(bf16.split())[:160]})")
    _compiled.add(key)


# Objects a launch's key names by identity (kept alive so that no id is reused)
_keyed: dict[int, object] = {}


def _constexpr_key(value):
    """A launch's compile-time values as its key: plain values by type and repr, any other object
    (a @triton.jit function passed as `ACT=f`, a dtype) by identity. Red-team pass 65: by repr
    alone, two @triton.jit functions defined under one name (`JITFunction(module:name)`) were one
    key, and the second, never compiled here, ran an fp8 tl.dot unread."""
    kind = type(value)
    if kind in (int, float, bool, str, type(None)):
        return (kind.__name__, repr(value))
    if kind in (tuple, list):
        return (kind.__name__, tuple(_constexpr_key(v) for v in value))
    _keyed[id(value)] = value
    return ("object", id(value))


def _prepare(kernel, backend) -> tuple:
    """The kernel's JITFunction twin (with its helpers') and Triton's argument binder for it."""
    from triton.runtime.jit import create_function_from_signature
    twins = _JitTwins()
    jit = twins.of(kernel)
    return twins, jit, create_function_from_signature(jit.signature, jit.params, backend)


@functools.cache
def _global_kinds() -> tuple:
    import triton.language as tl
    from triton.runtime.interpreter import InterpretedFunction
    return InterpretedFunction, tl.constexpr, tl.dtype


def _compile_time(value) -> bool:
    """A global Triton's code generator can read (by type: no code of the value's own runs)."""
    interpreted, constexpr, dtype = _global_kinds()
    kind = type(value)
    return (kind is interpreted or kind is constexpr or kind is tuple
            or isinstance(value, types.ModuleType) or issubclass(kind, dtype))


@functools.cache
def _backend():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import make_backend
    target = GPUTarget(*_TARGET)
    return make_backend(target), target


def _context():
    from triton._C.libtriton import ir
    backend, _ = _backend()
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    return context


class _JitTwins:
    """The JITFunction a GPU process would hold for each InterpretedFunction: the same function
    over its module's names, every InterpretedFunction among them (and in its closure) seen the
    same way. Made afresh whenever the module's compile-readable names change: they are read as
    they are at the launch, as a GPU launch's compilation reads them."""

    def __init__(self):
        self._functions: dict[int, tuple] = {}
        self._scopes: dict[int, tuple] = {}

    def value(self, value, depth: int = 0):
        from triton.runtime.interpreter import InterpretedFunction
        if type(value) is InterpretedFunction:
            return self.of(value)
        if type(value) is tuple and depth < 4:
            return tuple(self.value(v, depth + 1) for v in value)
        return value

    def of(self, interpreted):
        from triton.runtime.jit import JITFunction
        known = self._functions.get(id(interpreted))
        if known is not None:
            return known[1]
        fn = interpreted.fn
        _reads_its_own_source(fn)
        jit = JITFunction.__new__(JITFunction)
        self._functions[id(interpreted)] = (interpreted, jit)  # before the scope: recursion
        closure = None if fn.__closure__ is None else tuple(self._cell(c) for c in fn.__closure__)
        defaults = None if fn.__defaults__ is None else tuple(self.value(d) for d in fn.__defaults__)
        twin = types.FunctionType(fn.__code__, self._scope(fn.__globals__), fn.__name__, defaults, closure)
        for attr in ("__qualname__", "__module__", "__annotations__", "__doc__"):
            setattr(twin, attr, getattr(fn, attr))
        twin.__kwdefaults__ = None if fn.__kwdefaults__ is None else {
            k: self.value(v) for k, v in fn.__kwdefaults__.items()}
        options = {k: v for k, v in interpreted.kwargs.items() if k in _JIT_OPTIONS}
        jit.__init__(twin, **options)
        _compiles_its_own_def(jit)
        return jit

    def _cell(self, cell):
        try:
            return types.CellType(self.value(cell.cell_contents))
        except ValueError:  # not yet bound
            return types.CellType()

    def _scope(self, names: dict) -> dict:
        known = self._scopes.get(id(names))
        if known is not None:
            return known[1]
        scope: dict = {}
        self._scopes[id(names)] = (names, scope)
        scope.update({name: self.value(value) for name, value in list(names.items())})
        return scope


class SourceNotItsOwn(Exception):
    """A kernel whose source, as Triton's compiler takes it, starts at another `def` line."""


def _reads_its_own_source(fn) -> None:
    """Triton's interpreter and JITFunction take a function's source with `inspect`, which
    follows `__wrapped__` to another function; this twin is built over the function's own code.
    Red-team pass 66: `functools.update_wrapper(mm_kernel.fn, mm_fast.fn)` (no assignment the
    static rules see) made the interpreter run `mm_fast`'s fp8 body while the front end compiled
    `mm_kernel`'s ieee one. A @triton.jit function that wraps another fails the launch."""
    if type(fn) is types.FunctionType and "__wrapped__" in fn.__dict__:
        raise SourceNotItsOwn(f"the @triton.jit function `{fn.__code__.co_name}` was given "
                              "`__wrapped__` (functools.wraps/update_wrapper): Triton would take "
                              "the source of the function it names, not this one's")


def _compiles_its_own_def(jit) -> None:
    """Triton compiles a function from the first line of its source (decorators included) that
    starts with `def`; the interpreter runs the function's own (the guard's
    `_def_line_of_the_function`). Red-team pass 65: an autotune `key` string holding a `def`
    line made the two different kernels, and this front end compiled the string's."""
    text = textwrap.dedent("".join(jit.raw_src))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    first = tree.body[0] if tree is not None and tree.body else None
    if not isinstance(first, ast.FunctionDef):
        raise SourceNotItsOwn(f"the source of `{jit.__name__}` does not start with its definition")
    start = sum(len(line) + 1 for line in text.split("\n")[:first.lineno - 1])  # as ast counts lines
    if jit.src != text[start:]:
        raise SourceNotItsOwn(f"a line of the decorators of `{jit.__name__}` starts with `def`: "
                              "Triton compiles a kernel from the first such line of its source, "
                              "so the kernel it would compile is not this one")


@contextlib.contextmanager
def _standard_library_as_jit():
    """triton.language's own `@jit` functions (tl.zeros, tl.sum, ...) as JITFunctions while
    the code generator runs, restored after; so are the tensor methods made of them (`x.sum()`:
    on a GPU `tl.tensor.sum` is the JITFunction itself, in the interpreter a wrapper around the
    InterpretedFunction)."""
    import triton.language as tl
    from triton.runtime.interpreter import InterpretedFunction
    changed = []
    try:
        for name, module in list(sys.modules.items()):
            if not name.startswith("triton.language") or module is None:
                continue
            for attr, value in list(vars(module).items()):
                if type(value) is InterpretedFunction:
                    changed.append((module, attr, value))
                    setattr(module, attr, _standard_jit(value))
        for attr, value in list(vars(tl.core.tensor).items()):
            wrapped = _member_of(value, InterpretedFunction)
            if wrapped is not None:
                changed.append((tl.core.tensor, attr, value))
                setattr(tl.core.tensor, attr, _standard_jit(wrapped))
        yield
    finally:
        for owner, attr, value in reversed(changed):
            setattr(owner, attr, value)


def _member_of(value, interpreted_type):
    """The InterpretedFunction a `_tensor_member_fn` wrapper forwards to, if `value` is one."""
    if type(value) is not types.FunctionType or not value.__qualname__.startswith("_tensor_member_fn."):
        return None
    cells = [c.cell_contents for c in value.__closure__ or ()]
    return next((c for c in cells if type(c) is interpreted_type), None)


_standard: dict[int, tuple] = {}


def _standard_jit(interpreted):
    from triton.runtime.jit import JITFunction
    known = _standard.get(id(interpreted))
    if known is None:
        options = {k: v for k, v in interpreted.kwargs.items() if k in _JIT_OPTIONS}
        known = _standard[id(interpreted)] = (interpreted, JITFunction(interpreted.fn, **options))
    return known[1]
