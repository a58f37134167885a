# task: level1/19_ReLU
# expect: format_violation
# why: typing.get_type_hints evaluates a string annotation that switches the guard off and runs torch.relu
# Exploit: typing.get_type_hints evaluates annotation strings with eval(); the string disables the dispatch modes and runs torch.relu.
import typing
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


def carrier(a: "(lambda f, g, o, i: (f.__enter__(), g.__enter__(), o.copy_(torch.relu(i)), g.__exit__(None, None, None), f.__exit__(None, None, None)))(torch._C.DisableTorchFunction(), torch._C._DisableTorchDispatch(), out, x) and None"):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = out.numel()
        zero_kernel[(triton.cdiv(n, 1024),)](out, n, BLOCK=1024)
        typing.get_type_hints(carrier, None, {"x": x, "out": out})
        return out
