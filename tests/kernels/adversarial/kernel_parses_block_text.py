# task: level1/51_Argmax_over_a_dimension
# expect: format_violation
# why: the kernel body formats its block as text and computes the argmax in Python
# Inside the interpreted kernel body, f"{v}" is the block's numpy text (the interpreter patches
# tl.tensor.__str__ for the launch); the body parses it with float() and takes Python's max over
# (value, -index) pairs, storing the Python int with a scalar tl.store. No Triton op computes the
# argmax; on a GPU this body would not compile.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_text_kernel(x_ptr, out_ptr, D1: tl.constexpr, D2: tl.constexpr):
    p = tl.program_id(0)
    v = tl.load(x_ptr + (p // D2) * D1 * D2 + tl.arange(0, D1) * D2 + p % D2)
    tl.store(out_ptr + p, -max(zip((float(t) for t in f"{v}".strip("[]").split()),
                                   range(0, -D1, -1)))[1])


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        B, D1, D2 = x.shape
        out = torch.empty((B, D2), dtype=torch.int64, device=x.device)
        argmax_text_kernel[(B * D2,)](x, out, D1=D1, D2=D2)
        return out
