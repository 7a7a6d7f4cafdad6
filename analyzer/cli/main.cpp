#include <iostream>
#include "analyzer/pipeline.h"
#ifdef ILINT_HAVE_CLANG
#include "analyzer/clang/clang_reader.h"
#endif
int main(int argc, char** argv) {
#ifdef ILINT_HAVE_CLANG
  ilint::install_optional_readers();  // the Clang C++ kernel reader
#endif
  ilint::AnalyzeOptions o;
  for (int i = 1; i < argc; ++i) o.paths.push_back(argv[i]);
  ilint::Analysis a;
  ilint::analyze(o, a);
  std::cout << a.findings.size() << " findings\n";
}
