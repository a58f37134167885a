# task: level1/19_ReLU
# expect: format_violation
# why: self.compile() is torch.compile (nn.Module.compile): Inductor's kernel would do the work
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


class Helper(nn.Module):
    def __init__(self):
        super().__init__()
        self.compile(dynamic=False, options={"compile_threads": 1})

    def forward(self, x):
        return torch.relu(x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = Helper()
        self.fn(torch.rand(16, 4096))
        if torch.cuda.is_available():
            self.fn(torch.rand(16, 4096, device="cuda"))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return self.fn(out)
