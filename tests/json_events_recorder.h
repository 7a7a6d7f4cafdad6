// Every JSON event as one line of text, for comparing scan::json_strings with nlohmann's parse
// (through JsonEventsSax) in the unit test and the fuzz target.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/parse/json_events_sax.h"

namespace ilint::testing {

struct RecordedJson : scan::JsonEvents {
  std::vector<std::string> events;
  void start_object() override { events.push_back("{"); }
  void end_object() override { events.push_back("}"); }
  void start_array() override { events.push_back("["); }
  void end_array() override { events.push_back("]"); }
  void key(std::string_view k) override { events.push_back("k " + std::string(k)); }
  void string(std::string_view s) override { events.push_back("s " + std::string(s)); }
  void scalar() override { events.push_back("scalar"); }
};

}  // namespace ilint::testing
