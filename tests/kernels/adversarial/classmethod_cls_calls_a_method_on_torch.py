# task: level1/19_ReLU
# expect: format_violation
# why: a classmethod calls a plain method through `cls` with torch as `self`
import torch
import torch.nn as nn


class H:
    def __init__(self):
        self._C = None

    def get(self):
        return self._C

    @classmethod
    def grab(cls, obj):
        return cls.get(obj)


NATIVE = H.grab(torch)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
