"""A stand-in for torch and torch_rbln, for tests/e2e/capture_tests.py: just what the generated
programs of profile_matmul and the compiled-MLP scenarios call. Its export_chrome_trace copies
$FAKE_TRACE (a simulated trace, which is the real format), so capture.py -> rblnsim compare runs
end to end without a card."""
import os

FAKE_MODULES = {
    "torch/__init__.py": """
import contextlib
from . import nn, profiler, rbln
__version__ = "2.9.0+fake"
float16 = bfloat16 = float32 = int64 = bool = float8_e4m3fn = object()
class Tensor:
    def __init__(self, shape):
        self.shape = tuple(shape)
    def __matmul__(self, other):
        return Tensor(self.shape[:-1] + other.shape[-1:])
    def cpu(self):
        return self
def randn(shape, dtype=None, device=None):
    assert device == "rbln", device
    return Tensor(shape)
def mm(a, b):
    return a @ b
def inference_mode():
    return contextlib.nullcontext()
def compile(module, backend=None):
    assert backend == "rbln", backend
    return module
""",
    "torch/nn/__init__.py": """
from . import functional
class Module:
    def register_buffer(self, name, tensor, persistent=True):
        setattr(self, name, tensor)
    def __call__(self, *args):
        return self.forward(*args)
""",
    "torch/nn/functional.py": """
import torch
def linear(x, weight, bias=None):
    return torch.Tensor(x.shape[:-1] + weight.shape[:1])
def relu(x):
    return x
""",
    "torch/profiler/__init__.py": """
import os, shutil
class ProfilerActivity:
    CPU, PrivateUse1 = "cpu", "privateuse1"
class DeviceType:
    PrivateUse1 = "privateuse1"
class profile:
    def __init__(self, activities, record_shapes=False):
        assert ProfilerActivity.PrivateUse1 in activities
        assert record_shapes, "fallback reasons need record_shapes=True"
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
    def key_averages(self):
        return self
    def table(self, sort_by=None, row_limit=None):
        return "(fake table)"
    def events(self):
        return []
    def export_chrome_trace(self, path):
        shutil.copyfile(os.environ["FAKE_TRACE"], path)
""",
    "torch/rbln.py": """
class _Properties:
    name = "RBLN-CR13"
def synchronize():
    pass
def get_device_properties(index):
    return _Properties()
""",
    "torch_rbln/__init__.py": '__version__ = "0.12.0+fake"\n',
}


def write_modules(directory, properties_fail=False):
    """Writes the fake packages under |directory| (put it on PYTHONPATH). |properties_fail|: the
    card query raises, as it does when the runtime lost the device after the trace was written."""
    modules = dict(FAKE_MODULES)
    if properties_fail:
        modules["torch/rbln.py"] = modules["torch/rbln.py"].replace(
            "    return _Properties()", '    raise RuntimeError("no RBLN device 0")')
    for path, text in modules.items():
        target = os.path.join(directory, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text.lstrip("\n"))
