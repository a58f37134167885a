import time, sys, os
sys.path.insert(0, os.getcwd())
t=time.perf_counter()
import torch, triton
from server.evaluation import pipeline
from server.evaluation.pipeline import *  # noqa
from server.evaluation.inputs import generate
from server.evaluation.correctness import *  # noqa
from server.evaluation.timing import time_forward, ramped_cycles_per_s, settle_tail_ms, spin_cycles_per_s
from server.evaluation import fused_compare
from server.evaluation.timed_inputs import TimedOutputSampler
import server.evaluation.pipeline as P
print(f"imports {time.perf_counter()-t:.3f}")
def step(name, f):
    t=time.perf_counter(); f(); torch.cuda.synchronize(); print(f"{name:<28}{1e3*(time.perf_counter()-t):8.1f} ms", flush=True)
d=torch.device("cuda")
for rnd in range(2):
    print("round", rnd)
    step("context", lambda: torch.cuda.synchronize(d))
    g={}
    step("generate", lambda: g.update(x=generate(lambda: [torch.rand(64, 64)], d, 0)[0]))
    x=g["x"]; y=x.clone()
    step("clone_inputs", lambda: P.clone_inputs([x]))
    step("check_inputs_unchanged", lambda: P.check_inputs_unchanged([x],[y],"p"))
    step("check_output", lambda: P.check_output(y, x, atol=1e-2, rtol=1e-2))
    step("check_deterministic", lambda: P.check_deterministic(x, y, atol=1e-2, rtol=1e-2, label="p"))
    step("spin_cycles_per_s", lambda: spin_cycles_per_s(d))
    step("ramped_cycles_per_s", lambda: ramped_cycles_per_s(d))
    step("settle_tail_ms", lambda: settle_tail_ms(d, 100000))
    step("time_forward(clone)", lambda: time_forward(lambda: y.clone(), d))
    step("fused_compare", lambda: fused_compare.max_diff_and_excess(y, x, 0.01))
    step("aminmax/sum/norm", lambda: (torch.aminmax(x), x.sum(dim=-1), torch.linalg.vector_norm(x)))
    def samp():
        s = TimedOutputSampler(lambda: [torch.rand(512, 8)], [], d, 0, replayable=True, perturbing=True, row_inputs=[0])
        for _ in range(3):
            s.refresh(); s.observe(s.inputs[0]*2)
        for c in s.checks():
            if c.positions is not None: P.gather(c.inputs[0], c.positions[0])
    step("sampler", samp)
    t=time.perf_counter(); P.prewarm(d); torch.cuda.synchronize(); print(f"whole prewarm {1e3*(time.perf_counter()-t):.1f} ms")
