# more cases of the output-dtype family: pytorch#197091 (ldexp), #189518 (cumsum dtype= dropped), int16/int32 bmm, any/all twins
import torch
print("torch", torch.__version__)
torch.manual_seed(0)
cases = {
  "ldexp bool x fp16 (#197091)": (lambda a, b: torch.ldexp(a, b), (torch.ones(3, 4, dtype=torch.bool), torch.randn(3, 4).half())),
  "ldexp fp16 x fp32 (#197091)": (lambda a, b: torch.ldexp(a, b), (torch.randn(3, 4).half(), torch.randn(3, 4))),
  "cumsum(full bool, dtype=bf16) (#189518)": (lambda x: torch.ones((2, 4, 4), dtype=torch.bool).cumsum(1, dtype=torch.bfloat16) + x, (torch.zeros((), dtype=torch.bfloat16),)),
  "bmm int16": (lambda a, b: a @ b, (torch.full((1, 1, 4), 10000, dtype=torch.int16), torch.full((1, 4, 2), 3, dtype=torch.int16))),
  "bmm int32": (lambda a, b: a @ b, (torch.full((1, 1, 4), 2**30, dtype=torch.int32), torch.full((1, 4, 2), 3, dtype=torch.int32))),
  "bmm uint8": (lambda a, b: a @ b, (torch.full((1, 1, 4), 100, dtype=torch.uint8), torch.full((1, 4, 2), 3, dtype=torch.uint8))),
  "bmm float32 (twin)": (lambda a, b: a @ b, (torch.randn(1, 1, 4), torch.randn(1, 4, 2))),
  "mm int8 2-D": (lambda a, b: a @ b, (torch.full((1, 4), 100, dtype=torch.int8), torch.full((4, 2), 3, dtype=torch.int8))),
  "any bool (twin)": (lambda x: torch.any(x), (torch.tensor([0, 1], dtype=torch.bool),)),
  "amax uint8 (twin)": (lambda x: x.amax(), (torch.tensor([0, 3], dtype=torch.uint8),)),
}
for n, (f, args) in cases.items():
    torch._dynamo.reset()
    try:
        e = f(*args)
    except Exception as ex:
        print(n, "eager error", type(ex).__name__); continue
    c = torch.compile(f, dynamic=False)(*args)
    same_val = torch.equal(e.double(), c.double())
    print(f"{n}: eager {e.dtype} | compiled {c.dtype} | values {'equal' if same_val else 'DIFFER'}",
          "MISMATCH" if (e.dtype != c.dtype or not same_val) else "match")
