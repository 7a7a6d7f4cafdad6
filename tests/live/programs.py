"""The live suite's programs and what the analyzer and `confirm` must say of each under torch 2.13 (CPU).

Each expectation is what was measured on a real run (the program's own stdout prints the eager,
compiled and float64 numbers; a capture's stdout.txt keeps them), not what the rule was hoped to say.
A user line is given by a piece of its text, so editing the program above it does not break the test.
"""
import dataclasses
import os

SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "tools", "capture_scripts")


@dataclasses.dataclass
class Expect:
    rule: str
    severity: str
    user_text: str        # a piece of the user line the finding names (related[0])
    compile_kind: str     # "forward", "backward", "inference"; None for a frame-level finding
    verdict: str = None   # what `confirm --device cpu` answers (None: not asked)


@dataclasses.dataclass
class Program:
    name: str
    script: str
    args: list
    expect: list                      # the findings, all of them: any other warning or error fails
    confirm: str = None               # None, "graph" or "script"
    # What `inductor-lint localize --device cpu` answers for the compile a finding names (for a clean
    # program, every compile): "divergent", "precision-artifact" or "ok" (None: not asked).
    localize: str = None
    env: dict = dataclasses.field(default_factory=dict)

    def path(self):
        return os.path.join(SCRIPTS, self.script)

    def user_line(self, text):
        with open(self.path()) as f:
            lines = [i + 1 for i, line in enumerate(f) if text in line]
        assert len(lines) == 1, "%r names %d lines of %s" % (text, len(lines), self.script)
        return lines[0]


