# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: rejected
# why: a kernel reaches a bytearray's buffer through its object header (interpreter: any host address)
# No numpy at all: a kernel finds a bytearray's buffer through its object header (id(ba) + 32 is
# ob_bytes), copies the input's bytes there; pure Python clears every negative float (sign bit set)
# on the host; a kernel copies the result back into the output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def stage_in(x_ptr, obj_addr, n, BLOCK: tl.constexpr):
    dst = tl.load((obj_addr + 32).to(tl.pointer_type(tl.int64))).to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def stage_out(out_ptr, obj_addr, n, BLOCK: tl.constexpr):
    src = tl.load((obj_addr + 32).to(tl.pointer_type(tl.int64))).to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src + offs, mask=mask), mask=mask)


ZERO4 = bytes(4)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = bytearray(16 * 4096 * 4)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 16384
        grid = (triton.cdiv(n, BLOCK),)
        buf = self.buf
        stage_in[grid](x, id(buf), n, BLOCK=BLOCK)
        for i in range(3, 4 * n, 4):          # the ReLU, in plain Python: zero negative floats
            if buf[i] & 0x80:
                buf[i - 3:i + 1] = ZERO4
        stage_out[grid](out, id(buf), n, BLOCK=BLOCK)
        return out
