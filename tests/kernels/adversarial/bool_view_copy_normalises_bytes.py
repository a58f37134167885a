# task: level1/19_ReLU
# expect: forbidden_op
# found: red-team pass 51 (session 23; scored on a stand-in `x != 0` task on the cpu evaluator)
# why: a bool view of the input's bytes, copied (aten.copy_, bool to bool: allowed), comes out
#      as 0 or 1 per byte: torch computed `byte != 0`. Here the four flags of each float say
#      whether any of its bytes is nonzero, i.e. x != 0, and the kernel multiplies. Copies of
#      bool tensors holding bytes other than 0 and 1 are refused (guard: bool bytes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_from_flags_kernel(x_ptr, flags_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    any_set = tl.zeros([BLOCK], dtype=tl.int32)
    for k in tl.static_range(4):
        any_set = any_set | tl.load(flags_ptr + 4 * offs + k, mask=mask).to(tl.int32)
    nonzero = any_set != 0
    tl.store(out_ptr + offs, tl.where(nonzero & (x > 0.0), x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        flags = torch.empty(x.numel() * 4, dtype=torch.bool, device=x.device)
        flags.copy_(x.view(torch.bool).reshape(-1))
        out = torch.empty_like(x)
        n = x.numel()
        relu_from_flags_kernel[(triton.cdiv(n, 1024),)](x, flags.view(torch.uint8), out, n,
                                                         BLOCK=1024)
        return out
