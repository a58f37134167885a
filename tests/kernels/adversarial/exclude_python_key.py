# task: level1/19_ReLU
# expect: format_violation
# why: torch.ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.Python)) hides torch.relu from the dispatch guard
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)   # for show
        keys = torch.DispatchKeySet(torch.DispatchKey.Python) | torch.DispatchKeySet(torch.DispatchKey.PythonTLSSnapshot)
        with torch.ExcludeDispatchKeyGuard(keys):
            return torch.relu(x)
