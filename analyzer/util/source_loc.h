// A position in an input file. Lines and columns are 1-based, as compilers print them.
#pragma once
#include <compare>
#include <iosfwd>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace ilint {

// A file path, interned: every location in one file shares one copy of its path. Locations are
// the most numerous objects of the model (each load, store, statement, literal and FX node has
// one), and a full path string in each was the largest part of the model's memory. Copies are
// a pointer copy; equality is pointer equality. Paths are never freed (a run reads a bounded
// set of files).
class FilePath {
 public:
  FilePath();
  FilePath(const std::string& s);  // NOLINT: a path is written wherever a string was
  FilePath(std::string_view s);    // NOLINT
  FilePath(const char* s);         // NOLINT

  const std::string& str() const { return *s_; }
  operator const std::string&() const { return *s_; }  // NOLINT
  operator std::string_view() const { return *s_; }    // NOLINT
  const char* c_str() const { return s_->c_str(); }
  bool empty() const { return s_->empty(); }
  size_t size() const { return s_->size(); }
  size_t find(std::string_view what, size_t pos = 0) const { return s_->find(what, pos); }
  size_t rfind(std::string_view what, size_t pos = std::string::npos) const { return s_->rfind(what, pos); }
  std::string substr(size_t pos, size_t n = std::string::npos) const { return s_->substr(pos, n); }

  friend bool operator==(const FilePath& a, const FilePath& b) { return a.s_ == b.s_; }
  friend bool operator==(const FilePath& a, const std::string& b) { return *a.s_ == b; }
  friend bool operator==(const FilePath& a, const char* b) { return *a.s_ == b; }
  friend std::strong_ordering operator<=>(const FilePath& a, const FilePath& b) {
    if (a.s_ == b.s_) return std::strong_ordering::equal;
    int c = a.s_->compare(*b.s_);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  }
  friend std::string operator+(const FilePath& a, const std::string& b) { return *a.s_ + b; }
  friend std::string operator+(const FilePath& a, const char* b) { return *a.s_ + b; }
  friend std::string operator+(const std::string& a, const FilePath& b) { return a + *b.s_; }
  friend std::string operator+(const char* a, const FilePath& b) { return a + *b.s_; }

 private:
  const std::string* s_;
};

std::ostream& operator<<(std::ostream& os, const FilePath& p);
void to_json(nlohmann::json& j, const FilePath& p);

struct SourceLoc {
  FilePath file;  // path as found during ingest (or the user's path, for user source lines)
  int line = 0;
  int column = 0;

  bool valid() const { return !file.empty() && line > 0; }
  bool operator==(const SourceLoc&) const = default;
};

}  // namespace ilint
