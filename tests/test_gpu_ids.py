"""KERNEL_ENV_GPUS ids count the GPUs the server's process sees, as cuda:N does: under
CUDA_VISIBLE_DEVICES a worker host is shown that list's entry, never the machine's GPU of the
same number (on a shared host, possibly a training GPU)."""

from __future__ import annotations

import pytest

from server import gpu_ids
from server.config import ConfigError, load_config
from server.pool import WorkerPool, scrubbed_env


UUID = "GPU-8f6c1a2e-0000-1111-2222-333344445555"


@pytest.mark.parametrize("value, count, entries", [
    (None, 8, None), ("", 8, []), ("-1", 8, []), ("4,5", 8, ["4", "5"]), (" 4 , 5 ", 8, ["4", "5"]),
    ("2,-1,3", 8, ["2"]), ("1,,3", 8, ["1"]), ("0,0", 8, []), ("1,2,1", 8, []),
    ("0,7,1", 2, ["0"]), ("0,7,1", None, ["0", "7", "1"]), ("7", 2, []),
    (f"{UUID},GPU-b", 8, [UUID, "GPU-b"]), (f"{UUID},3", 8, [UUID]), (f"{UUID},{UUID}", 8, []),
    ("MIG-a,MIG-b", 8, ["MIG-a", "MIG-b"]), ("3,GPU-b", 8, ["3"]),
])
def test_visible_entries_read_as_cuda_reads_them(value, count, entries):
    assert gpu_ids.visible_entries(value, count) == entries


def test_ids_index_the_visible_list():
    assert gpu_ids.worker_visible_devices((0, 1), "4,5", None) == ("4", "5")
    assert gpu_ids.worker_visible_devices((1,), "GPU-aa,GPU-bb", 8) == ("GPU-bb",)
    assert gpu_ids.worker_visible_devices((0, 2), None, 4) == ("0", "2")
    assert gpu_ids.worker_visible_devices((0, 7), None, None) == ("0", "7")  # no NVML: unchecked


@pytest.mark.parametrize("ids, visible, count, said", [
    ((0, 2), "4,5", 8, "GPU id(s) 2 name no GPU: CUDA_VISIBLE_DEVICES='4,5' shows this server 2 GPU(s) (valid ids: 0..1"),
    ((0,), "-1", 8, "0 GPU(s) (no GPU id is valid here"),
    ((0, 1), "0,0", 8, "a GPU named twice"),
    ((0, 1), "0,7", 2, "GPU id(s) 1 name no GPU: CUDA_VISIBLE_DEVICES='0,7' shows this server 1 GPU(s)"),
    ((1, 3), None, 2, "GPU id(s) 3 name no GPU: the driver (NVML) shows this machine 2 GPU(s) (valid ids: 0..1"),
])
def test_an_id_naming_no_gpu_is_refused(ids, visible, count, said):
    with pytest.raises(ValueError) as err:
        gpu_ids.worker_visible_devices(ids, visible, count)
    assert said in str(err.value)


def test_nvml_count_is_a_count_or_unknown():
    count = gpu_ids.nvml_gpu_count()  # no driver on CI: None, never an exception
    assert count is None or count >= 0


def test_config_maps_ids_through_the_servers_visible_devices():
    cfg = load_config({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "1,0",
                       "CUDA_VISIBLE_DEVICES": "6,7"})
    assert cfg.gpus == (1, 0) and cfg.gpu_visible == ("7", "6")


def test_config_refuses_ids_past_the_visible_gpus(monkeypatch):
    with pytest.raises(ConfigError) as err:
        load_config({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "0,2", "CUDA_VISIBLE_DEVICES": "6,7"})
    assert "KERNEL_ENV_GPUS='0,2'" in str(err.value) and "valid ids: 0..1" in str(err.value)
    monkeypatch.setattr(gpu_ids, "nvml_gpu_count", lambda: 1)
    with pytest.raises(ConfigError, match="KERNEL_ENV_GPUS='1'.*valid ids: 0..0"):
        load_config({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "1"})
    # other evaluators never use the ids: nothing to check
    assert load_config({"KERNEL_ENV_EVALUATOR": "mock", "KERNEL_ENV_GPUS": "1"}).gpu_visible == ("1",)


def test_worker_hosts_are_shown_their_gpus_entry(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "6,7")
    monkeypatch.setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
    monkeypatch.setenv("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")  # the operator's
    env = scrubbed_env("cuda:1", "7")
    assert env["CUDA_VISIBLE_DEVICES"] == "7" and env["CUDA_DEVICE_ORDER"] == "PCI_BUS_ID"
    assert env["PYTORCH_CUDA_ALLOC_CONF"] == "expandable_segments:True"
    assert scrubbed_env("cuda:1")["CUDA_VISIBLE_DEVICES"] == "1"
    assert "CUDA_VISIBLE_DEVICES" not in scrubbed_env("cpu")
    pool = WorkerPool(["cuda:1", "cuda:0"], 60, visible=("7", "6"))
    assert [(h.slot, h.visible) for h in pool.hosts] == [("cuda:1", "7"), ("cuda:0", "6")]
    assert [h.slot for h in WorkerPool(["cpu", "cpu"], 60).hosts] == ["cpu:0", "cpu:1"]


def test_all_names_every_visible_gpu(monkeypatch):
    cfg = load_config({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "all", "CUDA_VISIBLE_DEVICES": "3,1,2"})
    assert cfg.gpus == (0, 1, 2) and cfg.gpu_visible == ("3", "1", "2")
    monkeypatch.setattr(gpu_ids, "nvml_gpu_count", lambda: 4)
    cfg = load_config({"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "ALL"})
    assert cfg.gpus == (0, 1, 2, 3) and cfg.gpu_visible == ("0", "1", "2", "3")
    assert load_config({"KERNEL_ENV_EVALUATOR": "cpu", "KERNEL_ENV_GPUS": "all"}).gpus == (0,)
    for visible, count, said in (("-1", 4, "no GPU is visible"), (None, None, "the GPUs cannot be counted")):
        monkeypatch.setattr(gpu_ids, "nvml_gpu_count", lambda c=count: c)
        env = {"KERNEL_ENV_EVALUATOR": "gpu", "KERNEL_ENV_GPUS": "all"}
        if visible is not None:
            env["CUDA_VISIBLE_DEVICES"] = visible
        with pytest.raises(ConfigError, match=f"KERNEL_ENV_GPUS='all' is not valid: {said}"):
            load_config(env)