PROGRAMS = [
    # pytorch#185382 (seed 1): `step = step_t.item()` breaks the graph; the resumed frame is compiled
    # for step 2 with `prims.fma(div, -0.005263157894736844, param)` and reused for every later step:
    # 2.13.0 measures 4.26e-4 from eager after 3 steps (2.12.0 compiles once per step and is correct).
    # The finding names the `.item()` line, where the scalar comes from; the script run confirms it.
    Program("seed1_stale_scalar", "seed1.py", ["cpu", "3"], confirm="script",
            expect=[Expect("stale-scalar", "error", "step = step_t.item()", "inference", "confirmed")]),
    # pytorch#185596 (seed 2): eager rounds y[:-1] + y[1:] to bf16 before the scan, the fused C++
    # kernel does not. Compiled is the closer one to float64 (out 3.6e-7 against eager's 1.5e-2).
    # On the CPU only the forward kernel holds the scan (the backward's is an ATen flip + cumsum).
    # localize: the first launch that departs from eager is the finding's kernel (the unrounded add
    # feeding the scan), as a precision artifact; no launch is divergent.
    Program("seed2_cumtrapz_bf16", "seed2.py", ["cpu"], confirm="graph", localize="precision-artifact",
            expect=[Expect("reduced-precision-scan", "warning", "torch.cumulative_trapezoid(y, x, dim=-1)",
                           "forward", "precision-artifact")]),
    # pytorch#194976: `clamp(max=s)` with a float s that changes per call; clamp is not in the
    # tensorify pass's SUPPORTED_OPS, so the value of call 2 is baked and served from call 3 on
    # (2.13.0: eager-vs-inductor 0.88, 1.63, 1.63, 1.63 on calls 3-6). Still stale on 2.13.
    Program("stale_clamp", "stale_scalar.py", ["clamp", "cpu"], confirm="script",
            expect=[Expect("stale-scalar", "error", "F.silu(gate).clamp(max=s)", "backward", "confirmed")]),
    # One kernel adds x.flip(0) into x in place: the C++ loop reads elements it already wrote
    # (2.13.0: 4.56 from the intended result, eager 2.4e-7).
    # localize: the foreach kernel is the first divergent launch (its write of x against eager's copy_).
    Program("foreach_flip", "mutation.py", ["foreach_flip", "cpu"], confirm="graph", localize="divergent",
            expect=[Expect("inplace-read-after-write", "error", "torch._foreach_add_([x], [src.flip(0)])",
                           "inference", "confirmed")]),
    # The user's `.to(torch.bfloat16).float()` round trip: the fused kernel computes the bf16 value and
    # never uses it (2.13.0: eager-vs-inductor 0.43, compiled 8.8e-5 from the float64 sum).
    Program("cast_bf16_elided", "mutation.py", ["cast_bf16", "cpu"], confirm="graph",
            expect=[Expect("elided-low-precision-cast", "warning", "(a + b).to(torch.bfloat16).float().sum(-1)",
                           "inference", "precision-artifact")]),
    # pytorch#175966's family on the CPU: arange(11, int64) * tensor([1e9]) folded into one vectorized
    # arange(base, 1000000000) whose int lane offsets wrap (2.13.0: 5 values off by 2^32). Graph-mode
    # confirm cannot show it (the graph has no input; re-tracing folds the arange into a constant):
    # localize runs the capture's own kernel and compares it with eager exactly.
    Program("index_overflow", "index_overflow.py", ["cpu", "11", "1e9"], localize="divergent",
            expect=[Expect("index-overflow", "error", "* torch.tensor([k], dtype=torch.int64", "inference")]),
    # pytorch#195214's mechanism on the CPU: `x / 3.0 == amax(x / 3.0)` in bf16; the fused C++ kernel
    # compares the unrounded f32 quotient with the amax it stored as bf16 (2.13.0: 46 of 64 rows find no
    # maximum, 46 infinities in 1 / count; eager none). localize names the kernel (integers: exact).
    Program("rounding_compare", "rounding_compare.py", ["cpu"], localize="divergent",
            expect=[Expect("rounding-before-compare", "error", "count = (scaled == maximum).sum(-1)", "inference")]),
    # pytorch#198081's family: `torch.any(x) * 200 + 100` on uint8; eager's result is uint8 (300 wraps
    # to 44), the compiled graph allocates its output as int64 and returns 300. Graph-mode confirm
    # compares integer outputs exactly and their dtypes: confirmed.
    Program("output_dtype_uint8", "int_forms.py", ["uint8_any"], confirm="graph",
            expect=[Expect("output-dtype-mismatch", "error", "return torch.any(x) * 200 + 100", "inference",
                           "confirmed")]),
    # pytorch#198131: `dst[0:, :] = src[0:, :]; src.add_(1)`; the graph copies src into dst after src's
    # write-back (2.13.0: dst gets src + 1, 12 of 12 elements differ). Graph-mode confirm cannot show it (the
    # graph it re-executes already reads after the write-back, in eager too); the script run confirms it.
    Program("writeback", "writeback.py", [], confirm="script",
            expect=[Expect("read-after-writeback", "error", "    dst[0:, :] = src[0:, :]", "inference", "confirmed")]),
    # pytorch#183082's family: (x.t() * 2).argmax() of a 5x7 randn; the kernel passes its memory-order loop
    # variable as the index (eager 23, compiled 25 on the capture's input). Graph-mode confirm compares the
    # int64 index exactly.
    Program("argreduce_permuted", "argreduce_permuted.py", ["t_mul"], confirm="graph",
            expect=[Expect("argreduce-memory-order", "error", "return (x.t() * 2).argmax()", "inference", "confirmed")]),
    # pytorch#187018's family: x.abs().to(int64) of an int16 holding -32768; the kernel's std::abs promotes to int
    # (eager -32768, compiled 32768). The program's own input holds the minimum: script-mode confirm.
    Program("int_abs_i16", "int_abs.py", ["i16_to_int64"], confirm="script",
            expect=[Expect("integer-abs-promotion", "error", "return x.abs().to(torch.int64)", "inference",
                           "confirmed")]),
    # pytorch#183986: zeros(1, 8).expand(4, -1).index_add(0, [0, 0, 1], ones(3, 8)); 2.13 accumulates in the
    # 8-element zeros (eager column 0 [2, 1, 0, 0], compiled [3, 3, 3, 3]). Script-mode confirm.
    Program("reinplace_expand", "expand_index.py", ["expand"], confirm="script",
            expect=[Expect("reinplace-into-expand", "error", "return base.index_add(0, idx, src)", "inference",
                           "confirmed")]),
    # Clean programs: no warning and no error.
    Program("clean_mlp", "clean_mlp.py", ["cpu"], expect=[]),
    Program("clean_foreach_flip_safe", "mutation.py", ["foreach_flip", "cpu", "safe"], expect=[], localize="ok"),
    # The same arange with the factor passed as an argument: the kernel loads it, no folded step.
    Program("clean_index_overflow_safe", "index_overflow.py", ["cpu", "11", "1e9", "safe"], expect=[], localize="ok"),
    # The same tie count in float32: nothing to round.
    Program("clean_rounding_compare_safe", "rounding_compare.py", ["cpu", "safe"], expect=[]),
    # torch.all instead of torch.any: the compiled output stays uint8 (44 both).
    Program("clean_uint8_all", "int_forms.py", ["uint8_all"], expect=[]),
    # A clone is copied: read before the write-back.
    Program("clean_writeback_safe", "writeback.py", ["safe"], expect=[]),
    # x.t().argmin() straight over the transpose: Inductor computes the logical index (24 both).
    Program("clean_argreduce_t", "argreduce_permuted.py", ["t"], expect=[]),
    # x.to(torch.int64).abs(): abs in int64 on both sides.
    Program("clean_int_abs_widen", "int_abs.py", ["i16_widen"], expect=[]),
    # zeros(4, 8) as the destination: nothing to re-inplace into.
    Program("clean_expand_contiguous", "expand_index.py", ["contiguous"], expect=[]),
]
