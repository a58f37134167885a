# task: level1/21_Sigmoid
# expect: ok
# why: decorator spelled @triton.jit() / @triton.jit(do_not_specialize=["n_elements"]), an early
#      `if pid * BLOCK >= n_elements: return`, cache_modifier/eviction_policy hints (not
#      both on one load: ptxas refuses .cg with .evict_first on sm_90), tl.sigmoid
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit()
def _sigmoid(x):
    return 1.0 / (1.0 + tl.exp(-x))


@triton.jit(do_not_specialize=["n_elements"])
def sigmoid_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK_SIZE >= n_elements:
        return
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    y = _sigmoid(x.to(tl.float32))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask, cache_modifier=".cs")


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = x.new_empty(x.shape)
        n_elements = x.numel()
        # one extra program on purpose: exercises the early return
        grid = (triton.cdiv(n_elements, 1024) + 1,)
        sigmoid_kernel[grid](x, y, n_elements, BLOCK_SIZE=1024)
        return y
