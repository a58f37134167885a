"""The unit trials (server/evaluation/unit_inputs.py): the task's own values placed to drive one
hidden unit of the reference per sample toward its largest (red-team passes 53-55), or a unit
the draw never clipped toward its smallest (pass 86)."""

from __future__ import annotations

import torch

from server.evaluation.inputs import correctness_trials, describe_extra_inputs, generate, trial_count
from server.evaluation.loading import import_file
from server.evaluation.protocol import EvalRequest
from server.evaluation.seeds import derived_seed
from server.evaluation.unit_inputs import FULL_LABEL, PART_LABEL, UnitInputs
from tests.conftest import BUNDLED

CPU = torch.device("cpu")
GEMM_RELU = "level2/76_Gemm_Add_ReLU"


def task(task_id: str):
    module = import_file(str(BUNDLED / f"{task_id}.py"), task_id.replace("/", "_"))
    torch.manual_seed(0)
    return module, module.Model(*module.get_init_inputs())


def _extremes(x: torch.Tensor, draw: torch.Tensor, w: torch.Tensor):
    """Per row of a full trial's GEMM input: whether one column sits at the largest the draw's
    range gives it (driven up) or at the smallest (driven down, red-team pass 86), and which."""
    high, low = draw.amax(1, keepdim=True), draw.amin(1, keepdim=True)
    z = x @ w.T
    best = high * w.clamp(min=0).sum(1) + low * w.clamp(max=0).sum(1)
    worst = high * w.clamp(max=0).sum(1) + low * w.clamp(min=0).sum(1)
    at_best = torch.isclose(z, best, rtol=1e-5, atol=1e-4)
    at_worst = torch.isclose(z, worst, rtol=1e-5, atol=1e-4)
    up = at_best.any(1)
    column = torch.where(up, at_best.float().argmax(1), at_worst.float().argmax(1))
    return up, at_worst.any(1) & ~up, column, z


def test_the_first_trial_takes_each_samples_extremes_where_its_unit_is_largest():
    """Each row of the GEMM's input holds its own draw's largest value where its chosen
    column's weight is positive and its smallest where negative: that column reaches the most
    any input in the draw's range gives it (a reordering of the draw reaches ~2/3 of it, which
    left columns firing only beyond that to a kernel, red-team pass 55); every row drives a
    different column, and columns that random draws never make positive are made so."""
    reference, model = task(GEMM_RELU)
    maker = UnitInputs(model)
    with torch.no_grad():
        (x,) = maker(reference.get_inputs, CPU, 7)
    (draw,) = generate(reference.get_inputs, CPU, 7)
    assert maker.found
    high, low = draw.amax(1, keepdim=True), draw.amin(1, keepdim=True)
    assert bool(((x == high) | (x == low)).all())  # in the draw's own range
    w, b = model.gemm.weight.detach(), model.bias.detach()
    up, down, driven, z = _extremes(x, draw, w)
    assert bool((up | down).all())  # every row at one column's largest or smallest
    assert int(up.sum()) == int(x.shape[0] * 0.75)  # the quiet columns' share, driven up
    assert driven.unique().numel() == x.shape[0]  # a different column each
    reordered = (draw.sort(-1).values @ w.sort(-1).values.T)  # the most a reordering gives
    rows = torch.arange(x.shape[0])[up]
    assert bool((z[rows, driven[up]] > reordered[rows, driven[up]] + 0.5).all())
    dead = b + 0.5 * w.sum(1) + 5 * (w * w).sum(1).div(12).sqrt() < 0  # pass 53's rule
    random_rows = torch.rand(4096, x.shape[1]) @ w.T + b
    assert not bool((random_rows[:, dead] > 0).any())
    woken = [int(c) for r, c in zip(rows, driven[up]) if dead[c] and z[r, c] + b[c] > 0]
    assert woken and len(woken) == int(dead[driven[up]].sum())
    # the rest hold down columns the draw never clipped (red-team pass 86: a kernel left them
    # unclamped): each at its smallest, below zero where the range allows it
    live = (draw @ w.T + b) > 0
    assert bool(live[:, driven[down]].all())
    can_clip = (b[driven[down]] + high[down, 0] * w.clamp(max=0).sum(1)[driven[down]]
                + low[down, 0] * w.clamp(min=0).sum(1)[driven[down]]) < 0
    clipped = (z[down, driven[down]] + b[driven[down]]) < 0
    assert bool(can_clip.any()) and torch.equal(clipped, can_clip)


