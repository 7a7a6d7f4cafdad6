// JSON values compared as nlohmann builds them, for tests and fuzz targets that hold a second
// reader of JSON against nlohmann's parse.
#pragma once
#include <nlohmann/json.hpp>

namespace ilint::testing {

// Same type and value all the way down (nlohmann's own == calls 1u and 1 equal).
inline bool same_json(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto jt = b.find(it.key());
      if (jt == b.end() || !same_json(*it, *jt)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_json(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

}  // namespace ilint::testing
