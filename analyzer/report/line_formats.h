// The one-line-per-finding formats, both at the finding's review location (the user's line when
// the model knows it, review_location.h) with the finding's headline:
//   concise:  path:line:col: severity: headline [rule-id]          (ruff's and clang-tidy's shape)
//   github:   ::warning file=path,line=N,col=C,title=inductor-lint (rule-id)::headline
// github is GitHub Actions' workflow command for an annotation (docs.github.com, "Workflow commands
// for GitHub Actions"), escaped as actions/toolkit's command.ts escapes it; for repositories
// without code scanning. Paths are made relative to the source root when under it.
#pragma once
#include <ostream>
#include <string>

#include "analyzer/pipeline.h"

namespace ilint {

void write_concise(const Analysis& a, const std::string& source_root, std::ostream& os);
void write_github(const Analysis& a, const std::string& source_root, std::ostream& os);

// actions/toolkit's escapeData (a message) and escapeProperty (a property value).
std::string github_escape_data(const std::string& s);
std::string github_escape_property(const std::string& s);

}  // namespace ilint
