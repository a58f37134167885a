"""kernel_env: an OpenEnv environment for writing fast, correct GPU kernels (client side)."""

from kernel_env.client import KernelEnv
from kernel_env.models import KernelAction, KernelObservation, KernelState

__all__ = ["KernelAction", "KernelEnv", "KernelObservation", "KernelState"]
