# task: level1/19_ReLU
# expect: format_violation
# expect_gpu: rejected
# why: a plain (empty) list is a legal kernel argument and reaches the body as the same object;
#      the kernel appends f"{x}" of its loaded block, and in the interpreter tl.tensor.__str__ is
#      str(handle.data): forward parses the text and computes the ReLU in Python
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leak_kernel(x_ptr, n, sink, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    sink.append(f"{x}")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        BLOCK = 256
        sink = []
        leak_kernel[(triton.cdiv(n, BLOCK),)](x, n, sink, BLOCK=BLOCK)
        vals = []
        for text in sink:
            for tok in text.replace("[", " ").replace("]", " ").split():
                vals.append(max(float(tok), 0.0))
        vals = vals[:n]
        res = torch.tensor(vals, dtype=x.dtype, device=x.device)
        return res.view(x.shape)
