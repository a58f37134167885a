"""The `problem` text an agent sees at reset: the reference source and the rules it is held to."""

from __future__ import annotations

from server.evaluation.inputs import describe_extra_inputs, task_family

LANGUAGE_RULES = {
    "triton": (
        "Write one Python file that defines `class ModelNew(nn.Module)` with the same constructor "
        "arguments as `Model`, computing the same outputs with your own `@triton.jit` kernels, "
        "launched from `forward` as `kernel[grid](...)`. Import triton, triton.language as tl and torch. "
        "Kernels must be valid for Triton's compiler (also checked without a GPU): a module-level "
        "constant a kernel reads must be made with `tl.constexpr(...)`."
    ),
    "cuda": (
        "Write one Python file that defines `class ModelNew(nn.Module)` with the same constructor "
        "arguments as `Model`, computing the same outputs with your own CUDA kernels built by "
        "`torch.utils.cpp_extension.load_inline` (allocate outputs with torch::empty)."
    ),
}

FORWARD_RULES = (
    "Inside `forward`, PyTorch may only allocate (torch.empty/zeros/full/empty_like/new_empty...), "
    "change layout (view, reshape, permute, transpose, contiguous, expand, unsqueeze...) and copy "
    "on the same device (clone, copy_, torch.cat/stack). Tensor arithmetic, reductions, dtype "
    "casts, scalar extraction (.item(), float(t)), copies to another device and numpy are "
    "rejected: compute in your kernels. Not allowed anywhere: torch.compile/inductor/jit, library kernels, subclassing "
    "Model, threads/processes/ctypes, patching torch, writing into the inputs."
)


PARAMETER_RULES = (
    "Parameters: ModelNew is built like Model (same init inputs, same seed); keep each of Model's "
    "parameters as an nn.Parameter of ModelNew (same name, or same shape and initial values). "
    "Those Model initialises to one value (a norm layer's weight 1 and bias 0) get other random "
    "values, the same in both models, before the trials, as training would give them."
)


def tolerance_text(task_id: str, atol: float, rtol: float) -> str:
    base = f"atol={atol:g}, rtol={rtol:g}"
    if task_family(task_id) in ("softmax", "frobenius"):
        base = (f"atol=min({atol:g}, max|reference| * 1e-5), rtol={rtol:g}, and the output must be "
                + ("non-negative with rows summing to one" if task_family(task_id) == "softmax"
                   else "of global L2 norm one"))
    return base + "; shape and dtype must match; NaN/Inf rejected; fp32 matmuls may use TF32"


def build_problem(task_id: str, source: str, language: str, *, trials: int, atol: float,
                  rtol: float, max_turns: int) -> str:
    return "\n".join([
        f"# Task {task_id} ({language})",
        "",
        "Reference implementation:",
        "```python",
        source.rstrip(),
        "```",
        "",
        "## Rules",
        f"- Submit: {LANGUAGE_RULES[language]}",
        f"- {FORWARD_RULES}",
        f"- Correctness: {trials} trials from get_inputs() with fresh seeds; tolerance "
        f"{tolerance_text(task_id, atol, rtol)}.",
        f"- Broader correctness inputs for this task: {describe_extra_inputs(task_id, source)}.",
        f"- {PARAMETER_RULES}",
        "- Timing: median over many calls on the original get_inputs() shapes against eager "
        "PyTorch on the same GPU, L2 flushed between calls.",
        f"- You have {max_turns} submissions; each returns the stage reached and feedback.",
    ])
