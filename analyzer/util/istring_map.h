// A small sorted map of interned strings, for the model's per-node keyword tables (FX node and
// kernel launch kwargs: "dim" -> "3", usually 0-3 entries). A std::map<std::string, std::string>
// cost a 48-byte header in every node and ~110 bytes per entry; this is a vector header and 16 bytes
// per entry. Iteration is in key order, as std::map's was, so reports keep their byte order.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/util/source_loc.h"

namespace ilint {

class IStringMap {
 public:
  using value_type = std::pair<IString, IString>;
  using const_iterator = std::vector<value_type>::const_iterator;
  using iterator = std::vector<value_type>::iterator;

  // The value for `key`, inserted empty (in key order) when absent.
  IString& operator[](std::string_view key) {
    auto it = lower(key);
    if (it == items_.end() || std::string_view(it->first) != key) it = items_.emplace(it, IString(key), IString());
    return it->second;
  }
  const_iterator find(std::string_view key) const {
    auto it = std::lower_bound(items_.begin(), items_.end(), key, key_less);
    return it != items_.end() && std::string_view(it->first) == key ? it : items_.end();
  }
  const IString& at(std::string_view key) const {
    auto it = find(key);
    if (it == items_.end()) throw std::out_of_range("IStringMap::at");
    return it->second;
  }
  size_t count(std::string_view key) const { return find(key) == items_.end() ? 0 : 1; }
  bool contains(std::string_view key) const { return find(key) != items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void shrink_to_fit() { items_.shrink_to_fit(); }
  bool operator==(const IStringMap&) const = default;

 private:
  static bool key_less(const value_type& e, std::string_view k) { return std::string_view(e.first) < k; }
  iterator lower(std::string_view key) { return std::lower_bound(items_.begin(), items_.end(), key, key_less); }
  std::vector<value_type> items_;
};

}  // namespace ilint
