# task: level1/31_ELU
# expect: ok
# why: a __main__ smoke test calling model.eval() (nn.Module.eval, not the built-in)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def elu_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.where(x > 0, x, alpha * (tl.exp(x) - 1.0))
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        elu_kernel[(triton.cdiv(n, 1024),)](x, y, n, self.alpha, BLOCK=1024)
        return y


batch_size = 16
dim = 4096


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return [1.0]


if __name__ == "__main__":
    model = ModelNew(*get_init_inputs()).cuda().eval()
    x = get_inputs()[0].cuda()
    with torch.no_grad():
        out = model(x)
    ref = torch.nn.functional.elu(x, alpha=1.0)
    print("max abs diff:", (out - ref).abs().max().item())
