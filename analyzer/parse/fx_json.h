// FX graphs as JSON (docs/fx-graph-json.md), as written by tools/export_fx_json.py.
#pragma once
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

bool parse_fx_json(const FilePath& path, const std::string& text, FxGraph& out, std::string& torch_version,
                   DiagSink& diags);

}  // namespace ilint
