"""abs() of an 8- or 16-bit integer in a C++ kernel (pytorch#187018's family, int8/int16 unfixed in 2.14.1).

    python int_abs.py i16_to_int64   # x.abs().to(torch.int64): eager abs(-32768) == -32768 (int16 wraps),
                                     # the kernel's std::abs promotes to int: 32768
    python int_abs.py i16_sum        # x.abs().sum(): the same through a sum (int64 accumulator)
    python int_abs.py i16_widen      # twin: x.to(torch.int64).abs(), abs in int64 on both sides
    python int_abs.py i16_keep       # twin: x.abs() returned as int16, stored back into 16 bits

x = [-32768, 5, -7, 32767] (int16). Prints eager, compiled and whether they are equal (values and dtype).
"""
import sys

import torch

variant = sys.argv[1] if len(sys.argv) > 1 else "i16_to_int64"
print("torch", torch.__version__, "variant", variant)

if variant == "i16_to_int64":
    def f(x):
        return x.abs().to(torch.int64)
elif variant == "i16_sum":
    def f(x):
        return x.abs().sum()
elif variant == "i16_widen":
    def f(x):
        return x.to(torch.int64).abs()
elif variant == "i16_keep":
    def f(x):
        return x.abs()
else:
    raise SystemExit("unknown variant " + variant)

x = torch.tensor([-32768, 5, -7, 32767], dtype=torch.int16)
eager = f(x)
compiled = torch.compile(f)(x)
print("eager", eager.tolist(), eager.dtype, "compiled", compiled.tolist(), compiled.dtype,
      "equal", eager.dtype == compiled.dtype and torch.equal(eager, compiled))
