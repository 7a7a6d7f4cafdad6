// The kernel form census: every statement and call form in every kernel of every capture (the 2.11
// fixtures, the 2.12-2.14 matrix, the kernel-form captures of fixtures/forms/) has an entry in
// analyzer/parse/kernel_forms.cpp, which says how the model holds it or why nothing needs holding.
// A new torch that writes a form no reader models fails here, instead of a rule passing over it.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "analyzer/model/names.h"
#include "analyzer/parse/kernel_forms.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

// Every capture: the 2.11 fixtures, each release of the matrix, each archive of fixtures/forms/.
std::vector<fs::path> all_captures() {
  std::vector<fs::path> out = capture_folders(fixture(""));
  for (const char* set : {ILINT_VERSION_FIXTURES_DIR, ILINT_FORMS_FIXTURES_DIR})
    for (const auto& archive : fs::directory_iterator(set))
      for (const auto& c : capture_folders(archive.path())) out.push_back(c);
  std::sort(out.begin(), out.end());  // by full path: "first seen in" is the first in this order
  return out;
}

struct Seen {
  size_t kernels = 0;
  std::string first;  // capture name
};

// backend/form -> where seen, over all captures (read once for the whole file).
const std::map<std::pair<KernelBackend, std::string>, Seen>& census() {
  static const auto* seen = [] {
    auto* out = new std::map<std::pair<KernelBackend, std::string>, Seen>;
    for (const auto& dir : all_captures()) {
      Analysis a;
      run_analysis({(dir / "torch_compile_debug").string()}, a);
      for (const auto& c : a.program.compiles)
        for (const auto& k : c.kernels)
          for (const auto& f : k.forms) {
            Seen& s = (*out)[{k.backend, f.str()}];
            if (!s.kernels++) s.first = dir.filename().string();
          }
    }
    return out;
  }();
  return *seen;
}

// The path of a capture of fixtures/forms/.
std::string forms_capture(const std::string& capture) {
  for (const auto& archive : fs::directory_iterator(ILINT_FORMS_FIXTURES_DIR))
    if (fs::is_directory(archive.path() / capture)) return (archive.path() / capture).string();
  ADD_FAILURE() << "no capture " << capture << " in fixtures/forms/";
  return capture;
}

std::vector<const MemAccess*> accesses(const Analysis& a, bool stores, const std::string& ptr_prefix = "") {
  std::vector<const MemAccess*> out;
  for (const auto& c : a.program.compiles)
    for (const auto& k : c.kernels)
      for (const auto& m : stores ? k.stores : k.loads)
        if (m.ptr.str().rfind(ptr_prefix, 0) == 0 && !m.ptr.empty()) out.push_back(&m);
  return out;
}

}  // namespace

TEST(KernelForms, EveryFormOfEveryCaptureIsModeledOrDeclaredWithoutEffect) {
  ASSERT_GE(all_captures().size(), 120u);
  size_t forms = 0;
  for (const auto& [key, seen] : census()) {
    ++forms;
    const KernelForm* f = find_kernel_form(key.first, key.second);
    EXPECT_NE(f, nullptr) << backend_name(key.first) << " form `" << key.second << "` (" << seen.kernels
                          << " kernels, first in " << seen.first << ") has no entry in kernel_forms.cpp";
  }
  EXPECT_GE(forms, 90u);
  // ILINT_PRINT_CENSUS=1: the doc's table rows, from the entries and the census.
  if (std::getenv("ILINT_PRINT_CENSUS"))
    for (const auto& f : kernel_forms()) {
      std::string first = "-";
      size_t kernels = 0;
      for (const auto& [key, seen] : census())
        if (key.first == f.backend && find_kernel_form(key.first, key.second) == &f) {
          if (!kernels) first = seen.first;
          kernels += seen.kernels;
        }
      std::cout << "| " << backend_name(f.backend) << " | `" << f.form << "` | "
                << (f.handling == FormHandling::Modeled ? "modeled" : "no effect") << " | " << first << " | " << f.how
                << " |\n";
    }
}

// docs/kernel-forms.md is the table: one row per entry, with its handling and a capture that holds it.
TEST(KernelForms, TheDocListsEveryEntryWithACaptureThatHoldsIt) {
  std::ifstream in(std::string(ILINT_FIXTURES_DIR) + "/../docs/kernel-forms.md");
  ASSERT_TRUE(in) << "docs/kernel-forms.md";
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> rows;  // (backend, form) -> (handling, seen in)
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    size_t p = 1;
    while (p < line.size()) {
      size_t q = line.find(" |", p);
      if (q == std::string::npos) break;
      std::string cell = line.substr(p + 1, q - p - 1);
      if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') cell = cell.substr(1, cell.size() - 2);
      cells.push_back(cell);
      p = q + 2;
    }
    if (cells.size() >= 4 && (cells[0] == "triton" || cells[0] == "cpp")) rows[{cells[0], cells[1]}] = {cells[2], cells[3]};
  }
  for (const auto& f : kernel_forms()) {
    auto it = rows.find({backend_name(f.backend), std::string(f.form)});
    ASSERT_NE(it, rows.end()) << backend_name(f.backend) << " " << f.form << " is not in docs/kernel-forms.md";
    EXPECT_EQ(it->second.first, f.handling == FormHandling::Modeled ? "modeled" : "no effect") << f.form;
    // Where seen: a capture holding it, or "-" for a form no capture holds yet.
    const std::string& seen_in = it->second.second;
    size_t kernels = 0;
    bool in_named = false;
    for (const auto& [key, seen] : census())
      if (key.first == f.backend && find_kernel_form(key.first, key.second) == &f) {
        kernels += seen.kernels;
        in_named |= seen.first == seen_in;
      }
    if (seen_in == "-") EXPECT_EQ(kernels, 0u) << f.form << " is seen now: name a capture";
    else EXPECT_TRUE(in_named) << f.form << ": " << seen_in << " is not the first capture that holds it";
  }
  EXPECT_EQ(rows.size(), kernel_forms().size());
}

