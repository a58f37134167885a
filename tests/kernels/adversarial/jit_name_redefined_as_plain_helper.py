# task: level1/19_ReLU
# expect: format_violation
# why: `relu_block` is defined twice: first @triton.jit (so kernel_globals allows the name and the
#      kernel-body rules check that body), then as a plain Python function under the same name;
#      the module binds the plain one, and the kernel calls it at run time in the interpreter.
#      The helper reads the block as text (str of a tl.tensor is its numpy array) and writes the
#      ReLU into the output with torch.tensor + copy_ (both allowed ops)
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

STATE = {}


@triton.jit
def relu_block(x, start):
    return tl.maximum(x, 0.0)


def relu_block(x, start):
    vals = np.array(str(x).replace("[", " ").replace("]", " ").split(), dtype=np.float32)
    vals = np.maximum(vals, 0.0)
    dst = STATE["out"]
    i = int(start)
    dst[i:i + vals.shape[0]].copy_(torch.tensor(vals.tolist(), dtype=dst.dtype))
    return x


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK
    offs = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = relu_block(x, start)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        out = torch.empty(n, dtype=x.dtype, device=x.device)
        STATE["out"] = out
        BLOCK = 256
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out.view(x.shape)
