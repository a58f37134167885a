#!/usr/bin/env bash
# One run on a GPU host: the GPU test suite, a server smoke test over loopback, the benchmark.
# Usage (repository root): bash bench/run_gpu_suite.sh [all|one|allocator|tests|kernels|serial|tests1|tests1a|tests1a1|tests1a2|tests1a:K/N|tests1b|tests2|bench|diagnostics|multi] [KernelBench task root]
#    or: bash bench/run_gpu_suite.sh sweep <KernelBench task root> [first task index] [levels...]
#        (bench/kb_sweep.py for 540 s from that index; it prints where it stopped)
# (`tests` and `bench` split the run in two for hosts that limit one command's duration; `tests1`
# (everything but the adversarial folder and test_input_placement.py) and `tests2` (the
# adversarial folder and test_input_placement.py) split `tests`; `tests1a` (tests/test_gpu.py's
# part of tests1, ~300 s on the H200) and `tests1b` (the rest of tests1 and the CPU-side suites)
# split `tests1`, which took ~500 s in session 29, near a 600 s limit; `tests1a1` and `tests1a2`
# are tests1a's first and second halves in collection order (bench/run_part.py): on session 38's
# host tests1a had run 188 of its 201 tests at 600 s, and on session 39's H100 tests1a2 had run
# 94 of its 100 at 600 s: `tests1a:K/N` runs part K of N (tests1a:2/3, say); `multi` is for a host with two
# GPUs or more: tests/test_multi_gpu.py and bench/multi_gpu.py, both skipped or trivial on one.)
# `kernels` is test_gpu.py's kernel cases marked gpu_parallel on WORKERS (6 unless set) pytest
# workers, `serial` every other GPU test one at a time (together: `tests`, ~580 tests).
# `WORKERS=4 bash bench/run_gpu_suite.sh tests` runs the kernel cases on 4 pytest workers (below).
# `one`: the most telling parts of all of these in one command under 600 s (below).
# `allocator` compares expandable segments (an operator's opt-in) with PyTorch's default allocator.
# `bench` is the server smoke test, the benchmark and the step profiles; `diagnostics` the timing
# studies (tail calibration, small-kernel spread, warm-up profile, timing bias), apart since
# session 39: together they ran past a 600 s command limit.
# Server-side wheels the host lacks may sit in .whl/ (see ../shared/gpu/wheels.sh). Logs go to
# $OUT when it is set.
set -uo pipefail
export PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --upgrade --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site:$(pwd)
else
  export PYTHONPATH=$(pwd)
