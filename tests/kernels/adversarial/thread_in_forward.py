# task: level1/19_ReLU
# expect: format_violation
# why: runs torch.relu on a helper thread, where the thread-local dispatch guard does not look
import torch
import torch.nn as nn
import triton
import triton.language as tl
import threading

@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


def launch(x):
    out = torch.empty_like(x)
    relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        box = []
        t = threading.Thread(target=lambda: box.append(torch.relu(x)))
        t.start()
        t.join()
        launch(x)
        return box[0]
