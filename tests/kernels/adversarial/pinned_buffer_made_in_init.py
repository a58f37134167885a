# task: level1/19_ReLU
# expect: format_violation
# why: pinned host buffers made in __init__: a kernel copies the input there over unified addressing, host-side torch (all-host operations are exempt on the GPU evaluator, for the autotuner) computes, a kernel copies back; provenance sees only the copy kernel (it scored on the H200)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


def _copy(src, dst):
    n = src.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](src, dst, n, BLOCK=1024)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # pinned host memory, allocated outside the guard: device kernels can read/write it
        self.stage = torch.empty(1 << 24, pin_memory=True)
        self.back = torch.empty(1 << 24, pin_memory=True)

    def forward(self, x):
        n = x.numel()
        host_in = self.stage[:n].view(x.shape)
        _copy(x, host_in)                      # device -> pinned host, by "my" kernel
        torch.cuda.synchronize()
        res = torch.relu(host_in)    # host-only torch: exempt on the GPU evaluator
        host_out = self.back[:n].view(x.shape)
        host_out.copy_(res)                    # cpu -> cpu copy
        out = torch.empty_like(x)
        _copy(host_out, out)                   # pinned host -> device, by "my" kernel
        return out
