# task: level1/19_ReLU
# expect: rejected
# found: red-team pass 93 (session 45; scored 0.3 on the cpu evaluator before)
# why: a Module subclass binding `self._buffers = {key: d}` (key "__array_interface__" built at run
#      time) replaced torch's buffer dict; numpy's lookup of the special name fell through to
#      nn.Module.__getattr__, which served d: raw memory views, numpy computed the ReLU. A module
#      now refuses its own dicts replaced, and never serves a special name from them.
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


class Holder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self._buffers = {KEY: d}


def rd(addr, n, typ):
    h = Holder({"shape": (n,), "typestr": typ, "data": (addr, False), "version": 3})
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
