// The parse stage: turns each ingested compile's files into a Compile of the model.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <string_view>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include "analyzer/ingest/ingest.h"
#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/cpp/cpp_kernel_hand.h"
#include "analyzer/parse/torch_versions.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "analyzer/parse/fx_json.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/parse/json_events_sax.h"
#include "analyzer/parse/line_scan.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/parse/build_compiles.h"
#include "analyzer/util/hash.h"
#include "analyzer/util/parallel.h"
#include "analyzer/util/read_file.h"

namespace fs = std::filesystem;

namespace ilint {

namespace {

// The provenance mapping {"preToPost": {"node": ["node", ...]}, "postToPre": ..., "cppCodeToPost":
// ..., "postToCppCode": ...}, read as a stream of JSON events straight into the maps (no document
// tree: these files are a large share of a compile's bytes). Only string elements of an array
// under a key of cppCodeToPost or postToCppCode are kept (see Provenance); the rest is skipped.
class ProvenanceBuilder : public scan::JsonEvents {
 public:
  explicit ProvenanceBuilder(Provenance& out) : out_(out) {}
  bool top_is_object() const { return top_is_object_; }

  void start_object() override {
    if (depth_ == 0) top_is_object_ = true;
    if (depth_ == 1) map_ = pending_map_;
    ++depth_;
  }
  void end_object() override {
    --depth_;
    if (depth_ == 1) map_ = nullptr;
  }
  void start_array() override {
    // An array directly under a key of one of the maps (depth 2) holds the names.
    in_names_ = depth_ == 2 && map_ != nullptr;
    names_ = nullptr;  // the entry is made with its first name, as the maps never hold empty lists
    ++depth_;
  }
  void end_array() override {
    --depth_;
    if (depth_ == 2) in_names_ = false;
  }
  void key(std::string_view k) override {
    if (depth_ == 1) pending_map_ = k == "cppCodeToPost"   ? &out_.kernel_to_post
                                    : k == "postToCppCode" ? &out_.post_to_kernel
                                                           : nullptr;
    if (depth_ == 2) entry_ = k;
  }
  void string(std::string_view s) override {
    if (in_names_ && depth_ == 3) {
      if (!names_) names_ = &(*map_)[entry_];
      names_->emplace_back(s);
    }
  }

 private:
  Provenance& out_;
  int depth_ = 0;
  bool top_is_object_ = false;
  std::map<std::string, std::vector<IString>>* pending_map_ = nullptr;
  std::map<std::string, std::vector<IString>>* map_ = nullptr;
  std::string entry_;
  bool in_names_ = false;
  std::vector<IString>* names_ = nullptr;
};

// `text` is the mapping's text, whose first line is line `first_line` of `path`.
void read_provenance(const FilePath& path, const std::string& text, int first_line, Compile& c, DiagSink& diags) {
  // Into a scratch model first: a file that turns out not to be JSON leaves no facts behind.
  Provenance read;
  bool ok, top_is_object;
  {
    // The hand scanner reads what torch writes (objects, arrays, plain strings) at a fraction of
    // nlohmann's cost (its lexer was ~8% of a Triton corpus run's instructions); anything else
    // is parsed again by nlohmann from the start.
    ProvenanceBuilder fast(read);
    ok = scan::json_strings(text, fast) == scan::Match::Yes;
    top_is_object = fast.top_is_object();
  }
  if (!ok) {
    read = Provenance{};
    ProvenanceBuilder builder(read);
    JsonEventsSax sax(builder);
    ok = nlohmann::json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, /*strict=*/true);
    top_is_object = builder.top_is_object();
  }
  if (!ok || !top_is_object) {
    diags.warning("parse-json", "provenance mapping is not a JSON object; ignored", SourceLoc{path, first_line, 0});
    return;
  }
  c.provenance = std::move(read);
}

// `torch._inductor.config.emulate_precision_casts = True` lines of fx_graph_runnable.py, and
// its "# torch version:" header.
// Everything read here precedes the model's code (`class Repro(...)`): of a file, the rest (most
// of it) is not read at all.
void read_runnable(std::string_view text, Compile& c, std::string& torch_version) {
  std::vector<scan::ConfigLine> lines;
  if (scan::runnable_config(text, lines) != scan::Match::Unsure) {
    for (const auto& l : lines)
      c.config[std::string(l.module.substr(1)) + "." + std::string(l.key)] = std::string(l.value);
  } else {
    static const RE2 cfg(scan::kRunnableConfigPattern);
    re2::StringPiece in(text.data(), text.size());
    std::string mod, key, val;
    while (RE2::FindAndConsume(&in, cfg, &mod, &key, &val)) c.config[mod.substr(1) + "." + key] = val;
  }
  std::string_view version;
  scan::Match found = scan::torch_version(text, version);
  if (found == scan::Match::Yes) {
    torch_version = std::string(version);
  } else if (found == scan::Match::Unsure) {
    static const RE2 ver(scan::kTorchVersionPattern);
    std::string v;
    if (RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), ver, &v)) torch_version = v;
  }
}

