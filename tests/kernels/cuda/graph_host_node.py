# task: level1/19_ReLU
# language: cuda
# expect: format_violation
# why: a CUDA graph host node (cudaGraphAddHostNode) is a host callback queued on the stream, like
#      the refused cudaLaunchHostFunc, spelled without `launchhostfunc`/`streamaddcallback`: host code
#      runs in stream order between the kernels, where no guard or recorder looks.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; y[i] = v > 0.f ? v : 0.f; }
}

static long calls = 0;
static void CUDART_CB on_host(void* arg) { ++*static_cast<long*>(arg); }  // any host code

torch::Tensor relu(torch::Tensor x) {
    static cudaGraphExec_t runner = nullptr;
    if (!runner) {
        cudaGraph_t g;
        cudaGraphCreate(&g, 0);
        cudaHostNodeParams p = {};
        p.fn = on_host;
        p.userData = &calls;
        cudaGraphNode_t node;
        cudaGraphAddHostNode(&node, g, nullptr, 0, &p);
        cudaGraphInstantiate(&runner, g, 0);
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    auto y = torch::empty_like(x);
    long n = x.numel();
    relu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    cudaGraphLaunch(runner, stream);   // the host callback, in stream order
    return y;
}
"""

ext = load_inline(name="rt_graph_host_node", cpp_sources="torch::Tensor relu(torch::Tensor x);",
                  cuda_sources=CUDA_SOURCE, functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.relu(x.contiguous())
