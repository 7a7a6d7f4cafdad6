// The dataflow model of a compiled program. Parsers fill it; rules read it and nothing else.
//
// One `Program` holds every compile found under the inputs. A `Compile` is one Inductor graph
// (one `model__N_<kind>_<id>` folder or one output_code.py): its FX graph, its kernels, the
// buffers the wrapper allocates, and the order in which the wrapper launches kernels.
// The Dynamo layer (frames, guards, scalars that cross graph breaks) lives in `DynamoModel`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/dtype.h"
#include "analyzer/util/hash.h"
#include "analyzer/util/istring_map.h"
#include "analyzer/util/source_loc.h"

namespace ilint {

// Gives back a vector's unused capacity when it is over an eighth of its size, on a vector of at
// most 1 MiB. The copy this makes holds the elements twice for a moment: on a larger vector (one
// compile of a very large model) that moment is a larger peak than the slack it would give back
// (at most half), and where a reader reserved about what it needed, it would save little.
template <class T>
void shrink_slack(std::vector<T>& v) {
  if (v.capacity() - v.size() > v.size() / 8 && v.capacity() * sizeof(T) <= (size_t{1} << 20)) v.shrink_to_fit();
}

// ---------------------------------------------------------------- FX graphs

struct TensorMeta {
  DType dtype = DType::Unknown;
  IStringList shape;                // symbolic sizes stay as text: "s33", "8"
  IStringList stride;               // empty when the dump does not give strides
  IString device;                   // "cuda:0", "cpu"; empty when unknown
};

enum class ValueKind { Tensor, SymInt, SymFloat, SymBool, Scalar, None, Other };

// The user's source line FX records above a node ("# File: /x/seed2.py:12 in fn, code: y = x * 2"),
// alike on every node one comment covers: interned, so a node holds a pointer where the three
// fields took 40 bytes (an FX graph of 20 MB of node lines has 250k nodes).
struct UserFrame {
  std::optional<SourceLoc> loc;  // the user's file and line
  IString code;                  // the user's code text
  IString function;              // the function named
  bool operator==(const UserFrame&) const = default;
  // The one copy of `f` that every equal frame shares; none() for an empty one.
  static const UserFrame* intern(const UserFrame& f);
  static const UserFrame* none();
};

// Node texts are interned (IString): names, argument texts and keyword values repeat across the
// nodes of a graph, a kernel's fragment and every compile of the same model, and FX nodes were the
// largest share of the model's memory.
struct FxNode {
  IString name;        // "add", "primals_1"
  IString op;          // placeholder | call_function | call_method | call_module | get_attr | output
  IString target;      // "torch.ops.aten.add.Tensor"; for placeholders the placeholder name
  IStringList args;                     // argument texts, as written ("%slice_3", "3", "2.0")
  IStringMap kwargs;
  IStringList input_nodes;              // names of FX nodes referenced by args/kwargs
  ValueKind kind = ValueKind::Other;
  TensorMeta meta;                      // dtype/shape/stride/device of the value
  IString annotation;                   // the raw type annotation: "bf16[8, 1, 5, 15]", "Sym(s0)"
  const UserFrame* user = UserFrame::none();  // the user's source line, from the "# File:" comment
  SourceLoc def_loc;                    // where the node is defined in the dump
  // In-place mutation recorded by the graph itself: copy_ into a graph input.
  IString mutates;                      // name of the mutated node, empty if none

  const std::optional<SourceLoc>& user_loc() const { return user->loc; }
  const IString& user_code() const { return user->code; }
  const IString& user_function() const { return user->function; }
  void set_user(const UserFrame& f) { user = UserFrame::intern(f); }
};

struct FxGraph {
  // Interned: every kernel's graph fragment names its output_code.py (a long path, which a
  // std::string would copy to the heap once per kernel).
  IString origin;                       // "fx_graph_readable.py", "graph_fragment", "fx_json"
  FilePath file;                        // file path it was read from
  std::vector<FxNode> nodes;

  // The node named `name` (the last one added under that name), or null.
  const FxNode* find(std::string_view name) const {
    if (slots_.empty()) return nullptr;
    uint32_t s = slots_[slot_of(name)];
    return s == 0 ? nullptr : &nodes[s - 1];
  }
  void add(FxNode n) {
    nodes.push_back(std::move(n));
    if ((index_used_ + 1) * 4 > slots_.size() * 3) grow_index();
    place(static_cast<uint32_t>(nodes.size()));
  }

