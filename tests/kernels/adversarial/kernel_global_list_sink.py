# task: level1/19_ReLU
# expect: format_violation
# why: a kernel body declares `global SINK` and does `SINK += [f"{v}"]`: the static rules take
#      SINK for a local (it is stored to), the interpreter rewrites only plain assignments, and the
#      kernel's namespace copy still holds the module's list, so the list is extended in place
#      with the block's values as numpy text (tl.tensor.__str__ while the launch's patches hold);
#      forward parses them and computes the ReLU in Python.
#      Kernel bodies may not declare `global`/`nonlocal`.
import torch
import torch.nn as nn
import triton
import triton.language as tl

SINK = []


@triton.jit
def leak_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    global SINK
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    SINK += [f"{v}"]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        SINK.clear()
        out = torch.empty_like(x)
        n = x.numel()
        leak_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
        text = " ".join(SINK).replace("[", " ").replace("]", " ")
        vals = [max(float(t), 0.0) for t in text.split()]
        out.copy_(torch.tensor(vals[:n], dtype=x.dtype).view_as(x))
        return out
