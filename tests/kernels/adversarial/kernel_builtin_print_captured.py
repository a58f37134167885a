# task: level1/19_ReLU
# expect: format_violation
# why: the builtin print(x) in the kernel body, captured the same way (it scored 0.3 on the cpu evaluator)
import contextlib
import re
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def peek_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    print(x)


class Sink:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)

    def flush(self):
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        n = x.numel()
        block = 512
        sink = Sink()
        with contextlib.redirect_stdout(sink):
            peek_kernel[(triton.cdiv(n, block),)](x, n, BLOCK=block)
        text = "".join(sink.parts)
        vals = []
        for m in re.finditer(r"\[([^\]]*)\]", text):
            vals.extend(float(t) for t in m.group(1).split())
        vals = vals[:n]
        out = torch.tensor([v if v > 0.0 else 0.0 for v in vals], dtype=x.dtype, device=x.device)
        return out.view(x.shape)
