# Family "std::abs integer promotion in C++ kernels": pytorch#187018 (uint8, cat+sum) and the int8/int16 minimum.
# eager abs() stays in the tensor's dtype (abs(-128) == -128 for int8, abs(-32768) == -32768 for int16, -abs(200) wraps for uint8);
# the C++ kernel's std::abs promotes to int and nothing converts back.
import torch
print("torch", torch.__version__)
def cat_sum_neg_abs(x):            # the shape: scalar path through cat + sum
    y = -x.abs(); return torch.cat([y, y]).sum()
def cat_sum_abs(x):
    y = x.abs(); return torch.cat([y, y]).sum()
def abs_to64(x):
    return x.abs().to(torch.int64)
def abs_sum(x):
    return x.abs().sum()
def safe_to64(x):                  # safe twin: widen first, abs in int64 (eager gives the mathematical value too)
    return x.to(torch.int64).abs()
cases = [
  ("u8  cat_sum_neg_abs (#187018)", cat_sum_neg_abs, torch.tensor([200, 200], dtype=torch.uint8)),
  ("i8  cat_sum_abs", cat_sum_abs, torch.tensor([-128, -128], dtype=torch.int8)),
  ("i16 cat_sum_abs", cat_sum_abs, torch.tensor([-32768, -32768], dtype=torch.int16)),
  ("i8  abs_to64", abs_to64, torch.tensor([-128, 5, -7, 127], dtype=torch.int8)),
  ("i16 abs_to64", abs_to64, torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)),
  ("i16 abs_sum", abs_sum, torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)),
  ("i16 abs_to64 n=64", abs_to64, torch.full((64,), -32768, dtype=torch.int16)),
  ("i16 safe_to64 (twin)", safe_to64, torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)),
  ("i32 abs_to64", abs_to64, torch.tensor([-2**31, 5], dtype=torch.int32)),
]
for n, f, x in cases:
    torch._dynamo.reset()
    e = f(x); c = torch.compile(f, dynamic=False)(x)
    ok = torch.equal(e, c)
    ev = e.tolist(); cv = c.tolist()
    if isinstance(ev, list) and len(ev) > 4: ev, cv = ev[:2] + ["..."], cv[:2] + ["..."]
    print(f"{n:30s} eager {ev} | compiled {cv}", "match" if ok else "MISMATCH")
