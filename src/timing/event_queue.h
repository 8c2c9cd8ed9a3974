#pragma once
// The simulated clock: a queue of callbacks ordered by time, then by the order
// they were scheduled, so that two runs of the same program give the same
// cycles. Time is in picoseconds, a common base for the core, NoC and DRAM
// clocks; a unit with nothing to do schedules nothing and costs nothing.
//
// Millions of events run per simulated kernel, so an event costs no heap
// allocation: its callback lives inline in a slot of a slab (EventAction), and
// events wait in per-time FIFOs of slot numbers that never move a callback.
#include <algorithm>
#include <array>
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

/// The queue keeps one FIFO per distinct pending time: events of one time run
/// in the order they were scheduled, which is the order of their sequence
/// numbers, so only distinct times need ordering. Many events share a time
/// (every DRAM channel ticks on the same clock edge, callbacks scheduled for
/// now), so the binary heap holds far fewer entries than there are events, and
/// an event scheduled for now or for a time already pending costs a list
/// append. A small direct-mapped table finds the FIFO of a pending time; when
/// it has forgotten one, a second FIFO for the same time is created, ordered
/// after the first by its creation number, which keeps the order exact.
class EventQueue {
public:
  using Action = EventAction;

  EventQueue() { recent_.fill(Recent{}); }
  EventQueue(const EventQueue &) = delete;
  EventQueue &operator=(const EventQueue &) = delete;

  TimePs now() const { return now_; }
  /// Runs `action` at time `at` (not before now()).
  void schedule(TimePs at, Action action) {
    const uint32_t slot = allocate(std::move(action));
    if (at <= now_) {
      append(current_, slot);
      return;
    }
    Recent &recent = recent_[recentIndex(at)];
    if (recent.at == at) {
      append(buckets_[recent.bucket].events, slot);
      return;
    }
    uint32_t bucket = 0;
    if (freeBuckets_.empty()) {
      bucket = static_cast<uint32_t>(buckets_.size());
      buckets_.emplace_back();
    } else {
      bucket = freeBuckets_.back();
      freeBuckets_.pop_back();
    }
    buckets_[bucket].events = List{};
    append(buckets_[bucket].events, slot);
    recent = Recent{at, bucket};
    times_.push_back(Time{at, bucketsCreated_++, bucket});
    std::push_heap(times_.begin(), times_.end(), Later{});
  }
  bool empty() const { return current_.head == kNone && times_.empty(); }
  /// Runs events until none is left; returns the time of the last one.
  TimePs run() {
    for (;;) {
      if (current_.head == kNone) {
        if (times_.empty())
          break;
        now_ = times_.front().at;
        // Every FIFO of this time, oldest first, before anything is scheduled for now.
        while (!times_.empty() && times_.front().at == now_) {
          std::pop_heap(times_.begin(), times_.end(), Later{});
          const uint32_t bucket = times_.back().bucket;
          times_.pop_back();
          const List events = buckets_[bucket].events;
          if (current_.head == kNone)
            current_.head = events.head;
          else
            next_[current_.tail] = events.head;
          current_.tail = events.tail;
          freeBuckets_.push_back(bucket);
        }
        Recent &recent = recent_[recentIndex(now_)];
        if (recent.at == now_)
          recent = Recent{};
      }
      const uint32_t slot = current_.head;
      current_.head = next_[slot];
      if (current_.head == kNone)
        current_.tail = kNone;
      // Moved out first: the action may schedule events, which may grow the slab.
      Action action = std::move(actions_[slot]);
      freeSlots_.push_back(slot);
      action();
    }
    return now_;
  }

private:
  static constexpr uint32_t kNone = 0xffffffffu;
  static constexpr size_t kRecentSize = 256;
  struct List {
    uint32_t head = kNone, tail = kNone;
  };
  struct Bucket {
    List events;
  };
  struct Time {
    TimePs at;
    uint64_t created; // orders two FIFOs of one time: the older holds the earlier events
    uint32_t bucket;
  };
  struct Later {
    bool operator()(const Time &a, const Time &b) const {
      return a.at != b.at ? a.at > b.at : a.created > b.created;
    }
  };
  struct Recent {
    TimePs at = -1; // no pending time is negative
    uint32_t bucket = 0;
  };

  static size_t recentIndex(TimePs at) {
    // Pending times are mostly multiples of a clock period: mix before masking.
    return static_cast<size_t>((static_cast<uint64_t>(at) * 0x9E3779B97F4A7C15ull) >> 56) % kRecentSize;
  }
  uint32_t allocate(Action &&action) {
    uint32_t slot = 0;
    if (freeSlots_.empty()) {
      slot = static_cast<uint32_t>(actions_.size());
      actions_.push_back(std::move(action));
      next_.push_back(kNone);
    } else {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
      actions_[slot] = std::move(action);
    }
    next_[slot] = kNone;
    return slot;
  }
  void append(List &list, uint32_t slot) {
    if (list.tail == kNone)
      list.head = slot;
    else
      next_[list.tail] = slot;
    list.tail = slot;
  }

  std::vector<Time> times_; // a binary min-heap of the pending times' FIFOs
  std::vector<Bucket> buckets_;
  std::vector<uint32_t> freeBuckets_;
  std::array<Recent, kRecentSize> recent_;
  List current_; // the events of now()
  std::vector<Action> actions_;
  std::vector<uint32_t> next_; // [slot]: the next event of the slot's FIFO
  std::vector<uint32_t> freeSlots_;
  TimePs now_ = 0;
  uint64_t bucketsCreated_ = 0;
};

} // namespace npusim::timing
