#!/usr/bin/env bash
# One run on a GPU host: the GPU test suite, a server smoke test over loopback, the benchmark.
# Usage (repository root): bash bench/run_gpu_suite.sh [KernelBench task root]
# Server-side wheels the host lacks may sit in .whl/ (see ../shared/gpu/wheels.sh).
set -uo pipefail
export PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --upgrade --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site:$(pwd)
else
  export PYTHONPATH=$(pwd)
fi
KB=${1:-}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
echo "== GPU tests"
python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_gpu.py --timeout 900 2>&1 | grep -E "^(FAILED|ERROR|E  )|passed|failed" | head -40
echo "== CPU-side suites on this host (guard rules, validation)"
python3 -m pytest -q -p no:cacheprovider tests/test_worker_operations.py tests/test_worker_validation.py 2>&1 | tail -3
echo "== server smoke test (gpu evaluator, loopback)"
python3 bench/server_smoke.py 2>&1 | tail -8
echo "== benchmark"
python3 bench/gpu_bench.py ${KB:+--kernelbench-dir "$KB"} 2>&1 | tail -30
