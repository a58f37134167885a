# task: level1/19_ReLU
# expect: format_violation
# why: multiprocessing reached as torch.cuda.tunable.mp forks a process in __init__ that computes torch.relu on shared memory, outside the guard
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


CAP = 1 << 20


def serve(conn, inbuf, outbuf):
    torch.set_num_threads(1)
    while True:
        n = conn.recv()
        torch.clamp_min(inbuf[:n], 0.0, out=outbuf[:n])
        conn.send(n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        ctx = torch.cuda.tunable.mp.get_context("fork")
        self.inbuf = torch.zeros(CAP).share_memory_()
        self.outbuf = torch.zeros(CAP).share_memory_()
        self.conn, child = ctx.Pipe()
        ctx.Process(target=serve, args=(child, self.inbuf, self.outbuf), daemon=True).start()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        dummy = torch.empty_like(x)
        copy_kernel[(triton.cdiv(n, 1024),)](x, dummy, n, BLOCK=1024)
        self.inbuf[:n].copy_(x.reshape(-1))
        self.conn.send(n)
        self.conn.recv()
        return self.outbuf[:n].clone().view(x.shape)
