# task: level1/19_ReLU
# expect: format_violation
# why: the launch-argument check runs before the grid callable: the grid lambda appends a plain
#      Python helper to a list argument (empty, so legal, when checked); the kernel calls
#      `sink[0](...)` (a subscript of its own parameter, which no body rule names), and the helper
#      reads the block as text and writes the ReLU with torch.tensor + copy_
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

STATE = {}


def relu_helper(x, start):
    vals = np.array(str(x).replace("[", " ").replace("]", " ").split(), dtype=np.float32)
    dst = STATE["out"]
    i = int(start)
    dst[i:i + vals.shape[0]].copy_(torch.tensor(np.maximum(vals, 0.0).tolist(), dtype=dst.dtype))
    if i + vals.shape[0] >= dst.shape[0]:
        STATE["sink"].clear()  # gone before the interpreter's restore step checks the arguments


@triton.jit
def relu_kernel(x_ptr, n, sink, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    sink[0](x, start)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        out = torch.empty(n, dtype=x.dtype, device=x.device)
        STATE["out"] = out
        BLOCK = 256
        sink = []
        STATE["sink"] = sink
        blocks = triton.cdiv(n, BLOCK)
        relu_kernel[lambda meta: (sink.append(relu_helper), (blocks,))[1]](x, n, sink, BLOCK=BLOCK)
        return out.view(x.shape)
