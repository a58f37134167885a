# task: level1/19_ReLU
# expect: format_violation
# says: triton.experimental
# why: red-team pass 89: a subclass of gluon's TensorDescriptor whose layout's repr is text built
#      at run time (`__import__('sys')...DisableTorchFunction`): Triton's launch path pastes the
#      repr into a type name and `str_to_ty` evaluates it with the real builtins (seen outside
#      the evaluator; inside, the launch refused the foreign argument first: 0.0). Now
#      `triton.experimental` is refused by name.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor as GluonDescriptor

RECV = []
CODE = ("@@import@@('sys').modules['subm'+'ission'].RECV.append("
        "@@import@@('sys').modules['torch'].DisableTorchFunction)").replace("@@", "_" * 2)


class Layout:
    def __repr__(self):
        return CODE


class Store:
    def __init__(self, p):
        self.p = p

    def data_ptr(self):
        return self.p

    def cpu(self):
        return self


class Desc(GluonDescriptor):
    def __post_init__(self):
        pass

    def data_ptr(self):
        return 4096

    def untyped_storage(self):
        return Store(4096)

    def new_empty(self, *args, **kwargs):
        return self

    def set_(self, *args):
        return self

    def storage_offset(self):
        return 0

    def size(self):
        return (16,)

    def stride(self):
        return (1,)


@triton.jit
def probe_kernel(d, BLOCK: tl.constexpr):
    pass


@triton.jit
def copy_kernel(src_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not RECV:
            d = Desc(x, [16], [1], [16], Layout())
            try:
                probe_kernel[(1,)](d, BLOCK=16)
            except Exception:
                pass
        tmp = torch.empty_like(x)
        with RECV[0]():
            np.maximum(x.numpy(), 0, out=tmp.numpy())
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](tmp, out, n, BLOCK=1024)
        return out
