// What a rule reports. A finding is a claim about the compiled program, with the facts of the
// model that support it (`evidence`), a primary location in generated code and related
// locations in the user's source.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/util/source_loc.h"

namespace ilint {

enum class Severity { Error, Warning, Note };
const char* severity_name(Severity s);
std::optional<Severity> parse_severity(const std::string& s);

struct RelatedLocation {
  SourceLoc loc;
  std::string message;  // "user source: torch.cumulative_trapezoid(y, x, dim=-1)"
};

// A finding's `message` is its headline: one line of at most this many bytes saying what goes wrong,
// where (the user's op, FX node or function) and why it matters, short enough for a terminal line or
// a table cell; everything else the rule has to say goes to `notes`.
inline constexpr size_t kHeadlineMaxBytes = 120;

struct Finding {
  std::string rule;          // rule id, "reduced-precision-scan"
  Severity severity = Severity::Warning;
  std::string message;       // the headline (kHeadlineMaxBytes)
  // The detail sentences that follow the headline, in order: the numbers, node names, index points
  // and bounds behind the claim. The reports print them under the headline.
  std::vector<std::string> notes;
  SourceLoc location;        // generated code: the kernel line or the fallback call
  std::vector<RelatedLocation> related;  // user source first
  std::string compile_id;    // Compile::id the finding is about (empty for frame-level findings)
  std::string kernel;        // kernel name, when the finding is about one
  nlohmann::json evidence = nlohmann::json::object();  // the model facts the rule used
  std::string fix;           // what to do, one paragraph
  // Stable across re-compiles: built from the rule id, the user-source location and the
  // rule's own stable key (never kernel names, buffer numbers or generated-code lines).
  std::string fingerprint_key;
  std::string fingerprint;   // filled by finalize_findings()
  nlohmann::json confirmation;  // set by `confirm`: verdict and numbers; null when not confirmed
};

// A finding the config or an inline comment accepted: reported as suppressed, never counted.
struct SuppressedFinding {
  Finding finding;
  std::string reason;
  SourceLoc suppressed_by;  // the config entry, or the user's line that carries the comment
  bool in_source = false;   // by a `# inductor-lint: ignore[...]` comment (config/inline_suppressions.h)
};

// One piece of a headline: the rule's own words, or (input_text) a name taken from the input: a
// function, a scalar, a line of user code, of any length.
struct HeadlinePiece {
  HeadlinePiece(std::string t) : text(std::move(t)) {}  // NOLINT: the rule's own words
  HeadlinePiece(const char* t) : text(t) {}             // NOLINT
  std::string text;
  bool from_input = false;
};
inline HeadlinePiece input_text(std::string s) {
  HeadlinePiece p(std::move(s));
  p.from_input = true;
  return p;
}

// The pieces joined into a headline. Where the whole would pass kHeadlineMaxBytes, the longest pieces
// taken from the input lose their middle to "..." (at UTF-8 character boundaries, never below a dozen
// bytes) until it fits: the rule's notes carry those names whole.
std::string fit_headline(const std::vector<HeadlinePiece>& pieces);

// Computes fingerprints and sorts findings deterministically.
void finalize_findings(std::vector<Finding>& findings);

}  // namespace ilint
