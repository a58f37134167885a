# task: level1/19_ReLU
# expect: output_mismatch
# why: binds __name__ to "__main__" with a match capture so the `__main__` block, which the static check skips, would run at import; the evaluator imports the checked text, with that block blanked out
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nothing_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)  # zeros everywhere: what the __main__ block would have fixed
        nothing_kernel[(triton.cdiv(out.numel(), 1024),)](out, out.numel(), BLOCK=1024)
        return out


match "__main__":
    case __name__:
        pass

if __name__ == "__main__":
    # unchecked by static rules
    _D = torch._C._DisableTorchDispatch
    _F = torch._C.DisableTorchFunction

    def forward(self, x):
        out = torch.empty_like(x)
        nothing_kernel[(1,)](out, 1, BLOCK=16)
        with _D(), _F():
            out.copy_(torch.relu(x))
        return out

    ModelNew.forward = forward
