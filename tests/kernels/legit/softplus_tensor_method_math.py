# task: level1/29_Softplus
# expect: ok
# why: math written with Triton tensor methods (x.abs(), .exp(), .log()) rather than tl.* calls;
#      softplus with torch's threshold of 20
#      (session 44's honest sweep: the interpreter ran these methods without their semantic and
#      the cpu evaluator called an honest kernel a compile error; front_end marks them now)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    soft = tl.maximum(x, 0.0) + (1.0 + (-x.abs()).exp()).log()
    tl.store(y_ptr + offs, tl.where(x > 20.0, x, soft), mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
