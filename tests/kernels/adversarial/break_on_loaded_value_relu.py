# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 34 on the cpu evaluator (session 16)
# why: `break` under an `if` on a loaded value leaves a static loop's index holding the data's
#      bit, which then indexes a tuple; Triton's compiler refuses `break`/`continue` (only the
#      syntax it compiles may appear in a kernel body)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    base = tl.program_id(0) * BLOCK
    for j in range(0, BLOCK):
        v = tl.load(x_ptr + base + j)
        for k in range(0, 2):
            if k == 1:
                break
            if v > 0:
                break
        tl.store(out_ptr + base + j, (v, 0.0)[k])


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(x.numel() // 1024,)](x, out, BLOCK=1024)
        return out

