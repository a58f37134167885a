"""Can a device kernel reach plain (pageable, unregistered) host memory on this host?

    python bench/hmm_probe.py

On a host with HMM or ATS (`nvidia-smi -q`: Addressing Mode HMM/ATS; Grace Hopper) a kernel can
store to any host address, so a plain host tensor could carry the input to host-side torch with no
copy for kernel provenance to see; the guard exempts host-side torch work only for Triton's own
code (guard._issued_by_triton). Prints the addressing mode, then tries it in a child process (a
fault there is expected where the answer is no).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

PROBE = '''
import torch, triton, triton.language as tl

@triton.jit
def copy_to(x_ptr, delta, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + delta + offs, tl.load(x_ptr + offs, mask=m), mask=m)

x = torch.randn(1024, device="cuda")
h = torch.zeros(1024)
copy_to[(4,)](x, (h.data_ptr() - x.data_ptr()) // 4, 1024, BLOCK=256)
torch.cuda.synchronize()
print("a device kernel wrote pageable host memory:", torch.equal(h, x.cpu()))
'''


def main() -> None:
    smi = subprocess.run(["nvidia-smi", "-q"], capture_output=True, text=True).stdout
    print("nvidia-smi:", [line.strip() for line in smi.splitlines() if "Addressing" in line])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.py")
        with open(path, "w") as f:
            f.write(PROBE)
        run = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=300)
    print(run.stdout.strip() or f"no (the kernel faulted: {run.stderr.strip().splitlines()[-1]})")


if __name__ == "__main__":
    main()
