// The whole model: every compile found under the inputs, and the Dynamo layer that joins them.
#pragma once
#include <string>
#include <vector>

#include "analyzer/model/dynamo.h"
#include "analyzer/model/model.h"

namespace ilint {

struct Program {
  std::vector<Compile> compiles;
  DynamoModel dynamo;
  std::vector<std::string> inputs;   // paths the user gave
  std::string torch_version;         // when any file states it ("2.11.0+cu130")

  const Compile* compile(const std::string& id) const {
    for (const auto& c : compiles)
      if (c.id == id) return &c;
    return nullptr;
  }
};

}  // namespace ilint
