"""The task store: ids, the deterministic split, seed -> task, the bundled suite's coverage."""

from __future__ import annotations

import pytest

from server.evaluation.inputs import NORMALIZED_TASKS

# The spec's specially-checked activations; the bundled suite must hold each.
SPEC_ACTIVATIONS = {"level1/19_ReLU", "level1/20_LeakyReLU", "level1/31_ELU", "level1/29_Softplus",
                    "level1/88_MinGPTNewGelu"}
from server.tasks import TaskStore, UnknownTask
from server.tasks.store import split_of
from tests.conftest import BUNDLED


@pytest.fixture(scope="module")
def store():
    return TaskStore(BUNDLED)


def test_bundled_suite_covers_every_specially_checked_task(store):
    assert SPEC_ACTIVATIONS | NORMALIZED_TASKS <= set(store.ids())
    levels = {t.split("/")[0] for t in store.ids()}
    assert levels == {"level1", "level2", "level3"}
    assert 20 <= len(store.ids()) <= 40


def test_bundled_tasks_are_kernelbench_format(store):
    for task_id in store.ids():
        source = store.get(task_id).source()
        for needle in ("class Model(nn.Module)", "def get_inputs", "def get_init_inputs"):
            assert needle in source, (task_id, needle)


def test_splits_are_disjoint_complete_and_stable(store):
    train, evals = set(store.ids("train")), set(store.ids("eval"))
    assert train and evals and not train & evals and train | evals == set(store.ids())
    assert all(split_of(t) == "eval" for t in evals)  # depends on the id alone


def test_seed_is_deterministic_within_a_split(store):
    for split in ("train", "eval"):
        picks = [store.pick(split, seed).task_id for seed in range(10)]
        assert picks == [store.pick(split, seed).task_id for seed in range(10)]
        assert set(picks) <= set(store.ids(split))


def test_unknown_ids_and_splits_say_what_is_valid(store):
    with pytest.raises(UnknownTask, match="Did you mean: level1/19_ReLU"):
        store.get("19_ReLU")
    with pytest.raises(UnknownTask, match="valid: train, eval"):
        store.ids("test")


def test_kernelbench_layout_is_read(tmp_path):
    (tmp_path / "level1").mkdir()
    (tmp_path / "level4").mkdir()  # needs the hub: not served
    (tmp_path / "level1" / "19_ReLU.py").write_text((BUNDLED / "level1" / "19_ReLU.py").read_text())
    (tmp_path / "level4" / "1_Hub.py").write_text("x = 1\n")
    assert TaskStore(tmp_path).ids() == ["level1/19_ReLU"]
