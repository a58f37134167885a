# task: level1/19_ReLU
# expect: format_violation
# expect_gpu: rejected
# why: tl.constexpr([]) is a Triton class holding a list (lists are allowed inside Triton classes, for
#      tensor descriptors); the kernel appends the text of its loaded block to it (str() of a value is
#      its numpy array while the launch runs), the host parses it, computes the ReLU in Python and
#      copies it in with torch.tensor.
#      Refused at launch: a constexpr's value must be plain (no list); lists only in a tensor descriptor.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, sink, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    sink.value.append(f"{x}")
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 512
        sink = tl.constexpr([])
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, sink, BLOCK=BLOCK)
        vals = []
        for text in sink.value:
            vals.extend(max(float(s), 0.0) for s in text.replace("[", " ").replace("]", " ").split())
        out.copy_(torch.tensor(vals[:n], dtype=torch.float32).view(x.shape))
        return out
