#include "analyzer/util/source_loc.h"

#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>
#include <unordered_set>

namespace ilint {

namespace {

const std::string kEmpty;

const std::string* intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  // Locations of one file are made one after another: the last value of this thread is very
  // often the one asked for, and needs no lock; then this thread's own table, then the shared one.
  thread_local const std::string* last = nullptr;
  if (last && *last == s) return last;
  thread_local std::unordered_map<std::string_view, const std::string*> mine;
  auto it = mine.find(s);
  if (it != mine.end()) return last = it->second;
  static std::mutex mu;
  // Never destroyed: values in static objects may be used during static destruction.
  static auto* pool = new std::unordered_set<std::string>;
  {
    std::lock_guard<std::mutex> lock(mu);
    last = &*pool->emplace(s).first;  // node-based: the address is stable
  }
  mine.emplace(*last, last);  // keyed by a view of the pooled string itself
  return last;
}

}  // namespace

IString::IString() : s_(&kEmpty) {}
IString::IString(const std::string& s) : s_(intern(s)) {}
IString::IString(std::string_view s) : s_(intern(s)) {}
IString::IString(const char* s) : s_(intern(s ? std::string_view(s) : std::string_view())) {}

std::ostream& operator<<(std::ostream& os, const IString& p) { return os << p.str(); }
void to_json(nlohmann::json& j, const IString& p) { j = p.str(); }

}  // namespace ilint
