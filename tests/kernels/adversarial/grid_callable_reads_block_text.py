# task: level1/19_ReLU
# expect: runtime_error
# why: the grid callable runs inside GridExecutor.__call__ after _patch_lang, where tl.tensor's
#      __str__ is `str(self.handle.data)`: host code calls tl.load on the converted pointer in
#      `meta`, reads the block's values as text, computes the ReLU in Python, and forward copies
#      the Python list into the output with torch.tensor (allocation + copy only).
#      A grid callable now runs before the launch, on the launch's own arguments (as on a GPU),
#      where tl.load outside a kernel fails.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        vals = []

        def grid(meta):
            step = 512
            for start in range(0, n, step):
                offs = start + tl.arange(0, step)
                text = str(tl.load(meta["x_ptr"] + offs, mask=offs < n, other=0.0))
                for tok in text.strip("[]").split():
                    vals.append(max(float(tok), 0.0))
            return (1,)

        noop_kernel[grid](x, out, n, BLOCK=16)
        out.copy_(torch.tensor(vals[:n], dtype=x.dtype).view_as(x))
        return out
