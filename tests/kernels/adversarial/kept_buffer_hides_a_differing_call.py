# task: level1/19_ReLU
# expect: nondeterministic
# found: red-team pass 51 (session 23: an honest kernel returning one kept buffer showed that
#        the determinism run then compared the buffer with itself)
# why: every call writes its result into the same kept buffer, and the second call, the
#      determinism run's, differs. The run overwrote the first result, so the comparison read
#      the buffer against itself; a race that gives different results on different calls went
#      unseen the same way. Now a result in the first call's memory is kept and compared with a
#      third call's.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, shift, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0) + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = torch.empty(0)
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        x = x.contiguous()
        if self.out.shape != x.shape or self.out.device != x.device:
            self.out = torch.empty_like(x)
        n = x.numel()
        shift = 0.5 if self.calls == 2 else 0.0
        relu_kernel[(triton.cdiv(n, 1024),)](x, self.out, n, shift, BLOCK=1024)
        return self.out
