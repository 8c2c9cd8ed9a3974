// The compulsory DRAM bytes of a step (compulsory_bytes.h).
#include "runtime/compulsory_bytes.h"

#include <algorithm>
#include <functional>
#include <map>

namespace npusim::runtime {

namespace {

/// Elements a view addresses: its extent along the axes that move (a
/// broadcast axis, stride 0, addresses one element of it), assuming the
/// moving axes do not overlap.
int64_t viewElements(const TensorRef &t) {
  int64_t n = 1;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] == 0)
      return 0;
    if (i < t.stride.size() && t.stride[i] != 0)
      n *= t.shape[i];
  }
  return n;
}

/// Bytes per storage, each at most the storage's.
class Tally {
public:
  explicit Tally(const std::vector<Storage> &storages) : storages_(storages) {}
  void add(const TensorRef &t) {
    if (t.storage < 0 || static_cast<size_t>(t.storage) >= storages_.size())
      return;
    elements_[t.storage] += viewElements(t);
  }
  /// With `touched`, each storage at most its touched bytes (read or written).
  int64_t bytes(const TouchedByStorage *touched, bool written) const {
    int64_t total = 0;
    for (const auto &[id, n] : elements_) {
      const Storage &s = storages_[static_cast<size_t>(id)];
      int64_t b = std::min(n, s.elements) * core::byteSize(s.dtype);
      if (touched) {
        const auto it = touched->find(id);
        b = it == touched->end() ? 0 : std::min(b, written ? it->second.written : it->second.read);
      }
      total += b;
    }
    return total;
  }

private:
  const std::vector<Storage> &storages_;
  std::map<int64_t, int64_t> elements_;
};

} // namespace

CompulsoryBytes compulsoryBytes(const Step &step, const std::vector<Storage> &storages,
                                const TouchedByStorage *touched) {
  Tally read(storages), written(storages);
  if (step.kind == Step::Kind::Launch) {
    for (size_t i = 0; i < step.args.size(); ++i) {
      const LaunchArg &a = step.args[i];
      if (!a.isTensor)
        continue;
      const bool writes = std::find(step.writes.begin(), step.writes.end(), static_cast<int64_t>(i)) != step.writes.end();
      const bool pureOutput = writes && i < step.argNames.size() && step.argNames[i].rfind("out_ptr", 0) == 0;
      if (!pureOutput)
        read.add(a.tensor);
      if (writes)
        written.add(a.tensor);
    }
  } else {
    std::function<void(const CallValue &)> visit = [&](const CallValue &v) {
      if (v.kind == core::CallKind::Tensor)
        read.add(v.tensor);
      for (const CallValue &e : v.list)
        visit(e);
    };
    for (const CallValue &v : step.callArgs)
      visit(v);
    for (const std::optional<TensorRef> &o : step.out)
      if (o)
        written.add(*o);
  }
  return {read.bytes(touched, false), written.bytes(touched, true)};
}

} // namespace npusim::runtime
