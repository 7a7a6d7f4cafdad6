"""A whole-tensor argmax/argmin over a transposed value (pytorch#183082's family, unfixed in 2.14.1).

    python argreduce_permuted.py t_mul          # (x.t() * 2).argmax(): compiled returns the memory position
    python argreduce_permuted.py t_contiguous   # x.t().contiguous().argmin(): the same
    python argreduce_permuted.py t              # x.t().argmin(): 2.13+ computes the logical index (twin)
    python argreduce_permuted.py no_t           # (x * 2).argmax(): no transpose, both orders agree (twin)

Eager's flat index counts in the transposed (logical) order; the C++ kernel that Inductor writes for
the pointwise-then-reduce reads the input in memory order and passes its loop variable as the index.
Prints eager, compiled and whether they agree.
"""
import sys

import torch

variant = sys.argv[1] if len(sys.argv) > 1 else "t_mul"
print("torch", torch.__version__, "variant", variant)

if variant == "t_mul":
    def f(x):
        return (x.t() * 2).argmax()
elif variant == "t_contiguous":
    def f(x):
        return x.t().contiguous().argmin()
elif variant == "t":
    def f(x):
        return x.t().argmin()
elif variant == "no_t":
    def f(x):
        return (x * 2).argmax()
else:
    raise SystemExit("unknown variant " + variant)

torch.manual_seed(21)
x = torch.randn(5, 7)
eager = f(x)
compiled = torch.compile(f)(x)
print("eager", eager.item(), "compiled", compiled.item(), "equal", eager.item() == compiled.item())
