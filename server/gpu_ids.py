"""Which GPU each id in KERNEL_ENV_GPUS names: the GPUs the server's own process can see,
counted as CUDA programs count them (torch's cuda:N).

Where the server runs under CUDA_VISIBLE_DEVICES (a scheduler's allocation, a shared host's
slice), id 0 is that list's first entry, not the machine's GPU 0, which may be a training GPU. A
worker host is shown only its GPU's entry (an index, a UUID or a MIG id, passed on as written), so
inside it the GPU is cuda:0. Read without torch and without a CUDA context: the server process
never creates one.
"""

from __future__ import annotations

import ctypes
import re


def visible_entries(value: str | None, gpu_count: int | None = None) -> list[str] | None:
    """CUDA_VISIBLE_DEVICES's entries as CUDA reads them (torch's model of its parser; None:
    unset, every GPU visible). A list of UUIDs (`GPU-...`, `MIG-...`) stops at the first entry
    without that prefix; a list of indices at the first entry that is not one (`-1`: no GPU), or,
    where `gpu_count` is known, names no GPU. A GPU named twice hides them all."""
    if value is None:
        return None
    entries: list[str] = []
    prefix = next((p for p in ("GPU-", "MIG-") if value.strip().startswith(p)), None)
    for part in (p.strip() for p in value.split(",")):
        if prefix is not None:
            if not part.startswith(prefix):
                break
            name = part
        else:
            digits = re.match(r"\d+", part)
            if digits is None or (gpu_count is not None and int(digits[0]) >= gpu_count):
                break
            name = str(int(digits[0]))
        if name in entries:
            return []
        entries.append(name)
    return entries


def nvml_gpu_count() -> int | None:
    """How many GPUs the driver shows this process (NVML through ctypes: in a container, the
    container's); None where NVML is missing or fails (no check is then made)."""
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
        if nvml.nvmlInit_v2() != 0:
            return None
        try:
            count = ctypes.c_uint(0)
            return count.value if nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)) == 0 else None
        finally:
            nvml.nvmlShutdown()
    except (OSError, AttributeError):
        return None


def visible_count(cuda_visible: str | None, gpu_count: int | None) -> int | None:
    """How many GPUs ids may name: CUDA_VISIBLE_DEVICES's entries where it is set, else the
    driver's `gpu_count` (None: unknown)."""
    entries = visible_entries(cuda_visible, gpu_count)
    return len(entries) if entries is not None else gpu_count


def worker_visible_devices(ids: tuple[int, ...], cuda_visible: str | None,
                           gpu_count: int | None) -> tuple[str, ...]:
    """Each worker host's CUDA_VISIBLE_DEVICES, in the order of `ids`; a ValueError says which
    ids name no GPU this process can see and which ids are valid."""
    entries = visible_entries(cuda_visible, gpu_count)
    if entries is not None:
        count, seen_by = len(entries), f"CUDA_VISIBLE_DEVICES={cuda_visible!r} shows this server"
    else:
        count, seen_by = gpu_count, "the driver (NVML) shows this machine"
    if count is not None:
        missing = [i for i in ids if i >= count]
        if missing:
            valid = (f"valid ids: 0..{count - 1}" if count else "no GPU id is valid here; CUDA "
                     "reads -1, a GPU named twice or a first entry naming no GPU as no GPU at all")
            raise ValueError(f"GPU id(s) {', '.join(map(str, missing))} name no GPU: {seen_by} "
                             f"{count} GPU(s) ({valid}; ids count the visible GPUs, as cuda:N does)")
    return tuple(entries[i] for i in ids) if entries is not None else tuple(str(i) for i in ids)