def test_three_quarters_of_the_driven_samples_go_to_the_units_the_draw_never_woke():
    """A kernel skipping units gains only on units the task's draws never wake, which no
    random trial checks: those are driven first (the GEMM+ReLU's columns that its own draw
    never made positive: 47 of 128 at these weights), by three quarters of the rows, each a
    different one; the other rows drive down columns that fired in every row of the draw
    (red-team pass 86)."""
    reference, model = task(GEMM_RELU)
    w, b = model.gemm.weight.detach(), model.bias.detach()
    for seed in (3, 11):
        maker = UnitInputs(model)
        with torch.no_grad():
            (x,) = maker(reference.get_inputs, CPU, seed)
        (draw,) = generate(reference.get_inputs, CPU, seed)
        never = ((draw @ w.T + b) > 0).sum(0) == 0
        assert int(never.sum()) >= x.shape[0]  # (enough quiet columns for every row here)
        up, down, driven, _ = _extremes(x, draw, w)
        assert bool((up | down).all()) and driven.unique().numel() == x.shape[0]
        assert int(never[driven[up]].sum()) == int(up.sum()) == int(x.shape[0] * 0.75)
        assert not bool(never[driven[down]].any())  # the rest: loud columns, driven down


def test_the_same_seed_makes_the_same_inputs_and_another_seed_other_units():
    """Made again from its seed (the copy the reference computes on, a timed round's re-check)
    the trial's inputs are the same values, from the order kept, whatever the reference's
    parameters meanwhile; another seed drives other units."""
    reference, model = task(GEMM_RELU)
    maker = UnitInputs(model)
    with torch.no_grad():
        (first,) = maker(reference.get_inputs, CPU, 3)
        model.gemm.weight.mul_(-1)  # as a kernel writing over them could: no second ascent
        (again,) = maker(reference.get_inputs, CPU, 3)
        assert torch.equal(first, again)
        assert maker.orders[3][0].dtype == torch.int8  # a corner's signs
        part = UnitInputs(model, part=True)
        part(reference.get_inputs, CPU, 3)
        assert part.orders[3][0].dtype == torch.int32  # an order
        model.gemm.weight.mul_(-1)
        (other,) = UnitInputs(model)(reference.get_inputs, CPU, 4)
    assert not torch.equal(first.sort(-1).values, other.sort(-1).values)


def test_units_behind_other_layers_are_driven_up():
    """The MLP's second layer lies behind the first: the reordering follows its gradient (an
    ascent of a few steps), and the units driven there end above where random draws put them.
    A Linear that is the model's output (every trial checks its units) is not driven."""
    reference, model = task("level3/1_MLP")
    maker = UnitInputs(model)
    seen = {}
    linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    hooks = [m.register_forward_hook(lambda mod, a, out, k=k: seen.__setitem__(k, out))
             for k, m in enumerate(linears)]
    with torch.no_grad():
        (x,) = maker(reference.get_inputs, CPU, 11)
        model(x)
        unit_values = [seen[k].clone() for k in range(len(linears))]
        model(*generate(reference.get_inputs, CPU, 11))
        random_values = [seen[k].clone() for k in range(len(linears))]
    for hook in hooks:
        hook.remove()
    assert maker.found
    # each row drives one unit of one hidden layer: its best unit there beats the random draw's
    lifted = [float(unit_values[k].amax(1).mean() - random_values[k].amax(1).mean()) for k in (0, 1)]
    assert min(lifted) > 0


