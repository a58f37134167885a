"""All configuration, read once from the environment, validated, frozen.

Nothing else in the server reads environment variables. A bad value stops start-up with a message
naming the variable and the values it accepts.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from server import gpu_ids
from server.evaluation.protocol import DEFAULT_STAGE_TIMEOUTS

EVALUATORS = ("gpu", "cpu", "mock")
REWARD_MODES = ("speedup", "roofline")
PROVENANCE_MODES = ("cuda", "all", "off")
DEFAULT_KERNELBENCH_DIR = "/opt/KernelBench/KernelBench"
BUNDLED_TASKS_DIR = Path(__file__).parent / "tasks" / "bundled"


class ConfigError(ValueError):
    """A configuration variable holds a value the server cannot use."""


@dataclass(frozen=True)
class Config:
    tasks_dir: Path = BUNDLED_TASKS_DIR
    tasks_source: str = "bundled"  # "bundled" or "kernelbench"
    gpus: tuple[int, ...] = (0,)
    # each GPU's CUDA_VISIBLE_DEVICES entry for its worker host (gpu_ids.py), in the order of gpus
    gpu_visible: tuple[str, ...] = ("0",)
    evaluator: str = "cpu"
    max_turns: int = 4
    max_sessions: int = 64
    eval_log: Path | None = None
    reward: str = "speedup"
    roofline_reject: float = 0.8
    stage_timeouts: dict = field(default_factory=lambda: dict(DEFAULT_STAGE_TIMEOUTS))
    cpu_workers: int = 1
    worker_memory_gb: float = 16.0
    nominal_gpu: str = "H100 SXM"
    provenance: str = "all"
    spares: int = 2
    idle_timeout_s: float = 1800.0  # a WebSocket session with no message this long is closed; 0: never
    port: int = 8000


def _int(env, name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer; valid: {low}..{high}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name}={value} is out of range; valid: {low}..{high}")
    return value


def _float(env, name: str, default: float, low: float, high: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number; valid: {low}..{high}") from None
    if not (low <= value <= high) or math.isnan(value):
        raise ConfigError(f"{name}={value} is out of range; valid: {low}..{high}")
    return value


def _choice(env, name: str, default: str, choices: tuple[str, ...]) -> str:
    value = (env.get(name) or default).strip().lower()
    if value not in choices:
        raise ConfigError(f"{name}={env.get(name)!r} is not valid; valid: {', '.join(choices)}")
    return value


def _gpus(env, gpu_count: int | None, on_gpu: bool) -> tuple[int, ...]:
    """`all`: every GPU the server's process sees (its CUDA_VISIBLE_DEVICES, else NVML's count,
    `gpu_count`)."""
    raw = env.get("KERNEL_ENV_GPUS", "0").strip() or "0"
    if raw.lower() == "all":
        return _all_gpus(env, gpu_count) if on_gpu else (0,)
    try:
        ids = tuple(int(part) for part in raw.split(","))
    except ValueError:
        raise ConfigError(f"KERNEL_ENV_GPUS={raw!r} is not valid; valid: a comma list of GPU "
                          "ids such as 0 or 0,1,2,3") from None
    if any(i < 0 for i in ids) or len(set(ids)) != len(ids):
        raise ConfigError(f"KERNEL_ENV_GPUS={raw!r} is not valid; valid: distinct non-negative "
                          "GPU ids such as 0,1")
    return ids


def _all_gpus(env, gpu_count: int | None) -> tuple[int, ...]:
    count = gpu_ids.visible_count(env.get("CUDA_VISIBLE_DEVICES"), gpu_count)
    if not count:
        why = "no GPU is visible" if count == 0 else "the GPUs cannot be counted here (no NVML)"
        raise ConfigError(f"KERNEL_ENV_GPUS='all' is not valid: {why}; valid: a comma list of "
                          "GPU ids such as 0 or 0,1")
    return tuple(range(count))


def _gpu_visible(env, gpus: tuple[int, ...], gpu_count: int | None, on_gpu: bool) -> tuple[str, ...]:
    """What each GPU's worker host is shown; on the gpu evaluator, every id must name a GPU
    this process can see (else every step on that GPU would fail, or land on a GPU not ours).
    Other evaluators use no GPU: nothing to map or check."""
    if not on_gpu:
        return tuple(str(i) for i in gpus)
    try:
        return gpu_ids.worker_visible_devices(gpus, env.get("CUDA_VISIBLE_DEVICES"), gpu_count)
    except ValueError as exc:
        raise ConfigError(f"KERNEL_ENV_GPUS={env.get('KERNEL_ENV_GPUS', '0')!r} is not valid: {exc}") from None


def _stage_timeouts(env) -> dict:
    timeouts = dict(DEFAULT_STAGE_TIMEOUTS)
    raw = env.get("KERNEL_ENV_STAGE_TIMEOUTS", "").strip()
    for part in filter(None, (p.strip() for p in raw.split(","))):
        name, _, seconds = part.partition("=")
        if name not in timeouts:
            raise ConfigError(f"KERNEL_ENV_STAGE_TIMEOUTS: unknown stage {name!r}; valid: "
                              f"{', '.join(timeouts)} (e.g. compile=600,timing=60)")
        try:
            timeouts[name] = float(seconds)
            assert 0 < timeouts[name] <= 3600
        except (ValueError, AssertionError):
            raise ConfigError(f"KERNEL_ENV_STAGE_TIMEOUTS: {part!r} needs seconds in (0, 3600]") from None
    return timeouts


def _tasks_dir(env) -> tuple[Path, str]:
    raw = env.get("KERNELBENCH_DIR")
    path = Path(raw or DEFAULT_KERNELBENCH_DIR)
    if path.is_dir():
        if not any(path.glob("level*/*.py")):
            raise ConfigError(f"KERNELBENCH_DIR={str(path)!r} holds no level*/ folders of task "
                              "files; valid: a KernelBench task root such as KernelBench/KernelBench")
        return path, "kernelbench"
    if raw:
        raise ConfigError(f"KERNELBENCH_DIR={raw!r} is not a directory; valid: a KernelBench task "
                          "root with level1/, level2/, ... or unset for the bundled suite")
    return BUNDLED_TASKS_DIR, "bundled"


def cuda_available() -> bool:
    """Whether a GPU evaluator can run, without importing torch in the server process."""
    return Path("/dev/nvidiactl").exists() or Path("/proc/driver/nvidia/version").exists()


def load_config(env: dict | None = None) -> Config:
    env = dict(os.environ if env is None else env)
    tasks_dir, source = _tasks_dir(env)
    default_eval = "gpu" if cuda_available() else "cpu"
    from server.evaluation.gpus import GPU_SPECS

    nominal = env.get("KERNEL_ENV_NOMINAL_GPU") or "H100 SXM"
    if nominal not in GPU_SPECS:
        raise ConfigError(f"KERNEL_ENV_NOMINAL_GPU={nominal!r} is not valid; valid: {', '.join(GPU_SPECS)}")
    log = env.get("KERNEL_ENV_EVAL_LOG")
    if log and not os.access(Path(log).resolve().parent, os.W_OK):
        raise ConfigError(f"KERNEL_ENV_EVAL_LOG={log!r}: its directory does not exist or is not "
                          "writable; valid: a file path in a writable directory, or unset")
    evaluator = _choice(env, "KERNEL_ENV_EVALUATOR", default_eval, EVALUATORS)
    on_gpu = evaluator == "gpu"
    gpu_count = gpu_ids.nvml_gpu_count() if on_gpu else None  # read once, at start-up
    gpus = _gpus(env, gpu_count, on_gpu)
    return Config(
        tasks_dir=tasks_dir,
        tasks_source=source,
        gpus=gpus,
        gpu_visible=_gpu_visible(env, gpus, gpu_count, on_gpu),
        evaluator=evaluator,
        max_turns=_int(env, "KERNEL_ENV_MAX_TURNS", 4, 1, 100),
        max_sessions=_int(env, "KERNEL_ENV_MAX_SESSIONS", 64, 1, 4096),
        eval_log=Path(log) if log else None,
        reward=_choice(env, "KERNEL_ENV_REWARD", "speedup", REWARD_MODES),
        roofline_reject=_float(env, "KERNEL_ENV_ROOFLINE_REJECT", 0.8, 0.0, 1.0),
        stage_timeouts=_stage_timeouts(env),
        cpu_workers=_int(env, "KERNEL_ENV_CPU_WORKERS", max(1, (os.cpu_count() or 2) // 2), 1, 256),
        worker_memory_gb=_float(env, "KERNEL_ENV_WORKER_MEMORY_GB", 16.0, 0.5, 4096.0),
        nominal_gpu=nominal,
        provenance=_choice(env, "KERNEL_ENV_PROVENANCE", "all", PROVENANCE_MODES),
        spares=_int(env, "KERNEL_ENV_SPARES", 2, 1, 8),
        idle_timeout_s=_float(env, "KERNEL_ENV_IDLE_TIMEOUT_S", 1800.0, 0.0, 7 * 86400.0),
        port=_int(env, "PORT", 8000, 1, 65535),
    )
