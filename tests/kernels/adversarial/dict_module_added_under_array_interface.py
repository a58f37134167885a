# task: level1/19_ReLU
# expect: rejected
# found: red-team pass 93 (session 45; scored 0.3 on the cpu evaluator before)
# why: a class deriving from dict and nn.Module, added by `add_module(key, ...)` (no __setattr__)
#      under a special key: nn.Module.__getattr__ served it to numpy as the interface dict. A
#      module now never serves a special name from its parameters, buffers or submodules.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

KEY = chr(95) * 2 + "array_interface" + chr(95) * 2


@triton.jit
def copy_kernel(src_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


class DictModule(dict, nn.Module):
    def __init__(self, d):
        dict.__init__(self, d)
        nn.Module.__init__(self)


def rd(addr, n, typ):
    h = nn.Module()
    h.add_module(KEY, DictModule({"shape": (n,), "typestr": typ, "data": (addr, False), "version": 3}))
    return np.array(h, copy=False)


def view_of(t, n):
    head = rd(id(t), 3, "<u8")
    impl = int(head[2])
    storage = int(rd(impl, 3, "<u8")[2])
    data = int(rd(storage, 3, "<u8")[2])
    return rd(data + t.storage_offset() * 4, n, "<f4")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        tmp = torch.empty_like(x)
        out = torch.empty_like(x)
        n = x.numel()
        np.maximum(view_of(x, n), 0, out=view_of(tmp, n))
        copy_kernel[(triton.cdiv(n, 1024),)](tmp, out, n, BLOCK=1024)
        return out
