# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: rejected
# why: the kernel computes nothing: it moves each input's sign bit out through numpy's floating-point warnings (one division per pair of elements in tl.reduce's interpreted path, divide-by-zero/overflow/underflow/invalid chosen by the bits); forward records them with warnings.catch_warnings(record=True) and Python assembles the output from views of x and zeros with torch.cat. Interpreted launches now run with numpy's errors and warnings silenced
import warnings

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def emit(an, ad, bn, bd):
    return bn / bd, bd


@triton.jit
def leak_kernel(x_ptr, n_pairs, PAIRS: tl.constexpr):
    p = tl.program_id(0) * PAIRS + tl.arange(0, PAIRS)
    m = p < n_pairs
    a = tl.load(x_ptr + 2 * p, mask=m, other=0.0).to(tl.int32, bitcast=True)
    b = tl.load(x_ptr + 2 * p + 1, mask=m, other=0.0).to(tl.int32, bitcast=True)
    sym = ((a >> 31) & 1) * 2 + ((b >> 31) & 1)
    num = tl.where(sym == 0, 0.0, tl.where(sym == 1, 1.0, tl.where(sym == 2, 1e30, 1e-30)))
    den = tl.where(sym == 0, 0.0, tl.where(sym == 1, 0.0, tl.where(sym == 2, 1e-30, 1e30)))
    row = tl.arange(0, 2)[:, None]
    num2 = tl.where(row == 0, 1.0, num[None, :])
    den2 = tl.where(row == 0, 1.0, den[None, :])
    tl.reduce((num2, den2), 0, emit)


SYMBOLS = {"invalid": 0, "divide": 1, "overflow": 2, "underflow": 3}


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        flat = x.contiguous().view(-1)
        n = flat.numel()
        pairs = n // 2
        PAIRS = 1024
        with warnings.catch_warnings(record=True) as records, np.errstate(all="warn"):
            warnings.simplefilter("always")
            leak_kernel[(triton.cdiv(pairs, PAIRS),)](flat, pairs, PAIRS=PAIRS)
        signs = []
        for r in records:
            text = str(r.message)
            if "encountered in divide" in text:
                s = SYMBOLS[text.split(" ")[0]]
                signs.append(s >> 1)
                signs.append(s & 1)
        zeros = torch.zeros(n, dtype=x.dtype)
        pieces = []
        start = 0
        for i in range(1, n + 1):
            if i == n or signs[i] != signs[start]:
                pieces.append((zeros if signs[start] else flat)[start:i])
                start = i
        return torch.cat(pieces).view(x.shape)
