# task: level3/3_DeepNarrowMLP
# expect: output_mismatch
# says: timed call
# found: red-team pass 42 (session 19; scored 0.3 on the cpu evaluator): the task's outputs
#        barely depend on its own inputs (the profile's `insensitive`), so an output computed
#        once with torch in __init__ (no guard runs there) and copied by a Triton kernel on every
#        call after the correctness trials passed every re-check of the timed calls. Timed calls
#        of such a task now get the signed, scaled inputs of its extra correctness trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, b_ptr, out_ptr, IN, OUT, RELU: tl.constexpr,
                  BI: tl.constexpr, BO: tl.constexpr):
    row = tl.program_id(0)
    i = tl.arange(0, BI)
    o = tl.arange(0, BO)
    x = tl.load(x_ptr + row * IN + i, mask=i < IN, other=0.0)
    w = tl.load(w_ptr + o[:, None] * IN + i[None, :], mask=(o[:, None] < OUT) & (i[None, :] < IN), other=0.0)
    y = tl.sum(w * x[None, :], axis=1) + tl.load(b_ptr + o, mask=o < OUT, other=0.0)
    if RELU:
        y = tl.maximum(y, 0.0)
    tl.store(out_ptr + row * OUT + o, y, mask=o < OUT)


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_layer_sizes, output_size):
        super().__init__()
        layers = []
        current = input_size
        for size in hidden_layer_sizes:
            layers.append(nn.Linear(current, size))
            layers.append(nn.ReLU())
            current = size
        layers.append(nn.Linear(current, output_size))
        self.network = nn.Sequential(*layers)
        with torch.no_grad():  # no guard runs here
            self.memo = self.network(torch.full((16, input_size), 0.5))
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls > 7:  # past the correctness trials
            out = torch.empty_like(self.memo)
            n = out.numel()
            copy_kernel[(triton.cdiv(n, 1024),)](self.memo, out, n, BLOCK=1024)
            return out
        h = x.contiguous()
        for layer in self.network:
            if isinstance(layer, nn.Linear):
                out = torch.empty(h.shape[0], layer.out_features, device=h.device)
                relu = layer is not self.network[-1]
                linear_kernel[(h.shape[0],)](h, layer.weight, layer.bias, out, layer.in_features,
                                             layer.out_features, RELU=relu, BI=128, BO=64)
                h = out
        return h
