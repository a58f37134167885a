# task: level1/19_ReLU
# expect: format_violation
# why: a tl.constexpr argument (a Triton class holding a plain str, so it passes the launch
#      check) reaches the interpreted body as the host's own object; the body does
#      `BOX.value += f"{v} "` (an augmented attribute store, which the interpreter does not
#      rewrite), so the block's values leave as numpy text; forward computes the ReLU in Python.
#      Kernel bodies may not assign into objects (attributes, subscripts).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leak_kernel(x_ptr, y_ptr, n, BOX: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    BOX.value += f"{v} "


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        box = tl.constexpr("")
        out = torch.empty_like(x)
        n = x.numel()
        leak_kernel[(triton.cdiv(n, 512),)](x, out, n, box, BLOCK=512)
        text = box.value.replace("[", " ").replace("]", " ")
        vals = [max(float(t), 0.0) for t in text.split()]
        out.copy_(torch.tensor(vals[:n], dtype=x.dtype).view_as(x))
        return out
