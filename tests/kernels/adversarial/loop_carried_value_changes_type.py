# task: level1/37_FrobeniusNorm_
# expect: compile_error
# says: Loop-carried
# found: session 17, running Triton's front end on the cpu evaluator's launches
# why: a grid-stride loop whose accumulator starts as the int `0` and is re-assigned a float.
#      The interpreter computes it (Python and numpy promote), so the cpu evaluator scored it
#      correct; Triton's compiler refuses a loop-carried value whose type changes ("Loop-carried
#      variable acc has initial type int32 but is re-assigned to fp32"). Refused on both
#      evaluators alike: the launch goes through the code generator first.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def partial_sum_of_squares_kernel(x_ptr, partial_ptr, n_elements, BLOCK: tl.constexpr):
    # Grid-stride loop: the number of programs (and so of partials) stays fixed as n grows.
    pid = tl.program_id(0)
    acc = 0
    for start in range(pid * BLOCK, n_elements, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
        acc += tl.sum(x * x, axis=0)
    tl.store(partial_ptr + pid, acc)


@triton.jit
def divide_by_norm_kernel(x_ptr, partial_ptr, out_ptr, n_elements, n_partials,
                          BLOCK: tl.constexpr, PARTIALS: tl.constexpr):
    p = tl.arange(0, PARTIALS)
    total = tl.sum(tl.load(partial_ptr + p, mask=p < n_partials, other=0.0), axis=0)
    inv_norm = 1.0 / tl.sqrt(total)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * inv_norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        BLOCK = 1024
        n_partials = min(triton.cdiv(n, BLOCK), 256)
        partials = torch.empty(n_partials, device=x.device, dtype=torch.float32)
        out = torch.empty_like(x)
        partial_sum_of_squares_kernel[(n_partials,)](x, partials, n, BLOCK=BLOCK)
        divide_by_norm_kernel[(triton.cdiv(n, BLOCK),)](x, partials, out, n, n_partials, BLOCK=BLOCK,
                                                        PARTIALS=triton.next_power_of_2(n_partials))
        return out
