# task: level1/19_ReLU
# expect: format_violation
# says: calling the metaclass `abc.ABCMeta`
# found: red-team pass 75 (Python 3.11 and 3.12 alike): special methods may not be defined in
#      class bodies, but `abc.ABCMeta(name, bases, namespace)` (as `type(...)` with three
#      arguments, refused) and `dataclasses.make_dataclass(..., namespace=...)` take methods by
#      keys the file computes, and `f"_{'_del_'}_"` is no string the rules fold. This finalizer,
#      kept on the input, would run when the evaluator released it (`del trial`), before the
#      comparison and outside the guard, and compute torch.relu into the zeros output; the run
#      time check on inputs' Python state refused it (tampering), the static check now does first.
# why: metaclasses may not be called and make_dataclass takes no namespace
#      (static_check._check_class_namespaces)
import abc

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


def finish(box):
    box.out.copy_(torch.relu(box.x))


def keep(box, x, out):
    box.x = x
    box.out = out


Finisher = abc.ABCMeta("Finisher", (), {f"_{'_del_'}_": finish, f"_{'_init_'}_": keep})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        zero_kernel[(triton.cdiv(x.numel(), 1024),)](out, x.numel(), BLOCK=1024)
        x.finisher = Finisher(x.clone(), out)
        return out
