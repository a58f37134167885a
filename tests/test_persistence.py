"""What one evaluation can leave behind for a later one (red-team pass 50). Every evaluation
process of a worker runs as one user, so each can write the scratch folders of the spares waiting
beside it: a submission that got code past the rules planted a .pyc there, and the next
evaluation on that worker ran it as the task's reference."""

import importlib.util
import marshal
import sys

import pytest

from server.evaluation.loading import load_reference
from server.evaluation.stages import StageFailure
from server.evaluation.static_check import static_check
from tests.conftest import KERNELS, ROOT

RELU = (KERNELS / "legit" / "relu.py").read_text()
REFERENCE = (ROOT / "server" / "tasks" / "bundled" / "level1" / "19_ReLU.py").read_text()


def _plant_unchecked_pyc(folder, code_text: str) -> None:
    """An unchecked hash-based .pyc (PEP 552): Python runs it without reading the source."""
    code = compile(code_text, "reference.py", "exec")
    data = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code)
    cache = folder / "__pycache__"
    cache.mkdir()
    (cache / f"reference.{sys.implementation.cache_tag}.pyc").write_bytes(data)


def test_the_reference_is_compiled_from_its_text_not_from_a_planted_bytecode_cache(tmp_path):
    _plant_unchecked_pyc(tmp_path, "PLANTED = True\nclass Model:\n    pass\n")
    module = load_reference(REFERENCE, str(tmp_path))
    assert not hasattr(module, "PLANTED")
    assert module.get_inputs()[0].shape == module.get_inputs()[0].shape  # the task's own code
    assert "kernel_env_reference" not in sys.modules


@pytest.mark.parametrize("line", [
    "import torch.utils.hipify.hipify_python as hp\nhp.file_specific_replacement('f', 'a', 'b')",
    "import torch\ntorch.utils.hipify.hipify_python.hipify('a', output_directory='b')",
    "import triton.tools.compile as tc\ntc.compile_kernel(None)",
    "import torch.utils.show_pickle as sp\nsp.main(['show_pickle', 'other.pkl'])",
    "import torch.utils.model_dump as md\nmd.get_model_info('other.pt')",
    "import torch.utils.cpp_extension as ce\nce.remove_extension_h_precompiler_headers()",
    "from triton.tools.link import main",
    "import torch\ntorch.cuda.gds.GdsFile('f', 577)",
    "import torch\ntorch.onnx.export(None, (), 'f')",
    "import torch\ntorch.cuda.tunable.set_filename('f')",
])
def test_library_functions_that_write_copy_or_run_files_are_refused(line):
    """The audit hook charges a file action to the first library frame, so a library function
    that writes, copies or runs files for its caller is refused by name."""
    source = RELU.replace("import triton.language as tl\n", "import triton.language as tl\n" + line + "\n", 1)
    with pytest.raises(StageFailure) as refused:
        static_check(source, "triton")
    assert refused.value.error_class == "format_violation"
    assert "files" in refused.value.feedback


@pytest.mark.parametrize("line", [
    "import torch.backends.xeon.run_cpu as rc\nrc.main(rc.create_args())",
    "from torch.backends.xeon.run_cpu import main",
    "import torch.numa.binding as nb\nnb.maybe_wrap_command_with_numa_bindings",
])
def test_process_launchers_are_refused(line):
    """run_cpu.main starts any Python file or, with no_python, any program with any arguments
    (`sh -c <text>`), outside every guard (found after red-team pass 50)."""
    source = RELU.replace("import triton.language as tl\n", "import triton.language as tl\n" + line + "\n", 1)
    with pytest.raises(StageFailure, match="processes"):
        static_check(source, "triton")


@pytest.mark.parametrize("line", [
    "import torch.utils.bundled_inputs as bi\nbi.augment_model_with_bundled_inputs",
    "import torch.utils.mobile_optimizer as mo\nmo.optimize_for_mobile",
])
def test_torchscript_builders_that_compile_source_strings_are_refused(line):
    source = RELU.replace("import triton.language as tl\n", "import triton.language as tl\n" + line + "\n", 1)
    with pytest.raises(StageFailure, match="generated code"):
        static_check(source, "triton")


def test_triton_tools_tensor_descriptors_stay_allowed():
    assert static_check((KERNELS / "legit" / "relu_tensor_descriptor.py").read_text(), "triton").kernels
