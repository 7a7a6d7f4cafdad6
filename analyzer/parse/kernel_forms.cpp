#include "analyzer/parse/kernel_forms.h"

namespace ilint {

namespace {

constexpr KernelBackend T = KernelBackend::Triton;
constexpr KernelBackend C = KernelBackend::Cpp;
constexpr FormHandling M = FormHandling::Modeled;
constexpr FormHandling N = FormHandling::NoEffect;

constexpr std::string_view kAccumulator =
    "an accumulator's combine or its final reduction: the ReduceOp is read from the `tmp_acc` updates";
constexpr std::string_view kValue = "KernelStmt `call:<fn>`: a value of its operands, dtype promoted from theirs";

// Ordered as docs/kernel-forms.md lists them.
constexpr KernelForm kForms[] = {
    // ---- Triton: memory
    {T, "tl.load", M, "Kernel::loads: pointer parameter, index, dtype (after a trailing `.to`), mask and `other`"},
    {T, "tl.store", M, "Kernel::stores: pointer parameter, index, stored variable, mask"},
    {T, "tl.atomic_*", M, "Kernel::stores, `atomic`: pointer parameter, index, value, mask (the old value it returns is the statement's variable)"},
    {T, "tl.make_block_ptr", M, "the pointer parameter and layout (offsets, strides) of the loads and stores through the block pointer"},
    {T, "tl.advance", M, "moves a block pointer: its accesses keep the parameter, the index says it was advanced"},
    {T, "tl.make_tensor_descriptor", M, "the pointer parameter and strides of the loads and stores through the descriptor"},
    {T, ".load", M, "a tensor descriptor's `.load([offsets])`: Kernel::loads, index `descriptor(strides=...)[offsets]`"},
    {T, ".store", M, "a tensor descriptor's `.store([offsets], value)`: Kernel::stores"},
    {T, "tl.pointer_type", M, "a workspace pointer's element type (`ws_ptr.to(tl.pointer_type(tl.float32))`): the dtype of the accesses through it, whose parameter is `ws_ptr`"},
    {T, "triton_helpers.exclusive_scan_decoupled_lookback", M, "a split scan's cross-block step: ReduceOp (scan of its second argument) and an atomic Kernel::stores entry on the workspace"},
    // ---- Triton: values
    {T, ".to", M, "CastOp (and the load's dtype when it ends a `tl.load`)"},
    {T, "tl.full", M, "KernelStmt `full`: a constant of the dtype given; its literal in Kernel::literals"},
    {T, "tl.zeros", M, kValue},
    {T, "tl.where", M, "KernelStmt `call:tl.where`: dtype of its two branches"},
    {T, "tl.fma", M, kValue},
    {T, "tl.sqrt_rn", M, kValue},
    {T, "tl.broadcast_to", M, kValue},
    {T, ".broadcast_to", M, kValue},
    {T, "libdevice.*", M, kValue},
    {T, "tl_math.*", M, kValue},
    {T, "triton_helpers.maximum", M, kValue},
    {T, "triton_helpers.minimum", M, kValue},
    {T, "triton_helpers.select_one", M, kValue},
    {T, "triton_helpers.online_softmax_combine", M, kValue},
    {T, "tl.reshape", M, kValue},
    {T, "tl.trans", M, kValue},
    {T, "tl.sigmoid", M, kValue},
    {T, "tl.inline_asm_elementwise", M, "KernelStmt `call:tl.inline_asm_elementwise`: a value of its operands (the asm text is not read), dtype promoted from theirs"},
    {T, "triton_helpers.if_mask", M, kValue},
    {T, "_triton_helper_fn_*", M, "a scan's combine function applied to two values (a split scan's last step): a value of its operands"},
    {T, "float", N, "`float(\"inf\")`: a literal"},
    // ---- Triton: reductions and scans
    {T, "tl.sum", M, "ReduceOp (add), compute dtype of its input"},
    {T, "tl.max", M, "ReduceOp (max)"},
    {T, "tl.min", M, "ReduceOp (min)"},
    {T, "tl.argmax", M, "ReduceOp (argmax)"},
    {T, "tl.argmin", M, "ReduceOp (argmin)"},
    {T, "tl.reduce", M, "ReduceOp (combine unknown)"},
    {T, "tl.cumsum", M, "ReduceOp, scan (add)"},
    {T, "tl.cumprod", M, "ReduceOp, scan (mul)"},
    {T, "tl.associative_scan", M, "ReduceOp, scan: combine read from its `_triton_helper_fn` combine function"},
    {T, "triton_helpers.max2", M, "ReduceOp (max)"},
    {T, "triton_helpers.min2", M, "ReduceOp (min)"},
    {T, "triton_helpers.sum", M, "ReduceOp (add)"},
    {T, "triton_helpers.prod", M, "ReduceOp (mul)"},
    {T, "triton_helpers.welford_reduce", M, "ReduceOp (welford)"},
    {T, "triton_helpers.welford", M, "ReduceOp (welford)"},
    {T, "triton_helpers.online_softmax_reduce", M, "ReduceOp (online_softmax)"},
    // ---- Triton: index space, structure, checks
    {T, "tl.program_id", N, "index space: the block's offset (index texts keep it, Kernel::var_defs)"},
    {T, "tl.num_programs", N, "index space: the grid's size"},
    {T, "tl.arange", N, "index space: the lanes of a block"},
    {T, "tl.range", N, "index space: the loop over a reduction dimension"},
    {T, "range", N, "index space: the loop over a reduction dimension"},
    {T, "stmt:for", N, "the loop over a reduction dimension: its body is read as the kernel's statements, in order"},
    {T, "tl.debug_barrier", N, "synchronises a block's threads: no value, no memory"},
    {T, "triton_helpers.x_grid_barrier", N, "a cooperative reduction's barrier across blocks: no value; the workspace stores before it and loads after it are Kernel::stores and Kernel::loads on `ws_ptr`"},
    {T, "tl.cdiv", N, "index space: a combo kernel's block counts (`num_xblocks_0 = tl.cdiv(1000, XBLOCK)`)"},
    {T, "triton_helpers.constexpr_next_power_of_2", N, "a compile-time block size"},
    {T, "stmt:if", M, "a combo kernel's sub-kernels (`if pid < num_xblocks_0:`), a cooperative reduction's `if HAS_RSPLIT:`: every branch is read, its statements in order as the kernel's (names a later branch reuses take the later branch's facts)"},
    {T, "stmt:elif", M, "as `stmt:if`"},
    {T, "stmt:else", M, "as `stmt:if`"},
    {T, "stmt:pass", N, "an empty branch"},
    {T, "tl.device_assert", N, "an index range check: no value, no memory"},
    // ---- C++: memory
    {C, "call:loadu", M, "Kernel::loads (vectorized): pointer parameter, index, dtype"},
    {C, "call:store", M, "Kernel::stores (vectorized): `tmp.store(out_ptr0 + i)`"},
    {C, "call:from", M, "Kernel::loads (vectorized) for `VecMask<T,N>::from(in_ptr + i, n)`, a mask read from a bool buffer; a value otherwise"},
    {C, "call:transpose_mxn", M, "Kernel::loads of its source and Kernel::stores of its destination, where a kernel buffer"},
    {C, "call:atomic_add", M, "Kernel::stores, `atomic`: pointer parameter, index, value"},
    {C, "call:atomic_add_vec", M, "Kernel::stores, `atomic`, vectorized: index `base + indices`"},
    // ---- C++: values and casts
    {C, "call:convert", M, "CastOp"},
    {C, "call:cvt", M, "CastOp"},
    {C, "call:cast", M, "a mask's element type (`tmp0.template cast<float,1>()`): a value of its operand"},
    {C, "call:to", M, "a mask as a vector (`.to<float,1>()`): a value of its operand"},
    {C, "call:blendv", M, kValue},
    {C, "call:exp", M, kValue},
    {C, "call:log", M, kValue},
    {C, "call:sqrt", M, kValue},
    {C, "call:rsqrt", M, kValue},
    {C, "call:pow", M, kValue},
    {C, "call:erf", M, kValue},
    {C, "call:abs", M, kValue},
    {C, "call:neg", M, kValue},
    {C, "call:reciprocal", M, kValue},
    {C, "call:fmadd", M, kValue},
    {C, "call:maximum", M, kValue},
    {C, "call:minimum", M, kValue},
    {C, "call:max", M, kValue},
    {C, "call:min", M, kValue},
    {C, "call:clamp_min", M, kValue},
    {C, "call:max_propagate_nan", M, kValue},
    {C, "call:min_propagate_nan", M, kValue},
    {C, "call:div_floor_integer", M, kValue},
    {C, "call:floor_divide_integral", M, kValue},
    {C, "call:remainder_integral", M, kValue},
    {C, "call:arange", M, kValue},
    {C, "call:infinity", M, "a constant"},
    {C, "call:normalized_rand_cpu", M, kValue},
    {C, "call:mod", M, kValue},
    {C, "call:signbit", M, kValue},
    // ---- C++: reductions
    {C, "call:vec_reduce_all", M, kAccumulator},
    {C, "call:sum_masked_reduce", M, kAccumulator},
    {C, "call:max_masked_reduce", M, kAccumulator},
    {C, "call:min_masked_reduce", M, kAccumulator},
    {C, "call:any_masked_reduce", M, kAccumulator},
    {C, "call:welford_combine", M, kAccumulator},
    {C, "call:welford_vec_reduce_all", M, kAccumulator},
    {C, "call:argmax_combine", M, kAccumulator},
    {C, "call:argmax_combine_vec", M, kAccumulator},
    {C, "call:argmax_vec_reduce_all", M, kAccumulator},
    {C, "call:argmin_combine", M, kAccumulator},
    {C, "call:argmin_combine_vec", M, kAccumulator},
    {C, "call:argmin_vec_reduce_all", M, kAccumulator},
    // ---- C++: masks, threads, local buffers, checks
    {C, "call:is_masked", N, "tests a mask: no value of the computation"},
    {C, "call:all_masked", N, "tests a mask: no value of the computation"},
    {C, "call:all_zero", N, "tests a mask: no value of the computation"},
    {C, "call:__builtin_expect", N, "a branch hint"},
    {C, "call:omp_get_thread_num", N, "the thread's index (per-thread accumulator buffers)"},
    {C, "call:omp_get_num_threads", N, "the thread count"},
    {C, "call:omp_get_max_threads", N, "the thread count"},
    {C, "call:make_unique", N, "allocates a per-thread local buffer (not a kernel buffer)"},
    {C, "call:get", N, "a local buffer's pointer"},
    {C, "call:data", N, "a local array's pointer"},
    {C, "call:set", N, "sets an element of a local (std::array) value"},
    {C, "call:inductor_cpu_throw_if_integer_div_error", N, "torch 2.13+: raises after an integer division by zero"},
    {C, "call:inductor_cpu_note_integer_div_by_zero", N, "torch 2.13+: flags an integer division by zero"},
};

bool matches(std::string_view pattern, std::string_view form) {
  if (!pattern.empty() && pattern.back() == '*') return form.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  return pattern == form;
}

}  // namespace

std::span<const KernelForm> kernel_forms() { return kForms; }

const KernelForm* find_kernel_form(KernelBackend backend, std::string_view form) {
  for (const auto& f : kForms)
    if (f.backend == backend && matches(f.form, form)) return &f;
  return nullptr;
}

std::vector<std::string> unmodeled_forms(const Kernel& k) {
  std::vector<std::string> out;
  for (const auto& f : k.forms)
    if (!find_kernel_form(k.backend, f.str())) out.push_back(f.str());
  return out;
}

}  // namespace ilint
