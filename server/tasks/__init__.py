"""Tasks: KernelBench-format files found on disk, split deterministically into train and eval."""

from .store import SPLITS, Task, TaskStore, UnknownTask, shown

__all__ = ["SPLITS", "Task", "TaskStore", "UnknownTask", "shown"]