// Most compiles one thread builds together so their C++ wrappers can share Clang runs.
constexpr size_t kWrapperBatchCompiles = 64;
// Whether an output_code.py text holds the C++ wrapper of a cpp_wrapper=True compile: `cpp_wrapper_src = (`.
// torch 2.11 starts Python-wrapper modules with `# AOT ID:` and cpp_wrapper=True modules without
// it (see parse_output_code), so the search, ~2 instructions a byte over every Triton module,
// is left out for those. A wrapper missed here is still read, alone: batching is only faster.
bool holds_cpp_wrapper(std::string_view text) {
  static constexpr std::string_view kMark = "cpp_wrapper_src = (";
  if (text.substr(0, 9) == "# AOT ID:") return false;
  return memmem(text.data(), text.size(), kMark.data(), kMark.size()) != nullptr;
}

// The compile's kept text is worth keeping whole while its kernels' sources are most of it; else
// only those slices are kept, in a text of their own (an output_code.py is mostly wrapper where its
// kernels are small: on the benchmark corpus the kernel sources are a fifth of it), if the
// compile's memory budget has room for the copy (a compile past it keeps its text whole: the
// copy would raise the peak the budget bounds).
void keep_only_kernel_sources(Compile& c, const HeapBudget& budget) {
  size_t sliced = 0;
  for (const Kernel& k : c.kernels) sliced += k.text_size;
  if (sliced * 2 >= c.output_code_text.size() || !budget.has_room(sliced)) return;
  std::string kept;
  kept.reserve(sliced);
  for (Kernel& k : c.kernels) {
    if (!k.text_size) continue;
    const auto begin = static_cast<uint32_t>(kept.size());
    kept.append(c.output_code_text, k.text_begin, k.text_size);
    k.text_begin = begin;
  }
  c.output_code_text = std::move(kept);
}

