# task: level1/19_ReLU
# expect: format_violation
# why: a class of the file's own named `torch` made `torch.finfo(torch.float32).eps` a Python function the kernel called, which read each block's text for host code (review of session 11); dtype limits now count only on names bound by `import torch`
import torch as T
import torch.nn as nn
import triton
import triton.language as tl

SINK = []


def spy(v):
    SINK.append(str(v))
    return v


class torch:
    float32 = 0

    class finfo:
        def __init__(self, dtype):
            self.eps = spy


EPS = torch.finfo(torch.float32).eps


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, EPS(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = T.empty_like(x)
        n = x.numel()
        SINK.clear()
        copy_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
        vals = []
        for text in SINK:
            for tok in text.replace("[", " ").replace("]", " ").split():
                v = float(tok)
                vals.append(v if v > 0 else 0.0)
        return T.tensor(vals[:n], dtype=x.dtype).view(x.shape)