 private:
  // The name index: open addressing over positions in `nodes` (+1; 0 is an empty slot), probed
  // from the hash of the name's text, so a lookup by any string needs no interning. Four bytes a
  // slot where a std::map spent a ~64-byte tree node per FX node (~5% of a corpus's memory: every
  // kernel's graph fragment has one). Nodes are only ever appended and never renamed.
  // The slot that holds `name`, or the empty slot where it would go.
  size_t slot_of(std::string_view name) const {
    for (size_t i = text_hash(name) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1))
      if (slots_[i] == 0 || nodes[slots_[i] - 1].name == name) return i;
  }
  void place(uint32_t pos) {
    uint32_t& s = slots_[slot_of(nodes[pos - 1].name.str())];
    if (s == 0) ++index_used_;
    s = pos;  // a later node of the same name takes its place
  }
  void grow_index() {
    slots_.assign(slots_.empty() ? 8 : slots_.size() * 2, 0);
    index_used_ = 0;
    for (uint32_t pos = 1; pos <= nodes.size(); ++pos) place(pos);
  }
  std::vector<uint32_t> slots_;
  size_t index_used_ = 0;
};

// ---------------------------------------------------------------- Kernels

enum class KernelBackend { Triton, Cpp, Aten, Unknown };
enum class KernelKind { Pointwise, Reduction, PersistentReduction, Scan, Template, Extern, Fallback, Unknown };

struct KernelParam {
  std::string name;      // "in_out_ptr0", "xnumel", "ks0"
  DType dtype = DType::Unknown;  // element type for pointers, value type otherwise
  bool is_pointer = false;
  bool is_constexpr = false;
  bool is_const = false;     // C++: `const T*`
  bool is_restrict = false;  // C++: `__restrict__`
  std::string type_text;     // "*bf16", "const at::BFloat16*"
};

// One memory access: `tmp0 = tl.load(in_ptr0 + (r0_1 + 16*x0), ...)` or a C++ loadu/store.
// Texts are interned: SSA names, pointer names and index expressions repeat across kernels.
struct MemAccess {
  IString var;             // SSA variable loaded into / stored from ("tmp0")
  IString ptr;             // pointer parameter ("in_ptr0")
  IString index;           // index expression text, whitespace-normalized
  DType value_dtype = DType::Unknown;  // dtype of the value after the access (after a trailing .to())
  bool vectorized = false;
  // C++ kernels: the top-level loop nest of the body that holds the access, numbered from 0 in
  // source order (-1: outside every loop). Nests run one after the other (an `#pragma omp for`
  // ends with a barrier), so rules can tell accesses that may overlap in time (one nest) from ones
  // that cannot (two nests). Triton kernels with a grid barrier (`triton_helpers.x_grid_barrier`):
  // the number of barriers before the access; -1 in other Triton kernels.
  int nest = -1;
  // An atomic read-modify-write (`tl.atomic_add`, C++ `atomic_add`): kept among the stores.
  bool atomic = false;
  // Triton: the mask (`xmask`, `None` when passed as None, "" when not given) and, for a load, the
  // value of masked-off lanes (`other=0.0`; "" when not given).
  IString mask;
  IString other;
  SourceLoc loc;
};

// `tmp3 = tmp2.to(tl.float32)`, `at::vec::convert<float>(tmp0)`, `static_cast<float>(x)`.
struct CastOp {
  IString var;  // result
  IString src;  // source variable
  DType to = DType::Unknown;
  SourceLoc loc;
};

// A numeric literal used in the kernel body: `tl.full([1, 1], 0.5, tl.float32)`, `tmp5 = -0.0052`.
struct LiteralUse {
  std::string text;   // as written
  double value = 0;
  std::string var;    // variable it is bound to, if any
  SourceLoc loc;
};

// A reduction or scan. For Triton: `tl.associative_scan((tmp9,), 1, _triton_helper_fn_add0)`,
// `triton_helpers.sum`/`tl.sum`. For C++: an accumulator loop. For ATen fallbacks: the op itself.
struct ReduceOp {
  bool is_scan = false;
  std::string combine;      // add | mul | max | min | logaddexp | welford | argmax | ... | unknown
  std::string input_var;    // variable scanned/reduced
  std::string result_var;
  DType compute_dtype = DType::Unknown;  // dtype the combine runs in
  DType accumulator_dtype = DType::Unknown;  // C++: type of tmp_acc; Triton: same as compute
  int64_t length = -1;      // scan/reduction length (r0_numel) when static, -1 when symbolic
  std::string length_expr;  // symbolic length text when not static
  SourceLoc loc;
};