fi
PHASE=${1:-all}
LOG_NAME=$PHASE
case "$PHASE" in tests1a:*/*) K=${PHASE#tests1a:}; N=${K#*/}; K=${K%/*}; LOG_NAME=tests1a-${K}of$N; PHASE=tests1aK ;; esac
KB=${2:-}
if [ "$PHASE" = sweep ]; then
  START=${3:-0}
  shift 3 2>/dev/null || shift $#
  python3 bench/kb_sweep.py --kernelbench-dir "$KB" --start "$START" --deadline 540 \
    --levels ${@:-1 2 3} --jsonl "${OUT:-/tmp}/kb-sweep-$START.jsonl" 2>&1 | grep -v -i warn \
    | tee "${OUT:-/tmp}/kb-sweep-$START.log" | sed -n '/^deadline\|== summary/,$p'
  exit 0
fi
LOGS=${OUT:-/tmp}
if [ "$PHASE" = multi ]; then
  nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
  python3 -c "from server import gpu_ids; print('NVML GPU count', gpu_ids.nvml_gpu_count())"
  python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_multi_gpu.py -rfE 2>&1 \
    | tee "$LOGS/multi-gpu-tests.log" | tail -3
  python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ids.py tests/test_pool.py 2>&1 | tail -1
  python3 bench/multi_gpu.py 2>&1 | grep -v -i warn | tee "$LOGS/multi-gpu.log" | tail -8
  exit 0
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
if [ "$PHASE" = one ]; then
  # What matters most, in one command under a 600 s limit, each part bounded by its own time
  # (for sessions whose device comes once, late, with little budget left; on session 42's H100
  # 8 workers ran ~470 of the 511 kernel cases in 260 s, the rest of the command 200 s): the
  # kernel cases on 8 workers, the device-memory and timing GPU tests, a 3-repeat benchmark without the
  # provenance table, the full-size ReLU step's memory with and without expandable segments,
  # and what the unit trials cost to make at level 2's shapes.
  echo "== kernel cases (gpu_parallel, 8 workers, 305 s at most)"
  timeout 305 python3 bench/run_part.py 1 1 -q -p no:cacheprovider -m "gpu and gpu_parallel" \
    tests/test_gpu.py -n 8 -rfE 2>&1 | tee "$LOGS/gpu-tests-kernels.log" \
    | grep -E "^(FAILED|ERROR)|passed|failed|^part " | cut -c1-300 | awk 'NR <= 30'
  echo "== device memory and timing GPU tests (45 s at most)"
  timeout 45 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_device_memory.py \
    tests/test_timing_gpu.py -rfE 2>&1 | tee "$LOGS/gpu-tests-memory-timing.log" \
    | grep -E "^(FAILED|ERROR)|passed|failed" | cut -c1-300
  echo "== benchmark, 3 repeats, no provenance table (110 s at most)"
  timeout 110 python3 bench/gpu_bench.py ${KB:+--kernelbench-dir "$KB"} --repeats 3 --no-provenance \
    2>&1 | grep -v -i warn | tee "$LOGS/bench.log" | tail -30
  if [ -n "$KB" ]; then
    echo "== full-size ReLU step: plain, then with expandable segments (35 s each at most)"
    timeout 35 python3 bench/step_profile.py --kernelbench-dir "$KB" --only ReLU 2>&1 \
      | grep -v -i warn | tee "$LOGS/step-profile-relu.log" | grep -E "^[A-Za-z]|device memory|stages"
    PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True timeout 35 python3 bench/step_profile.py \
      --kernelbench-dir "$KB" --only ReLU 2>&1 | grep -v -i warn \
      | tee "$LOGS/step-profile-relu-expandable.log" | grep -E "^[A-Za-z]|device memory|stages"
    echo "== the unit trials' making at level 2's full shapes, quiet units first (55 s at most)"
    timeout 55 python3 bench/unit_making.py --kernelbench-dir "$KB" --levels 2 --deadline 45 2>&1 \
      | grep -v -i warn | tee "$LOGS/unit-making.log" | tail -6
  fi
  exit 0
fi
if [ "$PHASE" = allocator ]; then
  # Expandable segments (PYTORCH_CUDA_ALLOC_CONF, an operator's opt-in the worker hosts pass on)
  # against PyTorch's default allocator, on one machine: the secret pool's test under each,
  # full-size steps' device memory as served (provenance on), the 3-repeat benchmark under each.
  echo "== secret allocations under each allocator setting (60 s at most)"
  timeout 60 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_gpu.py -k secret_allocations \
    -rfE 2>&1 | tee "$LOGS/secret-memory.log" | grep -E "^(FAILED|ERROR)|passed|failed" | cut -c1-300
  for conf in expandable_segments:True expandable_segments:False; do
    echo "== full-size steps with PYTORCH_CUDA_ALLOC_CONF=$conf, provenance on (40 s each at most)"
    for c in ReLU Softmax Frobenius; do
      PYTORCH_CUDA_ALLOC_CONF=$conf timeout 40 python3 bench/step_profile.py --kernelbench-dir "$KB" \
        --only $c --provenance all 2>&1 | grep -v -i warn | tee -a "$LOGS/step-profile-$conf.log" \
        | grep -E "^[A-Za-z]|device memory|stages"
    done
  done
  for conf in expandable_segments:False expandable_segments:True; do
    echo "== benchmark with PYTORCH_CUDA_ALLOC_CONF=$conf, 3 repeats, no provenance table (110 s at most)"
    PYTORCH_CUDA_ALLOC_CONF=$conf timeout 110 python3 bench/gpu_bench.py ${KB:+--kernelbench-dir "$KB"} \
      --repeats 3 --no-provenance 2>&1 | grep -v -i warn | tee "$LOGS/bench-$conf.log" \
      | sed -n '/^case  /,/^$/p'
  done
  exit 0
fi
GPU_TESTS="tests/test_gpu.py tests/test_worker_operations.py tests/test_timing_gpu.py tests/test_device_memory.py
  tests/test_fused_compare.py tests/test_perturb.py tests/test_construction_guard.py tests/test_confinement.py
  tests/test_multi_gpu.py"
# (tests/test_input_placement.py runs with tests2, or with `tests`/`all`)
case "$PHASE" in tests1|tests1a|tests1a1|tests1a2|tests1aK|tests1b|kernels) ;; *) GPU_TESTS="$GPU_TESTS tests/test_input_placement.py" ;; esac
RUN=(python3 bench/run_part.py 1 1)  # (failures shown as they come: a run the time limit stops has no summary)
case "$PHASE" in tests1a1) RUN=(python3 bench/run_part.py 1 2) ;; tests1a2) RUN=(python3 bench/run_part.py 2 2) ;;
  tests1aK) RUN=(python3 bench/run_part.py "$K" "$N") ;; esac
case "$PHASE" in
  tests1) SELECT=(-k "not adversarial") ;;
  tests1a|tests1a1|tests1a2|tests1aK) SELECT=(-k "not adversarial") GPU_TESTS="tests/test_gpu.py" ;;
  tests1b) SELECT=(-k "not adversarial") GPU_TESTS="${GPU_TESTS/tests\/test_gpu.py /}" ;;
  tests2) SELECT=(tests/test_gpu.py tests/test_input_placement.py -k "adversarial or clean or test_input_placement")
          GPU_TESTS="" ;;
  kernels) SELECT=() GPU_TESTS="tests/test_gpu.py" ;;
  *) SELECT=() ;;
esac
# WORKERS=W (W > 1): the kernel cases marked gpu_parallel first, on W pytest-xdist workers (each
# its own evaluator on the GPU: compiles and process start-ups overlap), then the rest one at a
# time. Not yet tried on a GPU (session 39 wrote it after its device time was spent).
[ "$PHASE" = kernels ] && WORKERS=${WORKERS:-6}
WORKERS=${WORKERS:-1}
if [ "$WORKERS" -gt 1 ] && ! python3 -c "import xdist" 2>/dev/null; then
  echo "WORKERS=$WORKERS needs pytest-xdist (the GPU image has it; not in the dev extras): one at a time"
  WORKERS=1
fi
gpu_tests() {  # $1: marker expression, $2: log name, then extra arguments
  local marks=$1 log=$2
  shift 2
  # shellcheck disable=SC2086
  "${RUN[@]}" "$@" -q -p no:cacheprovider -m "$marks" $GPU_TESTS "${SELECT[@]}" \
    --timeout 900 -rfE 2>&1 | tee "$LOGS/$log.log" | grep -E "^(FAILED|ERROR)|passed|failed|^part " | cut -c1-300 | awk 'NR <= 40'
}  # (awk, not head: head's exit would end the tests with a broken pipe)
if [ "$PHASE" != bench ] && [ "$PHASE" != diagnostics ]; then
  echo "== GPU tests"
  if [ "$PHASE" = kernels ]; then  # the parallel kernel cases alone (`serial` runs the rest)
    if [ "$WORKERS" -gt 1 ]; then gpu_tests "gpu and gpu_parallel" "gpu-tests-kernels" -n "$WORKERS"
    else gpu_tests "gpu and gpu_parallel" "gpu-tests-kernels"; fi
  elif [ "$PHASE" = serial ]; then
    gpu_tests "gpu and not gpu_parallel" "gpu-tests-serial"
  elif [ "$WORKERS" -gt 1 ]; then
    gpu_tests "gpu and gpu_parallel" "gpu-tests-$LOG_NAME-parallel" -n "$WORKERS"
    gpu_tests "gpu and not gpu_parallel" "gpu-tests-$LOG_NAME"
  else
    gpu_tests gpu "gpu-tests-$LOG_NAME"
  fi
fi
if [ "$PHASE" = tests ] || [ "$PHASE" = tests1 ] || [ "$PHASE" = tests1b ] || [ "$PHASE" = serial ] || [ "$PHASE" = all ]; then
  echo "== CPU-side suites on this host (guard rules, validation)"
  python3 -m pytest -q -p no:cacheprovider tests/test_worker_operations.py tests/test_worker_validation.py 2>&1 | tail -1
fi
if [ "$PHASE" = all ] || [ "$PHASE" = bench ]; then
  echo "== server smoke test (gpu evaluator, loopback)"
  python3 bench/server_smoke.py 2>&1 | tail -8
  echo "== benchmark"
  python3 bench/gpu_bench.py ${KB:+--kernelbench-dir "$KB"} 2>&1 | tee "$LOGS/bench.log" | tail -46
  if [ -n "$KB" ]; then
    echo "== where a full-size step's time goes (bench/step_profile.py)"
    { for c in ReLU Frobenius; do python3 bench/step_profile.py --kernelbench-dir "$KB" --only $c; done
      # as served (provenance on): the step's peak device memory at the largest inputs
      python3 bench/step_profile.py --kernelbench-dir "$KB" --only Frobenius --provenance all
      python3 bench/step_profile.py --only ReLU
      # the caching allocator's fragments (a full-size step reserved 70-138 GiB for 24-35 GiB of
      # live tensors): the same step with expandable segments, reserved memory and stage times
      echo "-- with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"
      PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True \
        python3 bench/step_profile.py --kernelbench-dir "$KB" --only ReLU; } 2>&1 \
      | grep -v -i warn | tee "$LOGS/step-profile.log"
  fi
fi
# The diagnostics apart (`diagnostics`): with them, `bench` ran past a 600 s command limit.
if [ "$PHASE" = all ] || [ "$PHASE" = diagnostics ]; then
  echo "== honest settle tails vs their calibration (bench/tail_calibration.py)"
  python3 bench/tail_calibration.py 2>&1 | grep -v -i warn | tee "$LOGS/tail-calibration.log"
  echo "== a 4 µs kernel between processes, fixed vs moving addresses (bench/small_kernel_spread.py)"
  python3 bench/small_kernel_spread.py 2>&1 | grep -v -i warn | tee "$LOGS/small-kernel-spread.log"
  echo "== an evaluation process's warm-up (bench/prewarm_profile.py)"
  python3 bench/prewarm_profile.py --children 2 2>&1 | grep -v -i warn | grep -v "^    " | tee "$LOGS/prewarm-profile.log"
  echo "== timing setup vs full-size ReLU (bench/timing_bias.py)"
  python3 bench/timing_bias.py --processes 3 2>&1 | grep -v -i warn | tee "$LOGS/timing-bias.log" | tail -10
fi
