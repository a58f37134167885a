"""What ships: the Dockerfile, .dockerignore, modal_app.py and openenv.yaml, read without Docker or
Modal, and OpenEnv's own validator run against a real server."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, running_server

DOCKERFILE = (ROOT / "Dockerfile").read_text()


def instructions(name: str) -> list[str]:
    """Arguments of every `name` instruction, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(name + " ")]


def test_dockerfile_copies_only_files_that_exist():
    copies = [args.split() for args in instructions("COPY") if "--from=" not in args]
    sources = [part for args in copies for part in args[:-1] if not part.startswith("--")]
    assert {"pyproject.toml", "uv.lock", "server", "kernel_env"} <= set(sources)
    assert all((ROOT / source).exists() for source in sources), sources


def test_dependencies_install_before_the_code_is_copied():
    deps = DOCKERFILE.index("uv sync --frozen --no-dev --no-install-project")
    assert DOCKERFILE.index("COPY pyproject.toml uv.lock") < deps
    assert deps < DOCKERFILE.index("COPY server")


def test_the_command_is_the_server_script_of_the_project():
    cmd = json.loads(instructions("CMD")[0])
    assert cmd == ["/app/.venv/bin/server"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["server"] == "server.app:main"
    entry = importlib.metadata.entry_points(group="console_scripts", name="server")
    from server.app import main
    assert [e.load() for e in entry] == [main]


def test_the_image_serves_port_8000_and_checks_health():
    assert instructions("EXPOSE") == ["8000"]
    (healthcheck,) = instructions("HEALTHCHECK")
    assert "/health" in healthcheck and "'8000'" in healthcheck


def test_the_server_runs_as_a_user_that_is_not_root():
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0")
    assert "--uid 1000" in DOCKERFILE  # Hugging Face Spaces run containers as UID 1000


def test_the_installed_code_is_not_writable_by_the_server_user():
    """Everything is installed before the switch to the unprivileged user, and nothing is handed
    to it: a CUDA submission's host code must not rewrite torch or the evaluator on disk."""
    assert "--chown" not in DOCKERFILE and "chown" not in DOCKERFILE
    last_install = max(DOCKERFILE.rfind("RUN uv sync"), DOCKERFILE.rfind("COPY server"))
    assert last_install < DOCKERFILE.rfind("USER kernel")


def test_the_image_pins_its_base_uv_and_kernelbench():
    base = instructions("FROM")[0]
    assert re.fullmatch(r"nvidia/cuda:13\.0\.\d+-devel-ubuntu24\.04", base)  # nvcc for cu130 torch
    assert re.search(r"ghcr\.io/astral-sh/uv:\d+\.\d+\.\d+ ", DOCKERFILE)
    assert re.search(r"git -C /opt/KernelBench checkout [0-9a-f]{40}\b", DOCKERFILE)
    assert "KERNELBENCH_DIR=/opt/KernelBench/KernelBench" in instructions("ENV")


def test_dockerignore_keeps_local_state_out_of_the_image():
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    for excluded in (".venv", ".git", "**/__pycache__", ".whl", ".kb", ".pytest_cache"):
        assert excluded in lines


def modal_app():
    pytest.importorskip("modal")
    import modal_app
    return modal_app


def test_modal_runs_the_gpu_tests_on_the_gpu_the_suite_expects():
    info = modal_app().gpu_tests.info()
    assert info.gpus == [("H200", 1)] and info.web_info is None


def test_modal_gpu_tests_fail_when_pytest_fails(monkeypatch):
    app = modal_app()
    monkeypatch.setattr(app.subprocess, "call", lambda *args, **kwargs: 1)
    with pytest.raises(RuntimeError, match="exited with code 1"):
        app.gpu_tests.local()


def test_modal_serves_behind_proxy_auth_with_one_gpu_and_matched_sessions():
    app = modal_app()
    info = app.serve.info()
    assert info.gpus == [(app.GPU, 1)] and app.SERVE_ENV["KERNEL_ENV_GPUS"] == "0"
    assert info.web_info is not None and info.web_info.unauthenticated is False
    # As many inputs per container as sessions: a WebSocket never lands on a full container.
    assert info.concurrency_info.max_inputs == int(app.SERVE_ENV["KERNEL_ENV_MAX_SESSIONS"])


def test_modal_image_repeats_the_dockerfile():
    app = modal_app()
    assert instructions("FROM") == [app.CUDA_IMAGE]
    assert f"uv:{app.UV_VERSION} " in DOCKERFILE and app.KERNELBENCH_COMMIT in DOCKERFILE


def test_modal_upload_leaves_out_what_docker_leaves_out():
    from modal import FilePatternMatcher

    ignored = FilePatternMatcher.from_file(ROOT / ".dockerignore")
    for path in (".venv/bin/python", ".git/HEAD", "server/__pycache__/app.pyc", ".kb/x"):
        assert ignored(Path(path)), path
    for path in ("server/app.py", "modal_app.py", "tests/test_gpu.py", "pyproject.toml"):
        assert not ignored(Path(path)), path


def test_openenv_yaml_names_the_app_and_port():
    manifest = yaml.safe_load((ROOT / "openenv.yaml").read_text())
    assert manifest["spec_version"] == 1 and manifest["name"] == "kernel_env"
    assert manifest["type"] == "space" and manifest["runtime"] == "fastapi"
    assert manifest["app"] == "server.app:app" and manifest["port"] == 8000


def test_openenv_yaml_passes_openenv_static_validation():
    from openenv.validation import Level, Verdict, run_validation

    report = run_validation(ROOT, max_level=Level.STATIC)
    assert report.verdict is Verdict.PASS, [r.evidence for r in report.results]


def test_openenv_validate_passes_against_a_running_server():
    with running_server({"KERNEL_ENV_EVALUATOR": "mock"}) as url:
        done = subprocess.run([sys.executable, "-m", "openenv.cli", "validate", url, "--json",
                               "--timeout", "30"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["passed"] and report["mode"] == "simulation"
    assert {c["id"] for c in report["criteria"]} >= {"health_endpoint", "schema_endpoint"}


def test_the_readme_lists_every_stage_and_error_class():
    from server.evaluation.stages import ERROR_CLASSES, STAGES
    readme = (ROOT / "README.md").read_text()
    missing = [name for name in (*STAGES, *ERROR_CLASSES) if f"`{name}`" not in readme]
    assert not missing, f"README does not name: {missing}"