// A plain SSA statement in the kernel body: `tmp2 = tmp0 + tmp1`. Kept so rules can follow
// the chain from a load to a scan without looking at text.
struct KernelStmt {
  IString var;
  // op: "eq", "ne", "lt", "le", "gt", "ge" for a comparison (see is_comparison_op); the C++ readers
  // class `VecMask<T,N>(a == b)` by the comparison it holds.
  IString op;                          // "add", "sub", "mul", "div", "load", "cast", "call:<fn>", "other"
  IStringList operands;                // variables read
  SourceLoc loc;
};

// Whether a KernelStmt op is a comparison.
inline bool is_comparison_op(std::string_view op) {
  return op == "eq" || op == "ne" || op == "lt" || op == "le" || op == "gt" || op == "ge";
}

// A C++ kernel's loop: `for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(256L);
// x1+=static_cast<int64_t>(16L))` (a vectorized dimension steps by the vector's lanes), or the lane
// loop inside such a tile, `for (long x1_inner = 0; x1_inner < static_cast<int64_t>(16); x1_inner++)`.
struct CppLoop {
  std::string var;
  int64_t start = 0, end = 0, step = 1;  // the values var takes: start, start + step, ... below end
  int first_line = 0, last_line = 0;     // lines of the containing file, from its header to its body's end
};

struct Kernel {
  std::string name;
  KernelBackend backend = KernelBackend::Unknown;
  KernelKind kind = KernelKind::Unknown;
  std::string heuristic;               // Triton decorator: pointwise, reduction, persistent_reduction, split_scan
  SourceLoc def_loc;                   // `name = async_compile.triton(...)` line in output_code.py
  SourceLoc body_loc;                  // first line of the `def`/`extern "C"` of the kernel body
  std::vector<KernelParam> params;
  std::vector<std::string> mutated_args;  // `mutated_arg_names`
  bool has_mutated_args = false;          // the metadata states mutated_arg_names (even if empty); added so
                                          // rules can tell "none mutated" from "not stated"
  std::map<std::string, int64_t> numels;  // xnumel, r0_numel ... when the body sets them to literals
  std::vector<MemAccess> loads;
  std::vector<MemAccess> stores;
  std::vector<CastOp> casts;
  std::vector<LiteralUse> literals;
  std::vector<ReduceOp> reductions;    // scans included (is_scan)
  std::vector<KernelStmt> stmts;
  // Provenance from the comments above the kernel.
  std::vector<std::string> source_nodes;  // "Topologically Sorted Source Nodes"
  std::vector<std::string> aten_ops;      // "Original ATen"
  std::map<std::string, std::vector<std::string>> source_to_aten;  // "Source node to ATen node mapping"
  FxGraph fragment;                    // "Graph fragment" nodes (post-grad FX nodes it computes)
  std::vector<std::string> fx_nodes;   // post-grad FX nodes this kernel computes (fragment + provenance)
  std::string source;                  // the kernel source text, while it is read (Compile::source_of)
  int source_first_line = 0;           // line in the containing file of the first source line
  // Where the source lies in Compile::output_code_text when the compile keeps that text for a
  // report (text_size 0: it does not, or the source is no slice of it).
  uint32_t text_begin = 0, text_size = 0;
  std::vector<std::string> parse_errors;  // what the kernel reader could not understand
  // The statement and call forms of the body, sorted, each once (analyzer/parse/kernel_forms.h):
  // "tl.load", ".to", "for" in Triton; "load", "call:std::exp" in C++. What a reader met, so that a
  // form it does not model is said (the census test, the coverage account), not passed over.
  std::vector<IString> forms;
  // Right-hand side of each non-`tmp` assignment in the body (`x0` -> "xindex % 16"), whitespace-
  // normalized. Added so rules can expand index variables when comparing index expressions.
  std::map<std::string, std::string> var_defs;
  // C++: the body's `for` loops with literal bounds, in source order. Added so rules can enumerate a
  // C++ kernel's index space. One variable heads loops of different ranges and steps in one kernel
  // (each loop nest its own), so an access takes the innermost loop of the variable around its line.
  std::vector<CppLoop> loops;
  const CppLoop* loop_around(std::string_view var, int line) const {
    const CppLoop* in = nullptr;
    for (const auto& l : loops)
      if (l.var == var && l.first_line <= line && line <= l.last_line && (!in || l.first_line >= in->first_line)) in = &l;
    return in;
  }
  bool has_loop(std::string_view var) const {
    return std::any_of(loops.begin(), loops.end(), [&](const CppLoop& l) { return l.var == var; });
  }

