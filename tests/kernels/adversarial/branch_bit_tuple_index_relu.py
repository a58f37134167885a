# task: level1/19_ReLU
# expect: format_violation
# found: session 16, the gap red-team pass 33 left open (one bit per `if` on a loaded value)
# why: `if v > 0: k = 1 else: k = 0` assigns Python numbers in the interpreter, so `(0.0, v)[k]`
#      picks a tuple element by the input's data in host Python; Triton's compiler refuses a
#      run-time tuple index. What a branch or loop on a loaded value assigns now counts as read
#      from memory, and tuple indices may not derive from memory.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_by_branch_kernel(x_ptr, out_ptr, n):
    for j in range(0, n):
        v = tl.load(x_ptr + j)
        if v > 0:
            k = 1
        else:
            k = 0
        tl.store(out_ptr + j, (0.0, v)[k])


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_by_branch_kernel[(1,)](x, out, x.numel())
        return out
