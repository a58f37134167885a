"""How many driven samples the part-of-the-way unit trial needs to wake a dead unit.

    python3 bench/unit_wake.py [--trials 40]

The unit trials drive at most max(DRIVEN_MIN, DRIVEN_VALUES // (values a sample)) samples
(server/evaluation/unit_inputs.py). All the way, every driven sample wakes the dead channels of
the tests' dead-channel convolution (tests/test_unit_inputs.py: 3 input channels, 3x3 taps, four
of eight channels below zero on iid [0, 1) inputs by 5.5 sd); part of the way each sample's share
of noise is secret, and only some samples go far enough. Per number of driven samples (of 16,
64x64 each), this prints in how many trials some dead channel fires and how many samples do.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402

from server.evaluation import unit_inputs  # noqa: E402
from tests.test_unit_inputs import _dead, _DeadChannelConv  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=40)
    args = parser.parse_args()
    torch.manual_seed(0)
    conv = _DeadChannelConv()
    dead = _dead(conv.conv.weight, conv.conv.bias)

    def make():
        return [torch.rand(16, 3, 64, 64)]

    unit_inputs.DRIVEN_MIN = 1
    for driven in (1, 2, 4, 8, 16):
        unit_inputs.DRIVEN_VALUES = driven * 3 * 64 * 64
        woken = []
        for seed in range(args.trials):
            with torch.no_grad():
                (x,) = unit_inputs.UnitInputs(conv, part=True)(make, torch.device("cpu"), seed)
                z = torch.relu(conv.conv(x))
            woken.append(int((z[:, dead] > 0.02).flatten(1).any(1).sum()))
        fired = sum(w > 0 for w in woken)
        print(f"{driven:2d} of 16 samples driven: a dead channel fired in {fired} of "
              f"{args.trials} trials, in {sum(woken) / len(woken):.2f} samples a trial")


if __name__ == "__main__":
    main()