// `output_code` is the text of f.output_code, read by build_compiles; null when there is none
// or its read failed (the read reported why). With keep_kernel_sources it is moved into the
// compile (Compile::output_code_text). With `trace`, the compile is read from that
// TORCH_TRACE's payloads (f is trace->files, `output_code` its output code payload).
void build_one(const CompileFiles& f, Compile& c, std::string& torch_version, size_t& files_read,
               std::vector<size_t>& cpp_kernels, DiagSink& diags, std::string* output_code,
               const ParseOptions& options, HeapBudget& budget, const TraceCompileSource* trace = nullptr) {
  c.files = f;
  std::string text;
  if (trace) {
    // "trace_1_0_inference": the Dynamo compile id [1/0] and the graph's kind.
    std::string cid = f.trace_compile_id;
    std::replace(cid.begin(), cid.end(), '/', '_');
    c.id = "trace_" + cid + "_" + trace->graph_kind;
    c.graph_kind = trace->graph_kind;
    c.model_index = trace->model_index;
    budget.add_input(trace->fx_graph.text.size());
    if (trace->fx_graph.first_line &&
        parse_fx_readable(f.fx_graph_readable, trace->fx_graph.text, c.fx, diags, FxReadableRead::Scan,
                          trace->fx_graph.first_line)) {
      c.fx.origin = trace->fx_graph_event;
      ++files_read;
    }
  } else {
    std::string base = !f.dir.empty() ? fs::path(f.dir.str()).filename().string()
                                      : fs::path((!f.output_code.empty() ? f.output_code : f.fx_json).str()).filename().string();
    c.id = base;
    if (!parse_compile_dir_name(base, c.model_index, c.graph_kind, c.trailing_id)) c.graph_kind = "unknown";
    if (!f.fx_graph_readable.empty()) {
      size_t bytes = 0;
      if (read_fx_readable(f.fx_graph_readable, c.fx, diags, bytes)) ++files_read;
      budget.add_input(bytes);
    }
  }
  if (!f.fx_json.empty() && read_text_file(f.fx_json, text, diags)) {
    budget.add_input(text.size());
    FxGraph g;
    std::string version;
    if (parse_fx_json(f.fx_json, text, g, version, diags)) {
      ++files_read;
      if (c.fx.nodes.empty()) c.fx = std::move(g);
      if (torch_version.empty()) torch_version = version;
    }
  }
  if (!f.output_code.empty() && output_code) {
    budget.add_input(output_code->size(), /*held=*/true);
    // Kept for the report, the text becomes the compile's: its kernels' sources are slices of it.
    if (options.keep_kernel_sources) {
      c.output_code_text = std::move(*output_code);
      output_code = &c.output_code_text;
    }
    parse_output_code(f.output_code, *output_code, c, diags,
                      {&cpp_kernels, trace ? trace->output_code.first_line : 1, options.max_kernel_bytes,
                       options.keep_kernel_sources, &budget});
    ++files_read;
    if (options.keep_kernel_sources) keep_only_kernel_sources(c, budget);
  }
  if (trace) {
    if (trace->provenance.first_line)
      read_provenance(f.provenance_json, trace->provenance.text, trace->provenance.first_line, c, diags);
    if (trace->runnable.first_line) {
      std::string_view runnable = trace->runnable.text;
      read_runnable(runnable.substr(0, runnable.find("\nclass Repro(")), c, torch_version);
    }
  } else {
    if (!f.provenance_json.empty() && read_text_file(f.provenance_json, text, diags))
      read_provenance(f.provenance_json, text, 1, c, diags);
    if (!f.fx_graph_runnable.empty() && read_text_file_head(f.fx_graph_runnable, "\nclass Repro(", text, diags))
      read_runnable(text, c, torch_version);
  }
  if (c.graph_kind == "unknown" && !c.aot_ids.empty()) {
    for (const char* k : {"forward", "backward", "inference"})
      if (c.aot_ids[0].find(k) != std::string::npos) c.graph_kind = k;
  }
  // Graph input kinds from the FX placeholders: tensors, SymInts, SymFloats, 0-d CPU scalars.
  for (auto& in : c.inputs) {
    if (const FxNode* n = c.fx.find(in.name)) {
      in.kind = n->kind;
      if (in.meta.dtype == DType::Unknown) in.meta.dtype = n->meta.dtype;
      if (in.meta.shape.empty()) in.meta.shape = n->meta.shape;
    }
    if (in.kind == ValueKind::Tensor && in.meta.shape.empty() && in.meta.device == "cpu") in.is_cpu_scalar = true;
    if (c.buffer_index.count(in.name)) c.buffers[c.buffer_index[in.name]].meta = in.meta;
  }
  if (c.inputs.empty()) {
    for (const auto& n : c.fx.nodes)
      if (n.op == "placeholder") c.inputs.push_back(GraphInput{n.name, n.kind, n.meta, false});
  }
  // Which post-grad FX nodes each kernel computes: its graph fragment, plus the provenance map.
  for (auto& k : c.kernels) {
    for (auto& [handle, nodes] : c.provenance.kernel_to_post) {
      if (handle.rfind(k.name + ":", 0) != 0 && handle != k.name) continue;
      for (auto& n : nodes)
        if (std::find(k.fx_nodes.begin(), k.fx_nodes.end(), n) == k.fx_nodes.end()) k.fx_nodes.push_back(n);
    }
  }
  // The model of every compile stays in memory until the rules ran: give back the slack that
  // vector growth left (up to half of each vector).
  shrink_slack(c.fx.nodes);
  for (auto& k : c.kernels) k.shrink_to_fit();
  shrink_slack(c.kernels);
  shrink_slack(c.buffers);
  shrink_slack(c.launches);
}

