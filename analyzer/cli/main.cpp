#include <iostream>
#include "analyzer/pipeline.h"
int main(int argc, char** argv) {
  ilint::AnalyzeOptions o;
  for (int i = 1; i < argc; ++i) o.paths.push_back(argv[i]);
  ilint::Analysis a;
  ilint::analyze(o, a);
  std::cout << a.findings.size() << " findings\n";
}