  // Gives back the slack vector growth left in the facts a reader appended (up to half of each).
  void shrink_to_fit() {
    shrink_slack(fragment.nodes);
    shrink_slack(stmts);
    shrink_slack(loads);
    shrink_slack(stores);
    shrink_slack(literals);
    shrink_slack(casts);
  }
};

// Whether anything the kernel computes or writes reads `var`: a statement's operand, a store's value,
// a reduction's input or a cast's source. A cast whose result nothing reads rounds nothing that
// reaches memory (torch 2.13's C++ kernels compute `tmp3 = convert<bf16>(tmp2)` and accumulate tmp2).
inline bool kernel_reads(const Kernel& k, const std::string& var) {
  for (const auto& st : k.stmts)
    for (const auto& o : st.operands)
      if (o.str() == var) return true;
  for (const auto& s : k.stores)
    if (s.var.str() == var) return true;
  for (const auto& r : k.reductions)
    if (r.input_var == var) return true;
  for (const auto& c : k.casts)
    if (c.src.str() == var) return true;
  return false;
}

// ---------------------------------------------------------------- Wrapper

struct Buffer {
  IString name;            // "buf0", "primals_1"
  TensorMeta meta;
  bool is_graph_input = false;
  bool is_graph_output = false;
  bool is_reuse = false;   // the alias is a memory-reuse, not a view of live data
  IString alias_of;        // `buf1 = reinterpret_tensor(buf0, ...)`, `buf3 = buf2; del buf2  # reuse`
  // Storage offset (elements) of a `reinterpret_tensor(buf0, size, stride, offset)` view, as
  // written; empty when not a view or not given. Added so rules can place a view's accesses in
  // its root buffer (inplace-read-after-write).
  IString alias_offset;
  SourceLoc alloc_loc;
};

struct KernelLaunch {
  int order = 0;               // position in the wrapper's launch sequence
  bool is_fallback = false;    // ATen/extern call rather than a generated kernel
  IString kernel;              // kernel name, or the ATen op for fallbacks ("torch.ops.aten.cumsum.default")
  std::vector<IString> args;           // argument texts
  IStringMap kwargs;
  std::vector<IString> results;        // `buf1 = torch.ops.aten.cumsum.default(...)` -> buf1
  std::vector<IString> source_nodes;   // the "Topologically Sorted Source Nodes" comment above it
  IString provenance_handle;           // "[Provenance debug handles] name:3"
  SourceLoc loc;
  // Added for the C++ wrapper (cpp_wrapper=True): a fallback there calls an AOTI shim. `kernel`
  // then holds the ATen op the shim names ("aten.cumsum" for `aoti_torch_cpu_cumsum`), like the
  // Python wrapper's "torch.ops.aten.cumsum.default" but without an overload, and this holds the
  // shim called. Empty for the Python wrapper.
  IString shim;
};

struct GraphInput {
  std::string name;
  ValueKind kind = ValueKind::Tensor;  // Tensor, SymInt, SymFloat
  TensorMeta meta;
  bool is_cpu_scalar = false;          // 0-d CPU tensor: a tensorified Python float (`f64[]` on cpu)
};

// An in-place write into memory the caller owns: `copy_` into a graph input in the wrapper or
// the FX graph, or an `in_out_ptr` argument.
struct Mutation {
  IString target;          // mutated buffer / input name
  IString via;             // "copy_", "in_out_ptr", "mutated_arg", "fx_copy_"
  IString kernel;          // kernel that does it, when via a kernel argument
  SourceLoc loc;
};

// Of the provenance file's four maps, the two that tie kernels to post-grad nodes: the two between
// pre-grad and post-grad nodes (preToPost, postToPre) are read by no rule and not kept.
struct Provenance {
  std::map<std::string, std::vector<IString>> kernel_to_post;   // "kernel:handle" -> post-grad nodes
  std::map<std::string, std::vector<IString>> post_to_kernel;
};

// Paths interned: every location (SourceLoc) made while reading one of these files copies the
// path, and an interned copy is a pointer copy, not a hash of the path per location.
struct CompileFiles {
  FilePath dir;                  // the compile folder (empty when only an output_code.py was given)
  FilePath output_code;          // path or empty
  FilePath fx_graph_readable;
  FilePath fx_graph_runnable;
  FilePath fx_graph_transformed;
  FilePath provenance_json;
  FilePath fx_json;              // our FX graph JSON (docs/fx-graph-json.md), when given
  FilePath run_dir;              // the run_* folder, if known
  // A compile read from a TORCH_TRACE log (dir empty; the paths above that have a payload name
  // the log): its Dynamo compile id ("1/0"), the log's session (torch._dynamo.reset() starts
  // another) and the log's line where its output code starts.
  std::string trace_compile_id;
  int trace_session = 0;
  int trace_output_code_line = 0;
};

