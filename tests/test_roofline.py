"""Roofline floor: hand-computed FLOPs, bytes and t_min on a CPU-only torch."""

import json

import pytest
import torch
from torch import nn

from server.evaluation import roofline as rl

H100 = rl.nominal_gpu("H100 SXM")


class MatMul(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def _floor(model, inputs, gpu=H100):
    outputs = model(*inputs)
    flops = rl.count_flops(model, inputs)
    nbytes = rl.compulsory_bytes(inputs, model, outputs)
    return rl.roofline(flops, nbytes, rl.compute_dtype(inputs, model), gpu)


def test_square_matmul_n256_fp32_is_memory_bound_on_h100():
    # Intensity 2N^3 / 12N^2 = N/6 = 42.7 FLOP/B, below the H100 TF32 ridge 494.5e12 / 3.35e12
    # = 147.6 FLOP/B, so at N=256 the bytes set the floor.
    n = 256
    r = _floor(MatMul(), [torch.randn(n, n), torch.randn(n, n)])
    assert r.flops == 2 * n**3 == 33_554_432
    assert r.bytes == 12 * n**2 == 786_432
    assert r.peak_tflops == 494.5  # TF32 dense: 989 sparse / 2
    assert r.arithmetic_intensity == pytest.approx(n / 6)
    assert r.bound == "memory"
    assert r.t_min_ms == pytest.approx(786_432 / 3350e9 * 1e3)  # 2.3476e-4 ms


def test_square_matmul_n1024_fp32_is_compute_bound_with_tf32_roof():
    n = 1024  # N/6 = 170.7 FLOP/B, above the 147.6 ridge
    r = _floor(MatMul(), [torch.randn(n, n), torch.randn(n, n)])
    assert r.flops == 2 * n**3
    assert r.bytes == 12 * n**2
    assert r.bound == "compute"
    assert r.t_min_ms == pytest.approx(2 * 1024**3 / 494.5e12 * 1e3)  # 4.3427e-3 ms
    assert r.t_min_ms > 12 * n**2 / 3350e9 * 1e3


def test_relu_is_memory_bound_with_zero_flops():
    x = torch.randn(16, 4096)
    r = _floor(nn.ReLU(), [x])
    assert r.flops == 0
    assert r.bytes == 2 * 16 * 4096 * 4 == 524_288
    assert r.arithmetic_intensity < 1
    assert r.bound == "memory"
    assert r.t_min_ms == pytest.approx(524_288 / 3350e9 * 1e3)


def test_conv2d_flops_are_twice_the_macs():
    n, cin, cout, k, h = 2, 3, 8, 3, 32
    conv = nn.Conv2d(cin, cout, k)
    x = torch.randn(n, cin, h, h)
    hout = h - k + 1  # 30: stride 1, no padding
    r = _floor(conv, [x])
    assert r.flops == 2 * n * cout * hout * hout * cin * k * k == 777_600
    # input + weight + bias + output, fp32
    assert r.bytes == 4 * (n * cin * h * h + cout * cin * k * k + cout + n * cout * hout * hout)


def test_linear_bytes_include_weight_and_bias():
    lin = nn.Linear(64, 32)
    x = torch.randn(8, 64)
    out = lin(x)
    assert rl.count_flops(lin, [x]) == 2 * 8 * 64 * 32
    expected = 4 * (8 * 64 + 32 * 64 + 32 + 8 * 32)  # 11392
    assert rl.compulsory_bytes([x], lin, out) == expected == 11_392
    assert rl.compulsory_bytes([x], None, out) == expected - 4 * (32 * 64 + 32)


def test_outputs_may_be_a_tuple_and_non_tensor_inputs_pass_through():
    class Scaled(nn.Module):
        def forward(self, a, b, scale):
            y = torch.matmul(a, b) * scale
            return y, y.sum()

    a, b = torch.randn(4, 8), torch.randn(8, 2)
    model = Scaled()
    outs = model(a, b, 2.0)
    assert rl.count_flops(model, [a, b, 2.0]) == 2 * 4 * 8 * 2
    assert rl.compulsory_bytes([a, b, 2.0], model, outs) == 4 * (32 + 16 + 8 + 1)


def test_count_flops_leaves_the_callers_model_alone():
    model = nn.Sequential(nn.Linear(16, 16), nn.BatchNorm1d(16)).train()
    before = [t.clone() for t in model.state_dict().values()]
    assert rl.count_flops(model, [torch.randn(4, 16)]) == 2 * 4 * 16 * 16
    assert all(t.device.type == "cpu" for t in model.state_dict().values())
    assert all(torch.equal(a, b) for a, b in zip(before, model.state_dict().values()))


def test_count_flops_falls_back_to_real_tensors_when_meta_fails():
    class NeedsData(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(8, 4))
            self.bn = nn.BatchNorm1d(4).train()

        def forward(self, x):
            assert x.abs().sum().item() >= 0  # .item() cannot run on meta
            return self.bn(x @ self.w)

    model, x = NeedsData(), torch.randn(3, 8)
    stats = model.bn.running_mean.clone()
    assert rl.count_flops(model, [x]) == 2 * 3 * 8 * 4
    assert torch.equal(model.bn.running_mean, stats)


def test_compute_dtype_picks_the_roof():
    x32, x16 = torch.randn(4, 4), torch.randn(4, 4).half()
    assert rl.compute_dtype([x32]) == torch.float32
    assert rl.compute_dtype([x16, torch.arange(3)]) == torch.float16
    bf16 = torch.randn(2, 2).bfloat16()
    assert rl.compute_dtype([bf16], nn.Linear(2, 2).bfloat16()) == torch.bfloat16
    assert rl.compute_dtype([torch.arange(5)]) == torch.float32  # no floats: default
    assert rl.compute_dtype([x32.double()], nn.Linear(4, 4).double()) == torch.float64
    assert H100.peak_tflops(torch.float16) == 989.5
    assert H100.peak_tflops(torch.bfloat16) == 989.5
    assert H100.peak_tflops(torch.float32) == 494.5
    assert H100.peak_tflops(torch.float64) == 67.0


@pytest.mark.parametrize(
    "device_name, key",
    [
        ("NVIDIA H200", "H200 SXM"),
        ("NVIDIA H200 NVL", "H200 NVL"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM"),
        ("NVIDIA H100 PCIe", "H100 PCIe"),
        ("NVIDIA H100 NVL", "H100 NVL"),
        ("NVIDIA A100-SXM4-80GB", "A100 SXM 80GB"),
        ("NVIDIA A100-SXM4-40GB", "A100 SXM 40GB"),
        ("NVIDIA A100-PCIE-40GB", "A100 PCIe 40GB"),
        ("NVIDIA A100 80GB PCIe", "A100 PCIe 80GB"),
        ("NVIDIA L40S", "L40S"),
        ("NVIDIA L4", "L4"),
    ],
)
def test_detect_gpu_on_real_device_names(device_name, key):
    spec = rl.detect_gpu(device_name)
    assert spec.name == key and not spec.fallback


def test_detect_gpu_figures():
    assert rl.detect_gpu("NVIDIA H200").bandwidth_gbs == 4800.0
    assert rl.detect_gpu("NVIDIA A100-SXM4-80GB").tf32_tflops == 156.0
    assert rl.detect_gpu("NVIDIA L4").bandwidth_gbs == 300.0


def test_unknown_gpu_falls_back_to_named_h100_sxm_peaks():
    spec = rl.detect_gpu("XYZ")
    assert spec.fallback
    assert spec.name == "unknown GPU 'XYZ' (using H100 SXM peaks)"
    assert (spec.tf32_tflops, spec.bandwidth_gbs) == (H100.tf32_tflops, H100.bandwidth_gbs)
    r = rl.roofline(10**9, 10**6, torch.float32, spec)
    assert r.fallback and r.gpu == spec.name
    assert not rl.GPU_SPECS["H100 SXM"].fallback  # the table entry itself is untouched


def test_nominal_gpu():
    assert rl.nominal_gpu() is rl.GPU_SPECS["H100 SXM"]
    assert rl.nominal_gpu("h200 sxm").name == "H200 SXM"
    with pytest.raises(ValueError, match="H100 SXM.*L4"):
        rl.nominal_gpu("B200")


def test_table_is_dense_and_ordered():
    for spec in rl.GPU_SPECS.values():
        assert spec.source.startswith("NVIDIA")
        assert spec.fp16_tflops == spec.bf16_tflops
        # rel 2%: the L40S sheet prints BF16 362.05 beside TF32 183
        assert spec.fp16_tflops == pytest.approx(2 * spec.tf32_tflops, rel=0.02)
        assert spec.tf32_tflops > spec.fp32_tflops >= spec.fp64_tensor_tflops >= spec.fp64_tflops


def test_rejection_threshold_is_just_below_fraction_of_t_min():
    t_min = 1.0
    assert rl.is_physically_impossible(0.79, t_min, 0.8)
    assert not rl.is_physically_impossible(0.81, t_min, 0.8)
    assert not rl.is_physically_impossible(0.80, t_min, 0.8)
    assert not rl.is_physically_impossible(1e-9, 0.0, 0.8)  # no floor: never rejects
    assert not rl.is_physically_impossible(None, t_min, 0.8)


def test_roofline_frac():
    assert rl.roofline_frac(1.0, 4.0) == 0.25
    assert rl.roofline_frac(1.0, None) is None
    assert rl.roofline_frac(1.0, 0.0) is None


def test_to_dict_is_json_safe():
    r = rl.roofline(10**12, 10**9, torch.float16, H100)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["bound"] == "compute" and data["gpu"] == "H100 SXM" and data["fallback"] is False
    assert data["t_min_ms"] == pytest.approx(1e12 / 989.5e12 * 1e3)
    assert rl.roofline(5, 0, torch.float32, H100).to_dict()["arithmetic_intensity"] is None
