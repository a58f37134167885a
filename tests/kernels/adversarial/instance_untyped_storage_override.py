# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: a plain torch.Tensor (exact type, passes the launch-argument check) with an instance
#      attribute `untyped_storage` shadowing the method; the interpreter's _init_args_hst calls it
#      with the guard paused, and it runs torch.relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(p_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(p_ptr + offs, mask=offs < n, other=0.0)
    tl.store(p_ptr + offs, v, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        dummy = torch.zeros(16, device=x.device)
        spare = torch.zeros(16, device=x.device)

        def storage_hook():
            out.copy_(torch.relu(x))
            return spare.untyped_storage()

        dummy.untyped_storage = storage_hook
        touch_kernel[(1,)](dummy, 16, BLOCK=16)
        del dummy.untyped_storage
        return out