// Each compute dtype the model reports is known: a reduction or scan "computed in unknown" is a
// reader's defect.
TEST(KernelForms, EveryReductionHasAKnownComputeDtype) {
  for (const auto& dir : all_captures()) {
    Analysis a;
    run_analysis({(dir / "torch_compile_debug").string()}, a);
    for (const auto& c : a.program.compiles)
      for (const auto& k : c.kernels)
        for (const auto& r : k.reductions)
          EXPECT_NE(r.compute_dtype, DType::Unknown) << dir.filename() << " " << k.name << " line " << r.loc.line;
  }
}

// The memory forms of fixtures/forms/, each in the model where the kernel source has it.
TEST(KernelForms, AtomicsAreStoresWithTheirMask) {
  Analysis a;
  run_analysis({forms_capture("forms_atomic_add")}, a);
  auto stores = accesses(a, true, "out_ptr");
  size_t atomics = 0;
  for (const auto* m : stores)
    if (m->atomic) {
      ++atomics;
      EXPECT_EQ(m->mask.str(), "xmask");
      EXPECT_FALSE(m->var.empty());
    }
  EXPECT_GE(atomics, 5u);
  Analysis cpu;
  run_analysis({forms_capture("forms_cpu_atomic_add")}, cpu);
  size_t vec = 0;
  for (const auto* m : accesses(cpu, true, "out_ptr")) vec += m->atomic && m->vectorized;
  EXPECT_GE(vec, 1u);  // atomic_add_vec<float, 2, 1>(out_ptr0, tmp10, tmp12)
  Analysis scalar;
  run_analysis({forms_capture("forms_cpu_atomic_add_scalar")}, scalar);
  size_t one = 0;
  for (const auto* m : accesses(scalar, true, "out_ptr")) one += m->atomic && !m->vectorized;
  EXPECT_GE(one, 1u);  // atomic_add(&out_ptr0[...], ...)
}

TEST(KernelForms, BlockPointersAndDescriptorsAddressTheirParameter) {
  for (const char* capture : {"forms_block_ptr", "forms_tensor_desc"}) {
    SCOPED_TRACE(capture);
    Analysis a;
    run_analysis({forms_capture(capture)}, a);
    auto loads = accesses(a, false, "in_ptr");
    auto stores = accesses(a, true, "out_ptr");
    EXPECT_FALSE(loads.empty());
    EXPECT_FALSE(stores.empty());
    size_t laid_out = 0;
    for (const auto* m : loads) laid_out += m->index.str().rfind("block(", 0) == 0 || m->index.str().rfind("descriptor(", 0) == 0;
    EXPECT_GE(laid_out, 1u);
    // No access is left without its pointer parameter.
    for (const auto& c : a.program.compiles)
      for (const auto& k : c.kernels) {
        for (const auto& m : k.loads) EXPECT_FALSE(m.ptr.empty()) << k.name << " line " << m.loc.line << ": " << m.index;
        for (const auto& m : k.stores) EXPECT_FALSE(m.ptr.empty()) << k.name << " line " << m.loc.line << ": " << m.index;
      }
  }
}

TEST(KernelForms, CppTransposeAndMaskLoadsAreAccesses) {
  Analysis a;
  run_analysis({forms_capture("forms_cpu_transpose")}, a);
  size_t transposed = 0;
  for (const auto* m : accesses(a, false, "in_ptr")) transposed += m->vectorized;
  EXPECT_GE(transposed, 1u);
  // A transpose into a kernel buffer is a store of it (cpu_vocab_conv_block: out_ptr0).
  Analysis conv;
  run_analysis({fixture("cpu_vocab_conv_block")}, conv);
  size_t stored = 0;
  for (const auto& c : conv.program.compiles)
    for (const auto& k : c.kernels)
      for (const auto& m : k.stores) stored += m.loc.line > 0 && m.vectorized && m.ptr.str().rfind("out_ptr", 0) == 0;
  EXPECT_GE(stored, 1u);
}

// A cooperative reduction stores its partial results in the workspace, passes a grid barrier, and
// loads every block's partials: the barrier orders them (MemAccess::nest), so no read-after-write.
TEST(KernelForms, AGridBarrierOrdersTheWorkspaceAccesses) {
  Analysis a;
  run_analysis({forms_capture("forms_coop_reduction")}, a);
  size_t ws = 0;
  for (const auto& c : a.program.compiles)
    for (const auto& k : c.kernels)
      for (const auto* list : {&k.loads, &k.stores})
        for (const auto& m : *list)
          if (m.ptr.str() == "ws_ptr") {
            ++ws;
            EXPECT_GE(m.nest, 0) << k.name << " line " << m.loc.line;
          }
  EXPECT_GE(ws, 10u);
  for (const auto& f : a.findings) EXPECT_NE(f.rule, "inplace-read-after-write") << f.message;
}
