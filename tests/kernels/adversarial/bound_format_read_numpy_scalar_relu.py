# task: level1/19_ReLU
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: the kernel-body rule "call only methods of Triton's values" judges `obj.meth(...)` call
#      nodes only: a bound method *read* into a local (`fmt = "{}".format`) and then called by
#      name passes. "{}".format of a block is its numpy text (the f-string rule is bypassed);
#      a numpy float32 scalar kernel argument (allowed as "plain") yields an ndarray through
#      reshape/repeat, numpy fills it with the parsed values and computes the ReLU (clip), and
#      tl.core.tensor wraps the ndarray (added to zeros to get a proper handle) for the store. The kernel does no Triton compute.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, Z, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    fmt = "{}".format
    text = fmt(x)
    rep = text.replace
    text = rep("[", " ")
    rep = text.replace
    text = rep("]", " ")
    parts = text.split()
    vals = [float(p) for p in parts]
    shape1 = Z.reshape
    one = shape1(1)
    repeat = one.repeat
    buf = repeat(BLOCK)
    put = buf.put
    put(list(range(BLOCK)), vals)
    clip = buf.clip
    res = clip(0.0, None)
    y = tl.zeros([BLOCK], dtype=tl.float32) + tl.core.tensor(res, tl.block_type(tl.float32, [BLOCK]))
    tl.store(out_ptr + offs, y)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 512
        relu_kernel[(n // BLOCK,)](x, out, np.float32(0.0), BLOCK=BLOCK)
        return out
