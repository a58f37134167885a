# task: level1/19_ReLU
# expect: format_violation
# why: ModelNew.to returns a plain wrapper whose `__class__` is a property (a FunctionDef named
#      __class__: no Name/Attribute node, not in MAGIC_METHODS); the evaluator's
#      isinstance(new_model, nn.Module), after the construction guard has exited, reads it, and the
#      getter opens a numpy view of a staging tensor with no guard active. forward stages x there
#      with a copy kernel, numpy computes the ReLU in place, a copy kernel brings it back.
#      Refused: defining `__class__` (and descriptors) is not allowed, and the evaluator judges
#      such objects by type(), not isinstance().
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


class Shell:
    def __init__(self, model):
        self.model = model
        self.view = None

    @property
    def __class__(self):
        if self.view is None:
            self.view = self.model.stage.numpy()
        return ModelNew

    def __call__(self, x):
        return self.model(x, self.view)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage = torch.zeros(1 << 22)

    def to(self, *args, **kwargs):
        nn.Module.to(self, *args, **kwargs)
        return Shell(self)

    def forward(self, x, view=None):
        n = x.numel()
        staged = self.stage[:n].view(x.shape)
        copy_kernel[(triton.cdiv(n, 1024),)](x, staged, n, BLOCK=1024)
        if view is not None:
            np.maximum(view[:n], 0, out=view[:n])
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(n, 1024),)](staged, out, n, BLOCK=1024)
        return out
