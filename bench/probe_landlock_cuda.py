import os, sys, tempfile
sys.path.insert(0, os.getcwd())
from server.evaluation import confinement
d = tempfile.mkdtemp()
for order in ("confine-first", "context-first"):
    pid = os.fork()
    if pid == 0:
        os.chdir(d)
        import torch, triton
        try:
            if order == "confine-first":
                print(order, confinement.confine([d, triton.knobs.cache.dir, "/dev"]), flush=True)
            torch.cuda.synchronize()
            if order == "context-first":
                print(order, confinement.confine([d, triton.knobs.cache.dir, "/dev"]), flush=True)
            x = torch.randn(1 << 20, device="cuda"); print(order, "ok", float((x * 2).sum()) != 0, flush=True)
        except Exception as e:
            print(order, "FAILED", repr(e)[:300], flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
print("dev nodes:", sorted(n for n in os.listdir("/dev") if n.startswith("nvidia")))
import shutil; print("nvidia-modprobe:", shutil.which("nvidia-modprobe"))
