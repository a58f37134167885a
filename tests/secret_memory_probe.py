"""Whether memory freed inside `secret_allocations` reaches a later torch.empty outside it, in a
fresh process (the caching allocator's settings, PYTORCH_CUDA_ALLOC_CONF, are read once per
process): run by tests/test_gpu.py under each allocator setting a worker may have.

    python tests/secret_memory_probe.py "the calling thread"|"autograd's backward"

Prints `secret found: B` then `plain found: B` (a value freed without the pool must be found,
or the probe shows nothing).
"""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402

from server.evaluation.secret_memory import secret_allocations, secret_grad  # noqa: E402


def found_after(secret: bool, made_by: str, n: int = 1 << 20) -> bool:
    device = torch.device("cuda")
    # a value of this call's own: a block an earlier call freed holds its value still
    marker = float(random.randrange(1, 1 << 20)) + 0.5
    with secret_allocations(device) if secret else contextlib.nullcontext():
        if made_by == "the calling thread":
            made = torch.full((n,), marker, device=device)
        else:
            x = torch.ones(n, device=device, requires_grad=True)
            grad = secret_grad if secret else torch.autograd.grad
            made = grad(x.mul(marker).sum(), [x])[0]
        assert bool((made == marker).all())
        del made
    later = [torch.empty(n, device=device) for _ in range(8)]
    return any(bool((t == marker).any()) for t in later)


if __name__ == "__main__":
    made_by = sys.argv[1]
    print("secret found:", found_after(True, made_by))
    print("plain found:", found_after(False, made_by))
