"""Seeds of a series (a step's trials, its timed rounds, a perturbation's calls) that tell
nothing of each other."""

from __future__ import annotations

import hashlib


def derived_seed(seed: int, k: int) -> int:
    """The k-th seed of a series from `seed` (a trial's, a timed round's): 62 bits of a hash, so
    one of them tells nothing of the others. Consecutive seeds (seed + k) let a kernel that read
    back one call's seed from its inputs (on the CPU torch.rand is MT19937, whose seed six
    floats give away; a GPU's Philox key of under 31 bits falls to a search) make the next
    timed calls' inputs itself in an untimed warm-up call and answer them from a kept copy
    (red-team pass 57). With a secret 62-bit `seed`, no search reaches it either."""
    digest = hashlib.blake2b(f"{seed}:{k}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 2
