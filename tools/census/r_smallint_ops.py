# Family "C++ integer promotion of 8/16-bit values" (pytorch#187018 and relatives): each op on a sub-int dtype,
# fused with a widening consumer (sum -> int64 accumulator, or .to(int64)), eager vs compiled.
import torch
print("torch", torch.__version__)
u8 = torch.tensor([200, 7, 0, 255], dtype=torch.uint8)
i8 = torch.tensor([-128, 5, -7, 127], dtype=torch.int8)
i16 = torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)
ops = {
  "abs u8": (lambda x: (-x.abs()).to(torch.int64), u8),
  "abs i8": (lambda x: x.abs().to(torch.int64), i8),
  "abs i16": (lambda x: x.abs().to(torch.int64), i16),
  "neg i8": (lambda x: (-x).to(torch.int64), i8),
  "neg u8": (lambda x: (-x).to(torch.int64), u8),
  "bitwise_not u8": (lambda x: (~x).to(torch.int64), u8),
  "bitwise_not i8": (lambda x: (~x).to(torch.int64), i8),
  "lshift u8": (lambda x: (x << 1).to(torch.int64), u8),
  "lshift i8": (lambda x: (x << 1).to(torch.int64), i8),
  "rshift u8 neg": (lambda x: ((-x) >> 1).to(torch.int64), u8),
  "mul u8": (lambda x: (x * x).to(torch.int64), u8),
  "add i16": (lambda x: (x + x).to(torch.int64), i16),
  "sub u8": (lambda x: (x.flip(0) - x).to(torch.int64), u8),
  "floordiv i8": (lambda x: (x // -1).to(torch.int64), i8),
  "abs u8 sum": (lambda x: (-x.abs()).sum(), u8),
  "abs i8 sum": (lambda x: x.abs().sum(), i8),
  "bitwise_not u8 sum": (lambda x: (~x).sum(), u8),
  "sign*x u8": (lambda x: (x.sign() * x).to(torch.int64), u8),
  "pow2 u8": (lambda x: (x ** 2).to(torch.int64), u8),
  "abs u8 float": (lambda x: (-x.abs()).float(), u8),
  "bitwise_not u8 float": (lambda x: (~x).float(), u8),
}
for n, (f, x) in ops.items():
    torch._dynamo.reset()
    try:
        e = f(x)
    except Exception as ex:
        print(n, "eager error", type(ex).__name__); continue
    try:
        c = torch.compile(f, dynamic=False)(x)
    except Exception as ex:
        print(n, "compile error", type(ex).__name__, str(ex)[:100]); continue
    ok = torch.equal(e, c) and e.dtype == c.dtype
    print(f"{n:22s} eager {e.tolist()} | compiled {c.tolist()}", "match" if ok else "MISMATCH")
