"""Memory a kernel may touch in Triton's interpreter: the storages of the tensors it was given.

The interpreter runs a kernel's loads and stores at whatever host address a pointer holds: an
integer cast to a pointer, or a tensor's pointer plus a large offset, reaches any object of the
evaluation process (`id(array) + 16` is a numpy array's data pointer; repointed there, numpy
computed the answer in the tensors' own memory). On a GPU such an address is an illegal memory
access; here every lane a load, store or atomic operation actually touches (its mask applied)
must lie inside one of the launch's tensors' storages, or the launch fails like a faulting
kernel. The check runs before the access, so the access never happens.
"""

from __future__ import annotations

import functools

import numpy as np
import torch

# (first byte, end) of each storage the running launch was given; None outside a launch.
_bounds: list[tuple[int, int]] | None = None


class KernelMemoryError(RuntimeError):
    """A kernel touched memory outside the tensors it was given."""


def begin() -> object:
    """Enter a launch (its arguments are recorded once the interpreter has made them); returns
    what `end` restores."""
    global _bounds
    saved, _bounds = _bounds, []
    return saved


def end(saved: object) -> None:
    global _bounds
    _bounds = saved


def record(arguments) -> None:
    """The storages of the tensors among a launch's host-side arguments (tuples, tensor
    descriptors and reinterpreted tensors looked into)."""
    if _bounds is None:
        return
    for tensor in _tensors(arguments, 0):
        storage = tensor.untyped_storage()
        if storage.nbytes():
            _bounds.append((storage.data_ptr(), storage.data_ptr() + storage.nbytes()))


def _tensors(value, depth: int):
    if isinstance(value, torch.Tensor):
        yield value
    elif depth < 4 and isinstance(value, (tuple, list)):
        for item in value:
            yield from _tensors(item, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item, depth + 1)
    elif depth < 4 and type(value).__name__ in ("TensorDescriptor", "TensorWrapper"):
        yield from _tensors(getattr(value, "base", None), depth + 1)  # Triton's own wrappers


def check(ptrs, mask, what: str) -> None:
    """Raise unless every address of `ptrs` (an interpreter TensorHandle of pointers) where
    `mask` holds lies, with its element's width, inside one of the launch's storages."""
    addresses = np.asarray(ptrs.data)
    if mask is not None:
        addresses = addresses[np.broadcast_to(np.asarray(mask.data, dtype=bool), addresses.shape)]
    if addresses.size == 0:
        return
    width = max(1, ptrs.get_element_ty().primitive_bitwidth // 8)
    addresses = addresses.astype(np.uint64, copy=False).ravel()
    inside = np.zeros(addresses.shape, dtype=bool)
    for first, stop in _bounds or ():
        inside |= (addresses >= np.uint64(first)) & (addresses <= np.uint64(stop - width))
    if not inside.all():
        address = int(addresses[np.argmin(inside)])
        raise KernelMemoryError(
            f"a kernel's {what} touched address {address:#x}, outside every tensor the launch "
            f"was given ({len(_bounds or ())} storages); on a GPU this is an illegal memory "
            "access. Check offsets and masks: a kernel may load and store only within its "
            "tensor arguments")


def install(builder: type, on_fault) -> None:
    """Wraps the interpreter builder's memory operations (every load and store path ends in
    these: plain, masked, block-pointer and descriptor ones); `on_fault(error)` runs before the
    error is raised (the launch's failure stays recorded if the kernel body catches it)."""
    specs = {"create_masked_load": ("load", (0, "ptrs"), (1, "mask")),
             "create_masked_store": ("store", (0, "ptrs"), (2, "mask")),
             "create_atomic_rmw": ("atomic operation", (1, "ptr"), (3, "mask")),
             "create_atomic_cas": ("atomic compare-and-swap", (0, "ptr"), None)}
    for name, (what, ptr_at, mask_at) in specs.items():
        original = getattr(builder, name)
        if getattr(original, "_kernel_env_bounds", False):
            continue

        def make(original=original, what=what, ptr_at=ptr_at, mask_at=mask_at):
            @functools.wraps(original)
            def checked(self, *args, **kwargs):
                try:
                    check(_argument(args, kwargs, ptr_at), _argument(args, kwargs, mask_at), what)
                except KernelMemoryError as error:
                    on_fault(error)
                    raise
                return original(self, *args, **kwargs)
            checked._kernel_env_bounds = True
            return checked
        setattr(builder, name, make())


def _argument(args: tuple, kwargs: dict, where):
    if where is None:
        return None
    position, name = where
    return args[position] if position < len(args) else kwargs[name]
