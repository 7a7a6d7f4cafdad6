#include "analyzer/model/model.h"
#include "analyzer/util/intern_pool.h"

namespace ilint {

namespace {

// Interned parts: their pointers identify them.
uint64_t frame_hash(const UserFrame& f) {
  uint64_t h = f.loc.has_value();
  if (f.loc) {
    h = hash_step(h, reinterpret_cast<uintptr_t>(f.loc->file.c_str()));
    h = hash_step(h, static_cast<uint64_t>(static_cast<uint32_t>(f.loc->line)) << 32 |
                         static_cast<uint32_t>(f.loc->column));
  }
  h = hash_step(h, reinterpret_cast<uintptr_t>(f.code.c_str()));
  h = hash_step(h, reinterpret_cast<uintptr_t>(f.function.c_str()));
  return hash_finish(h);
}

}  // namespace

const UserFrame* UserFrame::none() {
  static const UserFrame empty;  // made on first use: FxNodes may be made during static initialization
  return &empty;
}

const UserFrame* UserFrame::intern(const UserFrame& f) {
  if (f == *none()) return none();
  // The nodes one comment covers come one after another.
  thread_local const UserFrame* last = nullptr;
  if (last && *last == f) return last;
  return last = intern_detail::Pool<UserFrame>::get(f, frame_hash(f));
}

}  // namespace ilint
