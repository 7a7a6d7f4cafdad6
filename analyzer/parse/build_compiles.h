// The parse stage: the ingested compiles (and those a TORCH_TRACE alone holds) into the model.
#pragma once
#include <vector>

#include "analyzer/ingest/ingest.h"
#include "analyzer/model/program.h"
#include "analyzer/cpp/cpp_reader_hook.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Parse stage: fills program.compiles from the ingested files. Returns the number of files read.
// C++ kernels the hand reader takes (cpp_hand.h) are read here, with their compile. With
// `cpp_kernels`, those it declines are not read here: they are appended for
// read_cpp_kernels_with_reader (the pipeline times that stage apart); without it, they are read
// before returning.
struct ParseOptions {
  // Each kernel's copy of its source is dropped once read (the declined C++ kernels keep theirs for
  // that reader). With it, the sources stay as slices of the compile's kept text (Compile::source_of).
  bool keep_kernel_sources = true;
  size_t max_kernel_bytes = kDefaultMaxKernelBytes;  // parse_output_code's limit
  // A compile's model may take this many bytes of memory per byte of its files (at least
  // kMemoryBudgetFloor): the kernels met past it are not read (HeapBudget). 0: no limit.
  size_t max_memory_ratio = kDefaultMaxMemoryRatio;
  // Sets each folder compile's output_code_hash (an input with a TORCH_TRACE log).
  bool hash_output_code = false;
};
size_t build_compiles(const IngestResult& in, Program& program, DiagSink& diags, int jobs,
                      std::vector<CppKernelJob>* cpp_kernels = nullptr, const ParseOptions& options = {});

// Parse stage for the compiles a TORCH_TRACE log holds and no compile folder of the input gives
// (take_unread_trace_compiles): each is read from its payloads as a folder is read from its
// files, appended to program.compiles, and its C++ kernels read. Returns the payloads read.
size_t build_trace_compiles(std::vector<TraceCompileSource>&& sources, Program& program, DiagSink& diags, int jobs,
                            const ParseOptions& options = {});

// Reads C++ kernels: the hand reader first (when on, cpp_hand.h), then the installed reader for
// what it declines (every distinct source once, batched, on `jobs` threads). Without a reader,
// declined kernels keep their signature facts.
void read_cpp_kernels(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs);
// The installed reader alone: for the kernels build_compiles left, which its hand reader has
// declined already (or all of them, with the hand readers off).
void read_cpp_kernels_with_reader(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs);

}  // namespace ilint
