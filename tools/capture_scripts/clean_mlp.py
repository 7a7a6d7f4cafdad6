# A small classifier trained for a few steps with the whole step compiled (forward, backward and the
# AdamW update): float32 throughout, no Python scalar that changes between calls, no in-place aliasing.
# A clean program: the analyzer must give no warning and no error on it.
# usage: clean_mlp.py [cpu|cuda]   (default cpu)
# Prints the loss per step for eager and compiled and the max abs difference of the final weights.
import sys

import torch
import torch.nn.functional as F

dev = sys.argv[1] if len(sys.argv) > 1 else "cpu"


def make():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.LayerNorm(64), torch.nn.GELU(),
                                torch.nn.Linear(64, 10)).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, capturable=dev == "cuda")
    return model, opt


def train_step(model, opt, x, y):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss.detach()


torch.manual_seed(1)
data = [(torch.randn(16, 32, device=dev), torch.randint(0, 10, (16,), device=dev)) for _ in range(3)]
results = {}
for mode in ("eager", "compiled"):
    model, opt = make()
    step = torch.compile(train_step) if mode == "compiled" else train_step
    losses = [step(model, opt, x, y).item() for x, y in data]
    results[mode] = (losses, [p.detach().clone() for p in model.parameters()])
print("torch", torch.__version__, "dev", dev)
print("losses eager   ", " ".join("%.6f" % v for v in results["eager"][0]))
print("losses compiled", " ".join("%.6f" % v for v in results["compiled"][0]))
diff = max((a - b).abs().max().item() for a, b in zip(results["eager"][1], results["compiled"][1]))
print("weights max abs eager-vs-compiled %.4e" % diff)