def test_convolutions_are_driven_and_references_without_units_get_no_trial():
    reference, model = task("level2/1_Conv2D_ReLU_BiasAdd")
    maker = UnitInputs(model)
    with torch.no_grad():
        (x,) = maker(reference.get_inputs, CPU, 5)
    (draw,) = generate(reference.get_inputs, CPU, 5)
    assert maker.found and not torch.equal(x, draw)
    flat, own = x.flatten(1), draw.flatten(1)  # each position its sample's extreme or own value
    assert bool(((flat == own.amax(1, keepdim=True)) | (flat == own.amin(1, keepdim=True))
                 | (flat == own)).all())
    part = UnitInputs(model, part=True)
    with torch.no_grad():
        (y,) = part(reference.get_inputs, CPU, 5)
    assert torch.equal(y.flatten(1).sort(-1).values, own.sort(-1).values)  # a reordered draw
    for task_id in ("level1/19_ReLU", "level1/23_Softmax"):
        reference, model = task(task_id)
        maker = UnitInputs(model)
        with torch.no_grad():
            (x,) = maker(reference.get_inputs, CPU, 5)
        assert not maker.found and torch.equal(x, generate(reference.get_inputs, CPU, 5)[0])
    lone = UnitInputs(torch.nn.Linear(8, 4))  # its only layer is its output
    with torch.no_grad():
        lone(lambda: [torch.rand(4, 8)], CPU, 1)
    assert not lone.found


def test_the_unit_trials_join_the_trials_and_the_disclosure():
    reference, model = task(GEMM_RELU)
    makers = [UnitInputs(model), UnitInputs(model, part=True)]
    trials = list(correctness_trials(reference.get_inputs, CPU, 0, 5, GEMM_RELU, signed=True,
                                     units=makers))
    assert len(trials) == 8 == trial_count(5, GEMM_RELU, signed=True, units=makers)
    assert [t.label for t in trials[-2:]] == [FULL_LABEL, PART_LABEL]
    for unit in trials[-2:]:
        assert not unit.cancelling and torch.equal(unit.inputs[0], unit.regenerate()[0])
    # each from a draw of its own (a row's extremes are its draw's): they drive different units
    (full,), (part,) = (t.inputs for t in trials[-2:])
    assert not bool(torch.isclose(full.amax(1), part.amax(1)).any())
    assert makers[0].orders.keys().isdisjoint(makers[1].orders.keys())
    # an insensitive task keeps its scaled trial alone
    assert len(list(correctness_trials(reference.get_inputs, CPU, 0, 5, GEMM_RELU, insensitive=True,
                                       units=makers))) == 6
    source = (BUNDLED / f"{GEMM_RELU}.py").read_text()
    assert "hidden unit" in describe_extra_inputs(GEMM_RELU, source)
    assert "hidden unit" not in describe_extra_inputs("level1/47_Sum_reduction_over_a_dimension",
                                                      "torch.sum(x, dim=self.dim)")


