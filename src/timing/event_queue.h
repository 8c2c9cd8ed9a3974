#pragma once
// The simulated clock: a queue of callbacks ordered by time, then by the order
// they were scheduled, so that two runs of the same program give the same
// cycles. Time is in picoseconds, a common base for the core, NoC and DRAM
// clocks; a unit with nothing to do schedules nothing and costs nothing.
//
// Millions of events run per simulated kernel, so an event costs no heap
// allocation: its callback lives inline in a slot of a slab (EventAction), and
// the heap orders small keys (time, sequence, slot) that never move a callback.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace npusim::timing {

using TimePs = int64_t;

/// Picoseconds of one cycle of a clock of `mhz` megahertz, rounded to the
/// nearest picosecond.
inline TimePs periodPs(double mhz) {
  return static_cast<TimePs>(1.0e6 / mhz + 0.5);
}

/// A move-only `void()` callable. Callables of up to kInlineBytes (every event
/// of the simulator: a few pointers, a MemoryRequest and a time) are stored in
/// place; larger ones on the heap.
class EventAction {
public:
  static constexpr size_t kInlineBytes = 64;

  EventAction() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, EventAction>>>
  EventAction(F &&f) { // NOLINT: implicit, as std::function
    using Stored = std::decay_t<F>;
    if constexpr (sizeof(Stored) <= kInlineBytes && alignof(Stored) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<Stored>) {
      ::new (static_cast<void *>(storage_)) Stored(std::forward<F>(f));
      ops_ = &kInlineOps<Stored>;
    } else {
      ::new (static_cast<void *>(storage_)) Stored *(new Stored(std::forward<F>(f)));
      ops_ = &kHeapOps<Stored>;
    }
  }
  EventAction(EventAction &&other) noexcept : ops_(other.ops_) {
    if (ops_)
      ops_->relocate(other.storage_, storage_);
    other.ops_ = nullptr;
  }
  EventAction &operator=(EventAction &&other) noexcept {
    if (this != &other) {
      reset();
      ops_ = other.ops_;
      if (ops_)
        ops_->relocate(other.storage_, storage_);
      other.ops_ = nullptr;
    }
    return *this;
  }
  EventAction(const EventAction &) = delete;
  EventAction &operator=(const EventAction &) = delete;
  ~EventAction() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  void operator()() { ops_->invoke(storage_); }

private:
  struct Ops {
    void (*invoke)(void *);
    void (*relocate)(void *from, void *to); // move-constructs at `to`, destroys `from`
    void (*destroy)(void *);
  };
  template <class F>
  static constexpr Ops kInlineOps = {[](void *p) { (*std::launder(static_cast<F *>(p)))(); },
                                     [](void *from, void *to) {
                                       F *source = std::launder(static_cast<F *>(from));
                                       ::new (to) F(std::move(*source));
                                       source->~F();
                                     },
                                     [](void *p) { std::launder(static_cast<F *>(p))->~F(); }};
  template <class F>
  static constexpr Ops kHeapOps = {
      [](void *p) { (**std::launder(static_cast<F **>(p)))(); },
      [](void *from, void *to) { ::new (to) F *(*std::launder(static_cast<F **>(from))); },
      [](void *p) { delete *std::launder(static_cast<F **>(p)); }};

  void reset() {
    if (ops_)
      ops_->destroy(storage_);
    ops_ = nullptr;
  }

  alignas(std::max_align_t) unsigned char storage_[kInlineBytes];
  const Ops *ops_ = nullptr;
};

class EventQueue {
public:
  using Action = EventAction;

  TimePs now() const { return now_; }
  /// Runs `action` at time `at` (not before now()).
  void schedule(TimePs at, Action action) {
    uint32_t slot = 0;
    if (freeSlots_.empty()) {
      slot = static_cast<uint32_t>(actions_.size());
      actions_.push_back(std::move(action));
    } else {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
      actions_[slot] = std::move(action);
    }
    heap_.push_back(Key{at < now_ ? now_ : at, sequence_++, slot});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  bool empty() const { return heap_.empty(); }
  /// Runs events until none is left; returns the time of the last one.
  TimePs run() {
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      const Key key = heap_.back();
      heap_.pop_back();
      now_ = key.at;
      // Moved out first: the action may schedule events, which may grow the slab.
      Action action = std::move(actions_[key.slot]);
      freeSlots_.push_back(key.slot);
      action();
    }
    return now_;
  }

private:
  struct Key {
    TimePs at;
    uint64_t sequence;
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Key &a, const Key &b) const {
      return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
    }
  };
  std::vector<Key> heap_; // a binary min-heap on (at, sequence): a total order
  std::vector<Action> actions_;
  std::vector<uint32_t> freeSlots_;
  TimePs now_ = 0;
  uint64_t sequence_ = 0;
};

} // namespace npusim::timing
