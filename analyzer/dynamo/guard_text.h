// The guard tree Dynamo prints (TORCH_LOGS=guards after "TREE_GUARD_MANAGER:", and the payload of
// the TORCH_TRACE dynamo_cpp_guards_str event), and the guard-failure lines of a recompile.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/model/dynamo.h"

namespace ilint::dynamo {

// One line of the tree: `| | +- EQUALS_MATCH: L['___stack0'] == 1.0   # bc1 = ...  # f.py:11 in fn`.
// `GuardManager: source=L['x'], ..., type=<class 'float'>` lines come back with kind "GuardManager",
// source set and value = the Python type name ("float"); `RootGuardManager` gives nullopt.
// `depth` receives the nesting depth (number of "| " before "+- ").
std::optional<Guard> parse_guard_tree_line(std::string_view line, const SourceLoc& loc, int* depth = nullptr);

// Splits a guard's trailing comment: "bc1 = 1 - 0.9 ** step  # ork/steering/probe/seed1.py:11 in fn"
// into user code and location; "(unknown source ..., please file a bug)" and internal Dynamo
// locations (_dynamo/...) give no user location.
void split_guard_comment(const std::string& comment, std::string& user_code, std::optional<SourceLoc>& user_loc,
                         std::string& function);

// A recompile reason: "2/0: ___stack0 == 1.0   # bc1 = ...  # f.py:11 in fn".
struct GuardFailure {
  std::string compile_id;   // "2/0": the cache entry whose guard failed
  std::string guard;        // "___stack0 == 1.0"
  std::string source;       // "___stack0"
  std::string value;        // "1.0" for == forms
  std::string user_code;
  std::optional<SourceLoc> user_loc;
};
std::optional<GuardFailure> parse_guard_failure(std::string_view text);

// "L['___stack0']" / "___stack0" / "___as_tensor(L['x']).item()" -> "___stack0" / "x". Empty when the
// source is not a plain frame local.
std::string local_name_of(std::string_view source);

// For "X == V" expressions: fills source (X with ___as_tensor(...).item() unwrapped) and value.
bool split_equality(std::string_view expr, std::string& source, std::string& value);

}  // namespace ilint::dynamo