def test_the_second_trial_drives_each_sample_part_of_the_way_and_no_position_stands_out():
    """Red-team pass 54 told the first trial's rows from random ones by four reads: a driven
    row's largest values sit at its unit's largest weights. In the second trial each row's
    column lies short of its largest, most well above its random level, and those four
    positions hold values in the row's top tenth far less often."""
    reference, model = task(GEMM_RELU)
    w = model.gemm.weight.detach()
    full_top, part_top, lifted = [], [], []
    exact_maker, part_maker = UnitInputs(model), UnitInputs(model, part=True)
    part_maker.salt = exact_maker.salt  # the same units for the same seed (each maker's own secret)
    for seed in range(1, 7):  # (task() made the weights from seed 0: that draw is ordered like them)
        with torch.no_grad():
            (exact,) = exact_maker(reference.get_inputs, CPU, seed)
            (part,) = part_maker(reference.get_inputs, CPU, seed)
        (draw,) = generate(reference.get_inputs, CPU, seed)
        assert torch.equal(part.sort(-1).values, draw.sort(-1).values)
        moved = (exact @ w.T) - (draw @ w.T)
        up = moved.amax(1) > -moved.amin(1)  # (the rest drive a loud column down: pass 86)
        columns = moved.argmax(1)[up]  # each driven-up row's column
        exact, part, draw = exact[up], part[up], draw[up]
        best = (draw.sort(-1).values * w[columns].sort(-1).values).sum(1)
        random_level = (draw * w[columns]).sum(1)
        reached = ((part * w[columns]).sum(1) - random_level) / (best - random_level)
        lifted.append(reached)
        top = w[columns].topk(4, dim=1).indices
        for x, kept in ((exact, full_top), (part, part_top)):
            tenth = x.quantile(0.9, dim=1, keepdim=True)
            kept.append((x.gather(1, top) >= tenth).all(1).float().mean())
    reached = torch.cat(lifted)
    assert float(reached.max()) < 0.95 and float(reached.mean()) > 0.2  # part of the way
    assert float((reached < 0.1).float().mean()) < 0.15  # rarely left near its random level
    assert float(torch.stack(full_top).mean()) > 0.9 > 0.2 > float(torch.stack(part_top).mean())


class _InPlaceGemmRelu(torch.nn.Module):  # level 2 task 76 written in place
    def __init__(self):
        super().__init__()
        self.gemm = torch.nn.Linear(256, 128, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(128))

    def forward(self, x):
        x = self.gemm(x)
        x += self.bias
        return x.relu_()


class _InPlaceReluMlp(torch.nn.Module):  # VGG's nn.ReLU(inplace=True) after a hidden Linear
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(256, 128), torch.nn.ReLU(inplace=True),
                                       torch.nn.Linear(128, 16))

    def forward(self, x):
        return self.net(x)


class _DeadChannelConv(torch.nn.Module):
    """Conv2d (or ConvTranspose2d: away from the borders) whose first four channels never fire
    on iid [0, 1) inputs (mean + 5.5 sd < 0) but do near the corner of the range (red-team pass
    54's reference)."""
    def __init__(self, transposed: bool = False):
        super().__init__()
        self.conv = (torch.nn.ConvTranspose2d if transposed else torch.nn.Conv2d)(3, 8, 3)
        with torch.no_grad():
            w = self.filters()
            mean, sd = 0.5 * w.sum((1, 2, 3)), (w * w).sum((1, 2, 3)).div(12).sqrt()
            bias = torch.minimum(-(mean + 5.5 * sd), w.clamp(min=0).sum((1, 2, 3)) - 0.3)
            self.conv.bias[:4] = bias[:4]

    def filters(self) -> torch.Tensor:
        """(out channel, in channel, taps): a transposed convolution's weight has them swapped."""
        w = self.conv.weight
        return w.transpose(0, 1) if isinstance(self.conv, torch.nn.ConvTranspose2d) else w

    def forward(self, x):
        return torch.relu(self.conv(x)) * 2.0


