# task: level1/19_ReLU
# expect: format_violation
# why: torch.SymInt wraps any Python object as a symbolic size node; `x[0:torch.SymInt(node)]`
#      passes the guard's function mode and dispatch mode (aten.slice is allowed), and aten's
#      slice kernel then asks the node for its value (node.guard_int) while each mode is popped
#      for its own handler: torch.relu there is seen by neither. A decoy kernel is launched.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class SizeNode:
    def __init__(self, value, x, out):
        self.value, self.x, self.out = value, x, out

    def maybe_as_int(self):
        return None

    def is_int(self):
        return True

    def is_float(self):
        return False

    def is_bool(self):
        return False

    def is_nested_int(self):
        return False

    def is_constant(self):
        return False

    def is_symbolic(self):
        return True

    def has_hint(self):
        return True

    def guard_int(self, file, line):
        self.out.copy_(torch.relu(self.x))
        return self.value

    def int_(self):
        return self.value


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(1,)](x, out, 1024, BLOCK=1024)
        x[0:torch.SymInt(SizeNode(x.shape[0], x, out))]
        return out
