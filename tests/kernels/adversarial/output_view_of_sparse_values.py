# task: level1/19_ReLU
# expect: not_a_tensor
# why: returns a dense view of a sparse tensor's values (made in __init__): strided and of the
#      exact type torch.Tensor, but its base is sparse, whose storage the integrity check read and
#      raised on (internal_error: a free retry; red-team pass 28)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        n = 16 * 4096
        device = "cuda" if torch.cuda.is_available() else "cpu"  # where the evaluator runs
        sparse = torch.sparse_coo_tensor(torch.arange(n, device=device).reshape(1, n),
                                         torch.zeros(n, device=device), (n,))
        self.values = sparse.coalesce().values()

    def forward(self, x):
        x = x.contiguous()
        out = self.values.view(x.shape)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out