// What identifies a compile's input among all of the program's: its folder, else its output code
// (with the line of the payload, for a TORCH_TRACE compile), else its FX graph JSON.
std::string compile_origin(const CompileFiles& f);

// A text of a compile held as a TORCH_TRACE payload.
struct TracePayload {
  int first_line = 0;  // the log's line that holds the payload's first line (0: no payload)
  std::string text;
};

// A compile whose files are payloads of a TORCH_TRACE log, read into the model the way a compile
// folder is: `inductor_output_code` for output_code.py, the AOT graph (`aot_forward_graph`, ...)
// for fx_graph_readable.py (the same graph, printed with strides and devices), the
// `fx_graph_runnable` and `inductor_provenance_tracking_node_mappings` artifacts for the files of
// those names.
struct TraceCompileSource {
  CompileFiles files;
  std::string graph_kind;  // forward | backward | inference
  int model_index = -1;    // N of "# AOT ID: ['N_forward']" (-1: a cpp_wrapper module has no header)
  std::string fx_graph_event;  // the event the FX graph came from ("aot_forward_graph")
  TracePayload output_code, fx_graph, runnable, provenance;
};

struct Compile {
  std::string id;                // stable id: "model__0_forward_1.0" or the file name
  std::string graph_kind;        // forward | backward | inference | unknown
  int model_index = -1;          // N of model__N_
  std::string trailing_id;       // "1.0" of model__0_forward_1.0
  std::vector<std::string> aot_ids;  // from "# AOT ID: ['0_forward']"
  std::string device_type;       // "cuda", "cpu" (from kernels or devices)
  bool cpp_wrapper = false;
  CompileFiles files;
  // text_hash of the output_code.py text read, when the input holds a TORCH_TRACE log (0: not
  // read, or no log): a compile the log's payloads hold is this folder's when the texts hash alike.
  uint64_t output_code_hash = 0;
  // The text of output_code.py (or its TORCH_TRACE payload), kept when kernel sources are kept for
  // a report (the HTML page): each kernel's source is a slice of it, where a copy per kernel would
  // take as much again as the file; only the kernels' part when that is under half of it.
  std::string output_code_text;
  // A kernel's source: its slice of output_code_text, else its own text (empty once read, unless
  // sources are kept and it is no slice: a cpp_wrapper kernel, put together from the wrapper's lines).
  std::string_view source_of(const Kernel& k) const {
    if (k.text_size && size_t{k.text_begin} + k.text_size <= output_code_text.size())
      return std::string_view(output_code_text).substr(k.text_begin, k.text_size);
    return k.source;
  }

  FxGraph fx;                    // fx_graph_readable.py (or FX JSON)
  std::vector<GraphInput> inputs;
  // The indexes are keyed by the interned name (a wrapper of 110k launches has as many buffers:
  // an interned key is one pointer in each node, a std::string 32 bytes) and looked up by any text.
  struct NameLess {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a < b; }
  };
  std::vector<Kernel> kernels;
  std::map<IString, size_t, NameLess> kernel_index;
  std::vector<Buffer> buffers;
  std::map<IString, size_t, NameLess> buffer_index;
  std::vector<KernelLaunch> launches;
  std::vector<Mutation> mutations;
  std::vector<std::string> outputs;  // names returned by call()
  Provenance provenance;
  IStringMap config;  // inductor config lines recorded in fx_graph_runnable.py (interned: every compile repeats them)

  const Kernel* kernel(const std::string& name) const {
    auto it = kernel_index.find(name);
    return it == kernel_index.end() ? nullptr : &kernels[it->second];
  }
  const Buffer* buffer(const std::string& name) const {
    auto it = buffer_index.find(name);
    return it == buffer_index.end() ? nullptr : &buffers[it->second];
  }
  void add_kernel(Kernel k) {
    kernel_index[k.name] = kernels.size();
    kernels.push_back(std::move(k));
  }
  void add_buffer(Buffer b) {
    buffer_index[b.name] = buffers.size();
    buffers.push_back(std::move(b));
  }
};

}  // namespace ilint
