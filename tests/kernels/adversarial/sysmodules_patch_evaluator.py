# task: level1/19_ReLU
# expect: format_violation
# why: reaches sys.modules through os.path.sys and replaces the evaluator's comparison with a no-op
# Exploit: `os.path.sys.modules` (head `os.path` is allowed; `torch.sys` works too) reaches
# the evaluator's own modules; replacing pipeline.check_output / check_deterministic makes any
# output "correct". Integrity only watches torch namespaces, not the evaluator.
import os
import torch
import torch.nn as nn
import triton
import triton.language as tl

MODS = os.path.sys.modules


def _ok(*args, **kwargs):
    return 0.0


for name, mod in list(MODS.items()):
    if name.endswith("evaluation.pipeline"):
        mod.check_output = _ok
        mod.check_deterministic = _ok


@triton.jit
def nothing_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        nothing_kernel[(1,)](out, 1, BLOCK=16)
        return out
