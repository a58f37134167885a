# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: c10::ThreadPool (libtorch's own pool, c10/core/thread_pool.h) starts OS threads with none of
#      std::thread/std::async/pthread/at::launch spelled (at::intraop_launch and
#      at::launch_no_thread_state pass too): the ReLU runs as aten's op on a pool thread, where the
#      Python dispatch guard (thread-local) never looks; only provenance, in recorded forwards,
#      would see aten's kernel.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = r"""
#include <torch/extension.h>
#include <c10/core/thread_pool.h>
#include <future>

torch::Tensor touch_kernel(torch::Tensor x);

torch::Tensor relu(torch::Tensor x) {
    static c10::ThreadPool pool(1);
    std::promise<torch::Tensor> result;
    auto fut = result.get_future();
    pool.run([&] { result.set_value(at::relu(x)); });   // on another OS thread
    auto y = fut.get();
    touch_kernel(y);   // one launch of its own, so a recorded forward has one
    return y;
}
"""

CUDA_SOURCE = r"""
#include <torch/extension.h>
__global__ void touch(float* y) { if (threadIdx.x == 0 && blockIdx.x == 0) y[0] = y[0]; }
torch::Tensor touch_kernel(torch::Tensor y) { touch<<<1, 32>>>(y.data_ptr<float>()); return y; }
"""

ext = load_inline(name="rt_thread_pool", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                  functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
