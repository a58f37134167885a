# task: level1/21_Sigmoid
# expect: ok
# why: the whole LLM answer pasted as-is: the original Model class kept in the file, the task's
#      batch_size/dim/get_inputs/get_init_inputs copied with .cuda(), and an
#      `if __name__ == "__main__":` self-test; ModelNew subclasses nn.Module
import torch
import torch.nn as nn
import triton
import triton.language as tl


class Model(nn.Module):
    """Simple model that performs a Sigmoid activation."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x)


@triton.jit
def sigmoid_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.sigmoid(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = out.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        sigmoid_kernel[grid](x, out, n_elements, BLOCK_SIZE=1024)
        return out


batch_size = 16
dim = 4096


def get_inputs():
    x = torch.randn(batch_size, dim).cuda()
    return [x]


def get_init_inputs():
    return []


if __name__ == "__main__":
    model = Model().cuda()
    model_new = ModelNew().cuda()
    inputs = get_inputs()
    ref = model(*inputs)
    out = model_new(*inputs)
    print("max abs diff:", (ref - out).abs().max().item())
    assert torch.allclose(ref, out, atol=1e-5, rtol=1e-5)