// The C++ kernels the hand reader takes are read right after their compile is built: their sources
// need not wait in memory for the C++ stage (~8% of the model's peak on the benchmark corpus).
// Only those it declines stay in `cpp_kernels`, for that stage, where the installed reader (Clang)
// reads them. The others give up their copy of the source, unless it is kept for a report and is
// no slice of the compile's kept text.
// Past the compile's memory budget a kernel is read by neither reader: it is said, as
// parse_output_code says a Triton kernel past it.
void read_hand_cpp_kernels(Compile& c, std::vector<size_t>& cpp_kernels, bool keep_kernel_sources,
                           const HeapBudget& budget, DiagSink& diags) {
  std::vector<Kernel>& kernels = c.kernels;
  bool hand = cpp_hand_readers_enabled();
  std::erase_if(cpp_kernels, [&](size_t k) {
    if (budget.exceeded()) {
      std::string why = budget.reason();
      diags.warning("memory-budget", "kernel " + kernels[k].name + " not read: " + why, kernels[k].def_loc);
      kernels[k].parse_errors.push_back(std::move(why));
      return true;
    }
    return hand && read_cpp_kernel_hand(kernels[k], c.files.output_code);
  });
  std::vector<char> waiting(kernels.size(), 0);
  for (size_t k : cpp_kernels) waiting[k] = 1;
  for (size_t k = 0; k < kernels.size(); ++k)
    if (!waiting[k]) drop_read_source(kernels[k], keep_kernel_sources);
}

// Runs `build` for one compile. An allocation that fails there (a hostile file under a memory
// limit) leaves the compile out with an error naming its file, and the others are still read.
template <class Build>
void guard_memory(const CompileFiles& f, Compile& c, std::vector<size_t>& cpp_kernels, DiagSink& diags, Build&& build) {
  try {
    build();
  } catch (const std::bad_alloc&) {
    c = Compile{};  // what was built of it goes back first
    std::vector<size_t>().swap(cpp_kernels);
    c.files = f;
    c.id = compile_origin(f);
    diags.error("out-of-memory", "ran out of memory reading this compile; it is left out, the rest is analyzed",
                SourceLoc{f.output_code.empty() ? f.dir : f.output_code, f.trace_output_code_line, 0});
  }
}

