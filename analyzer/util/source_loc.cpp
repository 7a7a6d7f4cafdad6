#include "analyzer/util/source_loc.h"

#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_set>

namespace ilint {

namespace {

const std::string kEmpty;

const std::string* intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  // Locations of one file are made one after another: the last path of this thread is almost
  // always the one asked for, and needs no lock.
  thread_local const std::string* last = nullptr;
  if (last && *last == s) return last;
  static std::mutex mu;
  // Never destroyed: locations in static objects may be used during static destruction.
  static auto* pool = new std::unordered_set<std::string>;
  std::lock_guard<std::mutex> lock(mu);
  last = &*pool->emplace(s).first;  // node-based: the address is stable
  return last;
}

}  // namespace

FilePath::FilePath() : s_(&kEmpty) {}
FilePath::FilePath(const std::string& s) : s_(intern(s)) {}
FilePath::FilePath(std::string_view s) : s_(intern(s)) {}
FilePath::FilePath(const char* s) : s_(intern(s ? std::string_view(s) : std::string_view())) {}

std::ostream& operator<<(std::ostream& os, const FilePath& p) { return os << p.str(); }
void to_json(nlohmann::json& j, const FilePath& p) { j = p.str(); }

}  // namespace ilint
