"""Configuration: every variable validated at start-up, with the variable and valid values named."""

from __future__ import annotations

import subprocess
import sys

import pytest

from server.config import ConfigError, load_config
from tests.conftest import BUNDLED, ROOT


def test_defaults_on_a_machine_without_kernelbench():
    cfg = load_config({"KERNELBENCH_DIR": ""})
    assert cfg.tasks_source == "bundled" and cfg.tasks_dir == BUNDLED
    assert cfg.max_turns == 4 and cfg.max_sessions == 64 and cfg.reward == "speedup"
    assert cfg.roofline_reject == 0.8 and cfg.gpus == (0,) and cfg.eval_log is None
    assert cfg.evaluator in ("gpu", "cpu") and cfg.provenance == "all"
    assert cfg.idle_timeout_s == 1800


def test_values_are_parsed():
    cfg = load_config({"KERNEL_ENV_GPUS": "0,2,3", "KERNEL_ENV_EVALUATOR": "mock",
                       "KERNEL_ENV_MAX_TURNS": "6", "KERNEL_ENV_MAX_SESSIONS": "8",
                       "KERNEL_ENV_REWARD": "roofline", "KERNEL_ENV_ROOFLINE_REJECT": "0.5",
                       "KERNEL_ENV_EVAL_LOG": "/tmp/x.jsonl",
                       "KERNEL_ENV_STAGE_TIMEOUTS": "compile=600,timing=30",
                       "KERNEL_ENV_PROVENANCE": "cuda", "KERNEL_ENV_IDLE_TIMEOUT_S": "0"})
    assert cfg.gpus == (0, 2, 3) and cfg.evaluator == "mock" and cfg.max_turns == 6
    assert cfg.reward == "roofline" and cfg.roofline_reject == 0.5
    assert cfg.stage_timeouts["compile"] == 600 and cfg.stage_timeouts["timing"] == 30
    assert str(cfg.eval_log) == "/tmp/x.jsonl" and cfg.provenance == "cuda"
    assert cfg.idle_timeout_s == 0  # never


def test_sessions_are_not_reaped_while_connected(monkeypatch):
    """OpenEnv's idle reaper freed the slot of a connected WebSocket whose session went on
    playing, so the session cap no longer held (red-team pass 47): no reaper runs, and a
    session lasts as long as its connection."""
    import openenv.core.env_server.types as types

    from server.app import create_kernel_app

    made, real = [], types.ConcurrencyConfig

    def recording(**kwargs):
        made.append(kwargs)
        return real(**kwargs)
    monkeypatch.setattr(types, "ConcurrencyConfig", recording)
    app = create_kernel_app(load_config({"KERNEL_ENV_EVALUATOR": "mock", "KERNEL_ENV_MAX_SESSIONS": "5"}))
    try:
        assert made == [{"max_concurrent_envs": 5, "session_timeout": None}]
    finally:
        app.state.services.evaluator.close()


@pytest.mark.parametrize("var, value, named", [
    ("KERNEL_ENV_EVALUATOR", "tpu", "gpu, cpu, mock"),
    ("KERNEL_ENV_GPUS", "zero", "comma list"),
    ("KERNEL_ENV_GPUS", "0,0", "distinct"),
    ("KERNEL_ENV_MAX_TURNS", "0", "1..100"),
    ("KERNEL_ENV_MAX_TURNS", "four", "not an integer"),
    ("KERNEL_ENV_MAX_SESSIONS", "-1", "1..4096"),
    ("KERNEL_ENV_REWARD", "accuracy", "speedup, roofline"),
    ("KERNEL_ENV_ROOFLINE_REJECT", "1.5", "0.0..1.0"),
    ("KERNEL_ENV_ROOFLINE_REJECT", "nan", "0.0..1.0"),
    ("KERNELBENCH_DIR", "/nonexistent/kb", "not a directory"),
    ("KERNEL_ENV_STAGE_TIMEOUTS", "linking=5", "unknown stage"),
    ("KERNEL_ENV_NOMINAL_GPU", "RTX 9090", "H100 SXM"),
    ("KERNEL_ENV_EVAL_LOG", "/nonexistent/dir/eval.jsonl", "writable directory"),
    ("KERNEL_ENV_PROVENANCE", "sometimes", "cuda, all, off"),
    ("KERNEL_ENV_IDLE_TIMEOUT_S", "-5", "0.0..604800.0"),
    ("KERNEL_ENV_IDLE_TIMEOUT_S", "soon", "not a number"),
])
def test_bad_values_name_the_variable_and_valid_values(var, value, named):
    with pytest.raises(ConfigError) as err:
        load_config({var: value})
    assert var in str(err.value) and named in str(err.value)


def test_server_refuses_to_start_with_a_bad_value():
    env = {"PATH": "/usr/bin:/bin", "KERNEL_ENV_REWARD": "vibes"}
    proc = subprocess.run([sys.executable, "-m", "server.app"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "KERNEL_ENV_REWARD" in proc.stderr and "speedup, roofline" in proc.stderr
