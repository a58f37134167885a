# task: level1/19_ReLU
# expect: format_violation
# why: a kernel argument whose class defines `__class__` as a property (a FunctionDef, decorated by
#      an arbitrary expression) passes the launch-argument check as a torch.dtype
#      (`isinstance(arg, torch.dtype)` reads `__class__`); the getter is C callables only
#      (property -> partial(next, chain(...)) -> map(partial(torch.clamp, out=...))), so the next
#      read, `isinstance(arg, tuple)` in the interpreter's _init_args_hst with the guard paused,
#      runs torch.clamp unchecked and no frame of this file starts for the profile watch.
#      Refused: defining `__class__` (and descriptors) is not allowed, and the evaluator judges
#      such objects by type(), not isinstance().
import functools
import itertools
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(x, scratch, n, token, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(scratch + offs, tl.load(x + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        scratch = torch.empty_like(x)
        reads = itertools.chain([torch.dtype], map(functools.partial(torch.clamp, min=0, out=out), [x]),
                                itertools.repeat(torch.dtype))

        class Token:
            @(lambda f: property(functools.partial(next, reads)))
            def __class__(self):
                pass

        n = x.numel()
        touch_kernel[(1,)](x, scratch, 1, Token(), BLOCK=16)
        return out