// Appends freshly built compiles to the program: ids made unique, the torch version taken from
// the first that names one, and the C++ kernels their build left unread handed on (to
// `cpp_kernels_out`, or read here). Returns the files read.
size_t add_compiles(std::vector<Compile>&& compiles, const std::vector<std::string>& versions,
                    const std::vector<size_t>& read, const std::vector<std::vector<size_t>>& cpp_kernels,
                    Program& program, DiagSink& diags, int jobs, std::vector<CppKernelJob>* cpp_kernels_out) {
  size_t n = compiles.size(), first = program.compiles.size();
  // The C++ kernels of every compile, read together: the reader parses each distinct source
  // once and batches them (many kernels per Clang run), on `jobs` threads. The kernels are
  // addressed in the model's final place (program.compiles, moved below).
  std::vector<std::pair<size_t, size_t>> cpp_refs;
  for (size_t i = 0; i < n; ++i)
    for (size_t k : cpp_kernels[i]) cpp_refs.push_back({first + i, k});
  size_t total = 0;
  bool had_version = !program.torch_version.empty();
  for (size_t i = 0; i < n; ++i) {
    total += read[i];
    if (program.torch_version.empty() && !versions[i].empty()) program.torch_version = versions[i];
  }
  // Two compiles may share a folder name when several runs are given: make ids unique.
  std::map<std::string, int> seen;
  for (const auto& c : program.compiles) seen[c.id]++;
  for (auto& c : compiles) {
    int k = seen[c.id]++;
    if (k > 0) c.id += "#" + std::to_string(k + 1);
  }
  for (auto& c : compiles) program.compiles.push_back(std::move(c));
  std::vector<CppKernelJob> cpp_jobs;
  for (auto [i, k] : cpp_refs)
    cpp_jobs.push_back({&program.compiles[i].kernels[k], program.compiles[i].files.output_code});
  if (cpp_kernels_out) cpp_kernels_out->insert(cpp_kernels_out->end(), cpp_jobs.begin(), cpp_jobs.end());
  else read_cpp_kernels_with_reader(cpp_jobs, diags, jobs);  // the hand reader had them in `build`
  if (!had_version && !program.torch_version.empty()) {
    // Other releases may lay out their files differently.
    if (!is_tested_torch_version(program.torch_version))
      diags.warning("version-mismatch",
                    "input was written by torch " + program.torch_version + "; inductor-lint is tested on " +
                        kTestedTorchText + " output, so some facts may be missing",
                    SourceLoc{n ? program.compiles[first].files.fx_graph_runnable : FilePath(), 0, 0});
  }
  return total;
}

}  // namespace

void read_cpp_kernels(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs) {
  if (cpp_kernels.empty()) return;
  if (!cpp_hand_readers_enabled()) {
    read_cpp_kernels_with_reader(cpp_kernels, diags, jobs);
    return;
  }
  // The hand reader first (cpp_hand.h); what it declines goes to the installed reader (Clang),
  // which is then loaded only when some kernel needs it.
  std::vector<char> read(cpp_kernels.size(), 0);
  parallel_for(cpp_kernels.size(), jobs, [&](size_t i) {
    if (cpp_kernels[i].kernel) read[i] = read_cpp_kernel_hand(*cpp_kernels[i].kernel, cpp_kernels[i].file);
  });
  std::vector<CppKernelJob> declined;
  for (size_t i = 0; i < cpp_kernels.size(); ++i)
    if (!read[i]) declined.push_back(cpp_kernels[i]);
  read_cpp_kernels_with_reader(declined, diags, jobs);
}

void read_cpp_kernels_with_reader(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs) {
  if (cpp_kernel_reader() && !cpp_kernels.empty()) cpp_kernel_reader()(cpp_kernels, diags, jobs);
}

