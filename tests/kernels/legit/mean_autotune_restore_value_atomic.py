# task: level1/48_Mean_reduction_over_a_dimension
# expect: ok
# why: split-R mean with tl.atomic_add into a zeroed output, autotuned with
#      triton.autotune(configs=[triton.Config(..., num_warps=, num_stages=, num_ctas=1, maxnreg=)],
#      key=[...], restore_value=["out_ptr"], prune_configs_by={"early_config_prune": ...}) so
#      benchmarking runs leave the accumulator as it was; 1/R folded into each partial
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _fits(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["SPLIT_R"] <= named_args["R"]] or configs[:1]


@triton.autotune(
    configs=[
        triton.Config({"SPLIT_R": 16, "BLOCK_I": 64}, num_warps=4, num_stages=2, num_ctas=1, maxnreg=128),
        triton.Config({"SPLIT_R": 32, "BLOCK_I": 32}, num_warps=2, num_stages=3, num_ctas=1),
    ],
    key=["R", "inner"],
    restore_value=["out_ptr"],
    prune_configs_by={"early_config_prune": _fits},
)
@triton.jit
def mean_split_kernel(x_ptr, out_ptr, R, inner, inv_r, SPLIT_R: tl.constexpr, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.program_id(2) * SPLIT_R + tl.arange(0, SPLIT_R)
    mask = (rows[:, None] < R) & (cols[None, :] < inner)
    tile = tl.load(x_ptr + b * R * inner + rows[:, None] * inner + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(out_ptr + b * inner + cols, tl.sum(tile, axis=0) * inv_r, mask=cols < inner)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        x = x.contiguous()
        B, R, inner = x.shape
        out = torch.zeros((B, inner), device=x.device, dtype=torch.float32)
        grid = lambda META: (B, triton.cdiv(inner, META["BLOCK_I"]), triton.cdiv(R, META["SPLIT_R"]))
        mean_split_kernel[grid](x, out, R, inner, 1.0 / R)
        return out
