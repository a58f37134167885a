# task: level1/19_ReLU
# expect: format_violation
# why: triton.backends.nvidia.driver re-exports triton.runtime.build.compile_module_from_src (the prefix rule on `triton.runtime` matches spellings, not objects): it runs gcc on a C source string and imports the .so; the native code starts a pthread that computes torch.relu on a thread where the (thread-local) dispatch guard is not entered, and threading.enumerate never sees it
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.backends.nvidia.driver import compile_module_from_src

SRC = r"""
#include <Python.h>
#include <pthread.h>
static void* worker(void* arg) {
    PyGILState_STATE s = PyGILState_Ensure();
    PyObject* r = PyObject_CallObject((PyObject*)arg, NULL);
    if (!r) PyErr_Print(); else Py_DECREF(r);
    PyGILState_Release(s);
    return NULL;
}
static PyObject* go(PyObject* self, PyObject* args) {
    PyObject* fn;
    if (!PyArg_ParseTuple(args, "O", &fn)) return NULL;
    pthread_t t;
    Py_INCREF(fn);
    Py_BEGIN_ALLOW_THREADS
    pthread_create(&t, NULL, worker, fn);
    pthread_join(t, NULL);
    Py_END_ALLOW_THREADS
    Py_DECREF(fn);
    Py_RETURN_NONE;
}
static PyMethodDef M[] = {{"go", go, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "rt_helper", NULL, -1, M};
PyMODINIT_FUNC PyInit_rt_helper(void) { return PyModule_Create(&D); }
"""

helper = compile_module_from_src(SRC, "rt_helper")


@triton.jit
def touch_kernel(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty(16, device=x.device, dtype=torch.float32)
        touch_kernel[(1,)](scratch, BLOCK=16)
        box = []

        def job():
            box.append(torch.relu(x))

        helper.go(job)
        return box[0]