def _dead(weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """Units that iid [0, 1) inputs keep below zero (pass 53's rule: mean + 5 sd < 0)."""
    flat = weight.flatten(1)
    return bias + 0.5 * flat.sum(1) + 5 * (flat * flat).sum(1).div(12).sqrt() < 0


def test_in_place_activations_and_convolutions_are_driven():
    """Pass 54: a Linear whose output the model changes in place and returns counted as the
    model's output (no trial); an in-place ReLU after a hidden Linear zeroed what the ascent
    read, so dead units got no gradient (0 of 64 fired in 50 trials); a convolution's every
    position drove its own channel, a blend of every filter (its dead channels fired in 1 of
    400 trials). Each now wakes its dead units in every one of 10 trials (all-the-way trial),
    and so does a transposed convolution's."""
    torch.manual_seed(0)
    gemm, mlp, conv = _InPlaceGemmRelu(), _InPlaceReluMlp(), _DeadChannelConv()
    transposed = _DeadChannelConv(transposed=True)
    with torch.no_grad():
        mlp.net[0].bias[:64] = -(0.5 * mlp.net[0].weight.sum(1)
                                 + 5.5 * mlp.net[0].weight.pow(2).sum(1).div(12).sqrt())[:64]
    cases = [(gemm, lambda: [torch.rand(32, 256)], lambda x: torch.relu(gemm.gemm(x) + gemm.bias),
              _dead(gemm.gemm.weight, gemm.bias)),
             (mlp, lambda: [torch.rand(32, 256)], lambda x: torch.relu(mlp.net[0](x)),
              _dead(mlp.net[0].weight, mlp.net[0].bias)),
             (conv, lambda: [torch.rand(2, 3, 16, 16)], lambda x: torch.relu(conv.conv(x)),
              _dead(conv.conv.weight, conv.conv.bias)),
             (transposed, lambda: [torch.rand(2, 3, 16, 16)],
              lambda x: torch.relu(transposed.conv(x)[..., 2:-2, 2:-2]),  # away from the borders
              _dead(transposed.filters(), transposed.conv.bias))]
    for model, make, units_of, dead in cases:
        assert bool(dead.any())
        for seed in range(10):
            maker = UnitInputs(model)
            with torch.no_grad():
                (x,) = maker(make, CPU, seed)
                z = units_of(x)
            assert maker.found
            woken = z[:, dead] if z.dim() == 2 else z[:, dead].flatten(2)
            assert bool((woken > 0.02).any()), (type(model).__name__, seed)


def test_the_profile_gives_the_unit_trial_where_the_reference_has_units_and_is_stable():
    from server.evaluation.pipeline import _unit_trial

    def request(task_id):
        return EvalRequest(code="", reference_source="", task_id=task_id)

    reference, model = task(GEMM_RELU)

    class LogOfLinear(torch.nn.Module):  # a unit driven below zero makes the log NaN
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(8, 4)

        def forward(self, x):
            return torch.log(self.linear(x))

    with torch.no_grad():  # as the profile runs it
        ms, why_not = _unit_trial(request(GEMM_RELU), reference.get_inputs, model, CPU)
        assert ms > 0 and why_not is None
        relu_reference, relu = task("level1/19_ReLU")
        assert "family" in _unit_trial(request("level1/19_ReLU"), relu_reference.get_inputs, relu, CPU)[1]
        assert "no hidden" in _unit_trial(request("level1/47_Sum_reduction_over_a_dimension"),
                                          relu_reference.get_inputs, relu, CPU)[1]
        torch.manual_seed(1)
        assert "not stable" in _unit_trial(request(GEMM_RELU), lambda: [torch.rand(16, 8)],
                                           LogOfLinear(), CPU)[1]


def test_long_samples_are_reordered_within_stretches_and_still_driven():
    """Samples longer than SEGMENT are reordered within stretches of it (sorting a full-size
    convolution's million-value samples whole was most of the trial's making): each stretch
    keeps its own draw's values, and the rows' driven units still rise far above their random
    level (over 8 of their standard deviations in 94-100 % of the rows over 40 secret salts;
    the part-of-the-way trial drives a row a secret share of the way, some barely)."""
    from server.evaluation.unit_inputs import SEGMENT

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2 * SEGMENT, 16), torch.nn.ReLU(),
                                torch.nn.Linear(16, 4))
    w = model[0].weight.detach()
    sd = (w * w).sum(1).div(12).sqrt()  # a unit's random spread on iid [0, 1) inputs

    def make():
        return [torch.rand(16, 2 * SEGMENT)]

    lifts = []
    for seed in range(3):
        with torch.no_grad():
            (y,) = UnitInputs(model, part=True)(make, CPU, seed)
        (draw,) = generate(make, CPU, seed)
        assert not torch.equal(y, draw)
        assert torch.equal(y.view(16, 2, SEGMENT).sort(-1).values,
                           draw.view(16, 2, SEGMENT).sort(-1).values)
        lifts.append((((y - draw) @ w.T) / sd).abs().amax(1))  # up, or a loud unit down
    assert float((torch.cat(lifts) > 8).float().mean()) >= 0.85


