# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: rejected
# why: as kernel_fstring_in_assert_message, with the tl.tensor itself as the assert message
#      (repr(AssertionError(x)) calls the patched __repr__): in the
#      interpreter tl.tensor.__str__ was str(handle.data), the message travelled out in the
#      InterpreterError, and forward parsed it and computed the ReLU in Python. A block's text
#      now names its type only (red-team pass 31): forward's parse fails (runtime_error)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leak_kernel(x_ptr, n, start, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    assert n < 0, x


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
                for tok in body.replace("[", " ").replace("]", " ").replace("\\n", " ").replace(",", " ").replace("array(", " ").replace("dtype=float32", " ").replace(")", " ").split():
                    vals.append(max(float(tok), 0.0))
        res = torch.tensor(vals[:n], dtype=x.dtype, device=x.device)
        return res.view(x.shape)
