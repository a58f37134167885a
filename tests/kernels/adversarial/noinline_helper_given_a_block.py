# task: level1/31_ELU
# expect: compile_error
# says: noinline
# found: session 17, the honest-corpus scan after Triton's front end ran on the cpu evaluator
#        (false-rejection probe 9's p26, accepted by the cpu evaluator until then)
# why: a `@triton.jit(noinline=True)` helper called with a block. Triton's compiler refuses it
#      ("Function ... is marked noinline, but was called with non-scalar argument"); the
#      interpreter ignores `noinline` and ran it, so the cpu evaluator scored a kernel that
#      cannot compile on a GPU. Now refused with the compiler's words on both evaluators.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(noinline=True)
def elu_of(x, alpha):
    return tl.where(x > 0, x, alpha * (tl.exp(x) - 1.0))


@triton.jit
def elu_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, elu_of(tl.load(x_ptr + offs, mask=mask, other=0.0), alpha), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        elu_kernel[(triton.cdiv(n, 1024),)](x, y, n, self.alpha, BLOCK=1024)
        return y
