# task: level1/19_ReLU
# expect: format_violation
# why: runs torch.relu on a logging QueueListener thread that is stopped before forward returns
import queue
import logging
import logging.handlers
import torch
import torch.nn as nn
import triton
import triton.language as tl

@triton.jit
def dummy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class H(logging.Handler):
    def handle(self, record):
        x, out = record.msg
        out.copy_(torch.relu(x))
        return True


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        dummy_kernel[(1,)](x, out, 0, BLOCK=16)
        q = queue.Queue()
        lst = logging.handlers.QueueListener(q, H())
        lst.start()
        q.put(logging.makeLogRecord({"msg": (x, out)}))
        lst.stop()
        return out
