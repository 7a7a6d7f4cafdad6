// The Dynamo layer of the model: the Dynamo logs read, joined to the compiles.
#pragma once
#include <memory>
#include <vector>

#include "analyzer/ingest/ingest.h"
#include "analyzer/model/program.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Dynamo layer (analyzer/dynamo/), in two steps. read_dynamo_logs reads every capture's TORCH_LOGS
// text, TORCH_TRACE and debug.log; it needs only the ingest, so analyze() runs it beside the
// reading of the C++ kernels when it has two threads or more. build_dynamo_model then fills
// program.dynamo from what was read and joins frames to compiles (it reads the compiles'
// kernels and FX graphs); it returns the number of files read by both steps.
struct DynamoLogs;
std::shared_ptr<DynamoLogs> read_dynamo_logs(const IngestResult& in, DiagSink& diags);
size_t build_dynamo_model(const IngestResult& in, DynamoLogs& logs, Program& program, DiagSink& diags);
// Between the two: the compiles whose output code a capture's TORCH_TRACE holds and none of the
// capture's compile folders does (the same text: Compile::output_code_hash, which the parse stage
// set), moved out of `logs` for build_trace_compiles. The payloads of the others are dropped.
std::vector<TraceCompileSource> take_unread_trace_compiles(DynamoLogs& logs, const Program& program, DiagSink& diags);
// Both steps, one after the other.
size_t build_dynamo_model(const IngestResult& in, Program& program, DiagSink& diags);

}  // namespace ilint
