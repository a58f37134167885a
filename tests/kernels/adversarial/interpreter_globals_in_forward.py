# task: level1/19_ReLU
# expect: runtime_error
# why: the interpreter's leaked `inspect`, used from forward after the first launch: getattr_static reached torch._C._DisableTorchDispatch and torch.relu ran with the guard off; now the name stays unbound
import torch
import torch.nn as nn
import triton
import triton.language as tl

if False:  # never runs; Triton's interpreter fills `inspect` in at the first launch
    inspect = 0


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(1,)](x, out, 1, BLOCK=16)
        ins = inspect
        sysmod = ins.getattr_static(ins, "sys")
        mods = ins.getattr_static(sysmod, "modules")
        off = ins.getattr_static(mods["torch._C"], "_DisableTorchDispatch")
        with off():
            out.copy_(torch.relu(x))
        return out
