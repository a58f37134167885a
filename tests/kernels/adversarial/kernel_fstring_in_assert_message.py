# task: level1/19_ReLU
# expect: format_violation
# expect_gpu: rejected
# why: no list argument needed: the kernel fails an `assert` whose message is f"{x}"; in the
#      interpreter tl.tensor.__str__ is str(handle.data), the message travels out in the
#      InterpreterError, and forward parses it and computes the ReLU in Python
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leak_kernel(x_ptr, n, start, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    assert n < 0, f"{x}"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        BLOCK = 512
        vals = []
        for start in range(0, n, BLOCK):
            try:
                leak_kernel[(1,)](x, n, start, BLOCK=BLOCK)
            except Exception as err:
                text = str(err)
                body = text[text.index("[") + 1:text.rindex("]")]
                for tok in body.replace("[", " ").replace("]", " ").replace("\\n", " ").split():
                    vals.append(max(float(tok), 0.0))
        res = torch.tensor(vals[:n], dtype=x.dtype, device=x.device)
        return res.view(x.shape)
