# task: level1/19_ReLU
# expect: forbidden_op
# found: red-team pass 51 (session 23; scored on a stand-in negation task on the cpu evaluator)
# why: `__init__` (no dispatch check there) keeps a float32 view with torch's lazy negation bit:
#      the imaginary parts of a conjugated complex buffer. forward copies the input into it
#      (aten.copy_, same dtype and device: allowed) and torch writes -x; the kernel reads the
#      buffer's raw memory. Copies from or into a tensor with the negation or conjugation bit
#      are refused (guard: lazy negation or conjugation).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_of_negated_kernel(raw_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    negated = tl.load(raw_ptr + 2 * offs + 1, mask=mask)  # imaginary parts: -x, written by torch
    tl.store(out_ptr + offs, tl.maximum(0.0 - negated, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = torch.zeros(16 * 4096, dtype=torch.complex64)
        self.negated = self.buf.conj().imag
        self.raw = self.buf.view(torch.float32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.numel()
        if self.buf.device != x.device or self.buf.numel() < n:
            self.buf = torch.zeros(n, dtype=torch.complex64, device=x.device)
            self.negated = self.buf.conj().imag
            self.raw = self.buf.view(torch.float32)
        self.negated[:n].copy_(x.reshape(-1))
        out = torch.empty_like(x)
        relu_of_negated_kernel[(triton.cdiv(n, 1024),)](self.raw, out, n, BLOCK=1024)
        return out
