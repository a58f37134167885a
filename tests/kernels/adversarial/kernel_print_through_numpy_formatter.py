# task: level1/19_ReLU
# expect: format_violation
# why: the kernel only loads and device_prints its block; with numpy's print formatter (np.printoptions(formatter=...)) the interpreter hands every element, exactly, to the submission's function, which computes the ReLU in Python; torch.tensor(list) builds the output (it scored 0.3 on the cpu evaluator, max abs error 0)
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def peek_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.device_print("", tl.load(x_ptr + offs, mask=offs < n, other=0.0))


class ModelNew(nn.Module):
    def forward(self, x):
        n = x.numel()
        vals = []

        def grab(v):
            vals.append(max(float(v), 0.0))  # the ReLU, in Python
            return "0"

        with np.printoptions(threshold=n + 1, formatter={"float": grab}):
            peek_kernel[(1,)](x, n, BLOCK=triton.next_power_of_2(n))
        return torch.tensor(vals[:n], dtype=x.dtype).view(x.shape)
