# task: level1/19_ReLU
# expect: format_violation
# why: tl.device_print in the kernel, contextlib.redirect_stdout around the launch: forward parses the printed values and computes in Python (it scored 0.3 on the cpu evaluator)
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
    tl.device_print("v", x)


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
        chunks = {}
        for m in re.finditer(r"\((\d+), 0, 0\)\s+v:\s+\[([^\]]*)\]", text):
            chunks[int(m.group(1))] = [float(t) for t in m.group(2).split()]
        vals = []
        for k in sorted(chunks):
            vals.extend(chunks[k])
        vals = vals[:n]
        out = torch.tensor([v if v > 0.0 else 0.0 for v in vals], dtype=x.dtype, device=x.device)
        return out.view(x.shape)
