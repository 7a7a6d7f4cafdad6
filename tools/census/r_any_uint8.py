# pytorch#198081: torch.any on uint8 returns bool under inductor (eager uint8); downstream arithmetic changes
import torch
print("torch", torch.__version__)
x = torch.tensor([[0, 3], [0, 0]], dtype=torch.uint8)
cases = {"any(x)": lambda x: torch.any(x), "all(x)": lambda x: torch.all(x),
         "any(x)*200+100": lambda x: torch.any(x) * 200 + 100, "x.any(0)": lambda x: x.any(0)}
for n, f in cases.items():
    torch._dynamo.reset()
    e = f(x); c = torch.compile(f)(x)
    print(n, "eager", e.tolist(), e.dtype, "| compiled", c.tolist(), c.dtype,
          "MISMATCH" if (e.dtype != c.dtype or e.tolist() != c.tolist()) else "match")
