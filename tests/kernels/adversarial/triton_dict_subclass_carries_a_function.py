# task: level1/19_ReLU
# expect: format_violation
# why: AsmDict (a dict subclass defined by Triton) passes the launch-argument check (a Triton class
#      whose instance __dict__ is empty; the dict's items are never looked into) and reaches the
#      kernel body as-is; the body fetches a plain Python helper out of it into a local and calls it.
#      Refused: triton.compiler is not a submission's to import, and only Triton's constants, dtypes,
#      tensor descriptors and reinterpreted tensors may be kernel arguments (no container subclass).
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.compiler.compiler import AsmDict

RESULTS = []


def helper(v):
    text = str(v)
    nums = text.replace("[", " ").replace("]", " ").split()
    RESULTS.extend(max(float(s), 0.0) for s in nums)
    return 0


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, box, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    f = box.get("f")
    f(x)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 512
        RESULTS.clear()
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, AsmDict(f=helper), BLOCK=BLOCK)
        vals = torch.tensor(RESULTS[:n], dtype=torch.float32)
        out.copy_(vals.view(x.shape))
        return out