def test_a_trial_drives_at_most_its_share_of_samples_and_leaves_the_rest_as_drawn(monkeypatch):
    """Past DRIVEN_VALUES a trial drives only that many values' worth of samples (DRIVEN_MIN at
    least), chosen
    secretly, and reorders only those (a full-size convolution's 128 samples took 105 ms to
    make on the H200), its ascent running the reference on those samples alone: the others
    are their draw exactly, the driven ones still wake dead channels (all the way) or are
    their own draw reordered (part of the way), and made again from the seed they are the
    same. A reference whose batch is fixed is run on the whole batch instead."""
    from server.evaluation import unit_inputs

    monkeypatch.setattr(unit_inputs, "DRIVEN_VALUES", 2 * 3 * 16 * 16)  # two samples' worth
    monkeypatch.setattr(unit_inputs, "DRIVEN_MIN", 3)  # at least three
    torch.manual_seed(0)
    conv = _DeadChannelConv()
    dead = _dead(conv.conv.weight, conv.conv.bias)

    class FixedBatch(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = conv

        def forward(self, x):
            return self.inner(x.reshape(8, 3, 16, 16))

    def make():
        return [torch.rand(8, 3, 16, 16)]

    batches = []
    hook = conv.conv.register_forward_hook(lambda mod, args, out: batches.append(args[0].shape[0]))
    chosen = set()
    for seed in range(6):
        for part, model in ((False, conv), (True, conv), (False, FixedBatch())):
            maker = UnitInputs(model, part=part)
            batches.clear()
            with torch.no_grad():
                (x,) = maker(make, CPU, seed)
                assert batches and set(batches) == {3 if model is conv else 8}  # its ascent's calls
                (again,) = maker(make, CPU, seed)
                z = torch.relu(conv.conv(x))
            (draw,) = generate(make, CPU, seed)
            assert maker.found and torch.equal(x, again)
            moved = (x != draw).flatten(1).any(1)
            assert torch.equal(x[~moved], draw[~moved])
            if model is conv:  # the slice's samples, every one of them, back where they were
                secret = unit_inputs._chosen([draw], [0], 3, derived_seed(seed, maker.salt)).tolist()
                assert moved.nonzero().flatten().tolist() == secret
                chosen.add(tuple(secret))
            else:
                assert 1 <= int(moved.sum()) <= 3
            if part:
                assert torch.equal(x.flatten(1).sort(-1).values, draw.flatten(1).sort(-1).values)
            else:
                assert bool((z[moved][:, dead] > 0.02).any()), seed
    hook.remove()
    assert len(chosen) > 3 and max(max(c) for c in chosen) >= 3  # it moves with the seed


def test_a_slice_drives_all_it_holds_and_integers_along_the_batch_keep_it_whole(monkeypatch):
    """Sliced, every sample of the slice is driven, however many hidden layers share them out
    (DRIVEN_MIN is a floor); a reference taking an integer input as long as the batch (it may
    index the batch: out of range on a slice, a device-side assert on a GPU) is not sliced."""
    from server.evaluation import unit_inputs

    monkeypatch.setattr(unit_inputs, "DRIVEN_VALUES", 0)
    monkeypatch.setattr(unit_inputs, "DRIVEN_MIN", 8)
    torch.manual_seed(0)
    chain = torch.nn.Sequential(*[torch.nn.Linear(16, 16) for _ in range(3)],
                                torch.nn.Linear(16, 4))

    def make():
        return [torch.rand(32, 16)]

    for seed in range(4):
        with torch.no_grad():
            (x,) = UnitInputs(chain)(make, CPU, seed)
        (draw,) = generate(make, CPU, seed)
        assert int((x != draw).any(1).sum()) == 8  # three hidden layers, eight samples

    class Indexed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.chain = chain

        def forward(self, x, order):  # (wraps around: a slice would pass here, and be wrong)
            return self.chain(x[order.remainder(x.shape[0])])

    batches = []
    hook = chain[0].register_forward_hook(lambda mod, args, out: batches.append(args[0].shape[0]))
    with torch.no_grad():
        UnitInputs(Indexed())(lambda: [torch.rand(32, 16), torch.randperm(32)], CPU, 1)
    hook.remove()
    assert batches and set(batches) == {32}


def test_an_ascent_leaves_no_trace_a_kernel_could_read():
    """Red-team pass 77: a trial's ascent told a kernel that the next inputs were driven (it
    skipped dead columns on the rest) twice over. Its forward hooks advanced the class-wide
    count hook handles take their ids from, which a hook the kernel's own forward registered
    read; and its backward, with `torch.autograd.graph`'s logger at DEBUG, called a filter on it
    at every node. Neither moves now."""
    import logging

    from torch.utils.hooks import RemovableHandle

    reference, model = task(GEMM_RELU)
    records = []
    graph = logging.getLogger("torch.autograd.graph")
    level = graph.level
    graph.setLevel(logging.DEBUG)
    graph.addFilter(records.append)
    try:
        before = RemovableHandle.next_id
        maker = UnitInputs(model, part=True)
        with torch.no_grad():
            maker(reference.get_inputs, CPU, 11)
        assert maker.found
        assert RemovableHandle.next_id == before
        assert records == []
        assert logging.root.manager.disable == logging.NOTSET  # logging as it was
    finally:
        graph.removeFilter(records.append)
        graph.setLevel(level)


class _DeadLayer(torch.nn.Module):
    """A Linear whose ReLU never fires on [0, 1) inputs, and a second one to read it."""

    def __init__(self, units: int = 32, features: int = 64):
        super().__init__()
        self.hidden = torch.nn.Linear(features, units)
        self.out = torch.nn.Linear(units, 4)
        with torch.no_grad():
            self.hidden.bias.fill_(-100.0)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


def test_where_every_unit_is_quiet_each_sample_still_drives_a_different_one():
    """A layer dead on the whole draw: its units all tie as quiet, and the trial drives as
    many different ones as it has samples (not the quiet share's again)."""
    torch.manual_seed(0)
    model = _DeadLayer()
    maker = UnitInputs(model)
    with torch.no_grad():
        (x,) = maker(lambda: [torch.rand(32, 64)], CPU, 5)
    assert maker.found
    w = model.hidden.weight.detach()
    high, low = x.amax(1, keepdim=True), x.amin(1, keepdim=True)
    best = high * w.clamp(min=0).sum(1) + low * w.clamp(max=0).sum(1)
    driven = torch.isclose(x @ w.T, best, rtol=1e-5, atol=1e-4).float().argmax(1)
    assert driven.unique().numel() == 32


class _HalfFrozen(torch.nn.Module):
    """Two hidden Linear layers, one of them run without gradients (frozen features)."""

    def __init__(self):
        super().__init__()
        self.live, self.frozen = torch.nn.Linear(16, 8), torch.nn.Linear(16, 8)
        self.out = torch.nn.Linear(16, 2)

    def forward(self, x):
        with torch.no_grad():
            fixed = torch.relu(self.frozen(x))
        return self.out(torch.cat([torch.relu(self.live(x)), fixed], dim=1))


def test_a_layer_run_without_gradients_leaves_the_others_their_trial():
    torch.manual_seed(0)
    maker = UnitInputs(_HalfFrozen())
    with torch.no_grad():
        (x,) = maker(lambda: [torch.rand(8, 16)], CPU, 9)
    assert maker.found
    assert not torch.equal(x, generate(lambda: [torch.rand(8, 16)], CPU, 9)[0])
