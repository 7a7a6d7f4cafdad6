"""C++ kernel forms torch 2.14 writes that earlier releases did not, each in a small program that
prints eager against compiled (a census of pytorch's 2026 silent-correctness reports found them).

    python int_forms.py uint8_any   # torch.any(x) * 200 + 100 on uint8: 2.14 writes the integer
                                    # multiply and add through std::make_unsigned_t (pytorch#191132);
                                    # compiled returns int64 300 where eager wraps to uint8 44
                                    # (pytorch#198081's family: the output dtype differs)
    python int_forms.py uint8_all   # its twin: torch.all(x) * 200 + 100 stays uint8 compiled (44 both)
    python int_forms.py argmin_t    # x.t().argmin() over the whole tensor: 2.14 passes the logical
                                    # index of each lane as a vector to argmin_combine_vec
"""
import sys

import torch

variant = sys.argv[1] if len(sys.argv) > 1 else "uint8_any"
print("torch", torch.__version__, "variant", variant)

if variant == "uint8_any":
    def f(x):
        return torch.any(x) * 200 + 100
    x = torch.tensor([[0, 3], [0, 0]], dtype=torch.uint8)
elif variant == "uint8_all":
    def f(x):
        return torch.all(x) * 200 + 100
    x = torch.tensor([[1, 3], [2, 5]], dtype=torch.uint8)
elif variant == "argmin_t":
    def f(x):
        return x.t().argmin()
    torch.manual_seed(21)
    x = torch.randn(5, 7)
else:
    raise SystemExit("unknown variant " + variant)

eager = f(x)
compiled = torch.compile(f)(x)
print("eager", eager.tolist(), eager.dtype, "compiled", compiled.tolist(), compiled.dtype,
      "equal", eager.dtype == compiled.dtype and eager.tolist() == compiled.tolist())
