# task: level1/19_ReLU
# expect: format_violation
# why: `relu_kernel = triton.jit(relu_body)` makes a kernel by calling triton.jit instead of decorating: the static check finds kernels by their decorator only, so relu_body's body is never held to the kernel-body rules (no `.handle`/`.data`, no numpy); in the interpreter it clips the loaded values with numpy (`v.handle.data.clip(0)`), the same escape as numpy_in_kernel_body. A decorated decoy kernel satisfies "launch one @triton.jit kernel"
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


def relu_body(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask)
    v.handle.data = v.handle.data.clip(0)
    tl.store(out_ptr + offs, v, mask=mask)


relu_kernel = triton.jit(relu_body)


class ModelNew(nn.Module):
    def forward(self, x):
        noop_kernel[(1,)](x, 1, BLOCK=16)
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
