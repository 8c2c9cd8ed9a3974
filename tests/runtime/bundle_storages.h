#pragma once
// The caller's storages for runBundle's second form (runtime/runner.h): one
// zeroed buffer per bundle storage, of its dtype and element count.
#include "core/dtype.h"
#include "reference/interpreter.h"
#include "runtime/bundle.h"

#include <memory>
#include <vector>

namespace npusim::runtime::test {

inline std::vector<std::unique_ptr<reference::Buffer>> zeroStorages(const Bundle &bundle) {
  std::vector<std::unique_ptr<reference::Buffer>> storages;
  for (const Storage &s : bundle.storages) {
    auto b = std::make_unique<reference::Buffer>();
    b->dtype = s.dtype;
    b->bytes.assign(static_cast<size_t>(s.elements) * core::byteSize(s.dtype), 0);
    storages.push_back(std::move(b));
  }
  return storages;
}

} // namespace npusim::runtime::test