size_t build_compiles(const IngestResult& in, Program& program, DiagSink& diags, int jobs,
                      std::vector<CppKernelJob>* cpp_kernels_out, const ParseOptions& options) {
  size_t n = in.compiles.size();
  std::vector<Compile> compiles(n);
  std::vector<std::string> versions(n);
  std::vector<size_t> read(n, 0);
  std::vector<std::vector<size_t>> cpp_kernels(n);
  auto build = [&](size_t i, std::string* output_code) {
    // Hashed before the build moves the text into the compile; set after, so that a compile left
    // out for want of memory (guard_memory empties it) still matches its TORCH_TRACE payload.
    const uint64_t hash = options.hash_output_code && output_code ? text_hash(*output_code) : 0;
    guard_memory(in.compiles[i], compiles[i], cpp_kernels[i], diags, [&] {
      HeapBudget budget(options.max_memory_ratio);
      build_one(in.compiles[i], compiles[i], versions[i], read[i], cpp_kernels[i], diags, output_code,
                options, budget);
      read_hand_cpp_kernels(compiles[i], cpp_kernels[i], options.keep_kernel_sources, budget, diags);
    });
    compiles[i].output_code_hash = hash;
  };
  // With the Clang reader, C++ wrappers are parsed several per Clang run (half of a wrapper's
  // parse is a fixed cost): a thread takes runs of consecutive compiles, and at the first
  // output_code.py of a run that holds a wrapper it reads the rest of the run's texts and hands
  // those holding one to the batcher. A run without wrappers reads one text at a time into one
  // buffer, as a run of one compile does. Runs are short enough to leave every thread a share.
  const CppWrapperBatcher& batcher = cpp_wrapper_batcher();
  size_t threads = static_cast<size_t>(std::max(jobs, 1));
  size_t per_run = batcher ? std::clamp<size_t>(n / (2 * threads), 1, kWrapperBatchCompiles) : 1;
  size_t runs = (n + per_run - 1) / per_run;
  parallel_for(runs, jobs, [&](size_t r) {
    size_t lo = r * per_run, hi = std::min(n, lo + per_run);
    std::string buffer;             // the text being built, reused unless the compile keeps it
    std::vector<std::string> ahead;  // texts read ahead, at index - lo
    std::vector<signed char> ahead_read;  // -1: not read ahead, 0: the read failed, 1: read
    std::shared_ptr<void> prepared;  // the run's wrapper batches, until the run is built
    for (size_t i = lo; i < hi; ++i) {
      const FilePath& path = in.compiles[i].output_code;
      if (path.empty()) {
        build(i, nullptr);
        continue;
      }
      if (!ahead_read.empty() && ahead_read[i - lo] >= 0) {
        build(i, ahead_read[i - lo] ? &ahead[i - lo] : nullptr);
        std::string().swap(ahead[i - lo]);
        continue;
      }
      bool ok = read_text_file(path, buffer, diags);
      if (ok && batcher && ahead_read.empty() && i + 1 < hi && holds_cpp_wrapper(buffer)) {
        ahead.resize(hi - lo);
        ahead_read.assign(hi - lo, -1);
        std::vector<std::string_view> with_wrapper{buffer};
        for (size_t j = i + 1; j < hi; ++j) {
          if (in.compiles[j].output_code.empty()) continue;
          ahead_read[j - lo] = read_text_file(in.compiles[j].output_code, ahead[j - lo], diags) ? 1 : 0;
          if (ahead_read[j - lo] && holds_cpp_wrapper(ahead[j - lo]))
            with_wrapper.push_back(ahead[j - lo]);
        }
        // Wrappers the hand reader takes never reach Clang: when it takes them all (or all but
        // one), the Clang module is not loaded for them. Its answers are kept for the reads.
        if (cpp_hand_readers_enabled())
          std::erase_if(with_wrapper, [](std::string_view t) { return cpp_wrapper_hand_accepts(t); });
        if (with_wrapper.size() >= 2) prepared = batcher(with_wrapper);
      }
      build(i, ok ? &buffer : nullptr);
    }
  });
  return add_compiles(std::move(compiles), versions, read, cpp_kernels, program, diags, jobs, cpp_kernels_out);
}

size_t build_trace_compiles(std::vector<TraceCompileSource>&& sources, Program& program, DiagSink& diags, int jobs,
                            const ParseOptions& options) {
  size_t n = sources.size();
  std::vector<Compile> compiles(n);
  std::vector<std::string> versions(n);
  std::vector<size_t> read(n, 0);
  std::vector<std::vector<size_t>> cpp_kernels(n);
  parallel_for(n, jobs, [&](size_t i) {
    TraceCompileSource& src = sources[i];
    const CompileFiles files = src.files;
    guard_memory(files, compiles[i], cpp_kernels[i], diags, [&] {
      HeapBudget budget(options.max_memory_ratio);
      build_one(src.files, compiles[i], versions[i], read[i], cpp_kernels[i], diags, &src.output_code.text,
                options, budget, &src);
      src = TraceCompileSource{};  // the payloads are in the model now
      read_hand_cpp_kernels(compiles[i], cpp_kernels[i], options.keep_kernel_sources, budget, diags);
    });
  });
  return add_compiles(std::move(compiles), versions, read, cpp_kernels, program, diags, jobs, nullptr);
}

}  // namespace ilint
