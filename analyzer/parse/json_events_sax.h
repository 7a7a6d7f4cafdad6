// nlohmann's SAX events into a scan::JsonEvents handler: one handler serves both the hand
// scanner (scan::json_strings) and nlohmann's parse of what the scanner leaves.
#pragma once
#include <nlohmann/json.hpp>

#include "analyzer/parse/line_scan.h"

namespace ilint {

class JsonEventsSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit JsonEventsSax(scan::JsonEvents& e) : e_(e) {}
  bool start_object(std::size_t) override { return e_.start_object(), true; }
  bool end_object() override { return e_.end_object(), true; }
  bool start_array(std::size_t) override { return e_.start_array(), true; }
  bool end_array() override { return e_.end_array(), true; }
  bool key(string_t& k) override { return e_.key(k), true; }
  bool string(string_t& s) override { return e_.string(s), true; }
  bool null() override { return e_.scalar(), true; }
  bool boolean(bool) override { return e_.scalar(), true; }
  bool number_integer(number_integer_t) override { return e_.scalar(), true; }
  bool number_unsigned(number_unsigned_t) override { return e_.scalar(), true; }
  bool number_float(number_float_t, const string_t&) override { return e_.scalar(), true; }
  bool binary(binary_t&) override { return e_.scalar(), true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  scan::JsonEvents& e_;
};

}  // namespace ilint
