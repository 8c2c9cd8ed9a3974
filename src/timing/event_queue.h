#pragma once
// The simulated clock: a queue of callbacks ordered by time, then by the order
// they were scheduled, so that two runs of the same program give the same
// cycles. Time is in picoseconds, a common base for the core, NoC and DRAM
// clocks; a unit with nothing to do schedules nothing and costs nothing.
//
// Millions of events run per simulated kernel, so an event costs no heap
// allocation: its callback is constructed inline in a slot of a slab
// (EventAction), runs there, and events wait in per-time FIFOs of slot numbers:
// a callback is never moved.
#include "config/hardware.h"

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
inline TimePs periodPs(double mhz) { return config::clockPeriodPs(mhz); }

/// Microseconds of a time in picoseconds.
inline double microseconds(TimePs ps) { return static_cast<double>(ps) / 1.0e6; }

/// A move-only `void()` callable. Callables of up to kInlineBytes (every event
/// of the simulator: a few pointers, a MemoryRequest and a time) are stored in
/// place; larger ones on the heap.
class EventAction {
public:
  static constexpr size_t kInlineBytes = 64;

  EventAction() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, EventAction>>>
  EventAction(F &&f) { // NOLINT: implicit, as std::function
    emplace(std::forward<F>(f));
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
  /// Runs the callable and then destroys it: one indirect call, as the event
  /// queue does for every event. A callable that throws stays held.
  void runAndReset() {
    ops_->run(storage_);
    ops_ = nullptr;
  }
  /// Destroys the callable held, if any.
  void reset() {
    if (ops_)
      ops_->destroy(storage_);
    ops_ = nullptr;
  }
  /// Replaces the callable with `f`, constructed in place (no move of a temporary).
  template <class F> void emplace(F &&f) {
    using Stored = std::decay_t<F>;
    if constexpr (std::is_same_v<Stored, EventAction>) {
      *this = std::move(f);
    } else {
      reset();
      if constexpr (sizeof(Stored) <= kInlineBytes && alignof(Stored) <= alignof(std::max_align_t) &&
                    std::is_nothrow_move_constructible_v<Stored>) {
        ::new (static_cast<void *>(storage_)) Stored(std::forward<F>(f));
        ops_ = &kInlineOps<Stored>;
      } else {
        ::new (static_cast<void *>(storage_)) Stored *(new Stored(std::forward<F>(f)));
        ops_ = &kHeapOps<Stored>;
      }
    }
  }

private:
  struct Ops {
    void (*invoke)(void *);
    void (*run)(void *);                    // invoke, then destroy
    void (*relocate)(void *from, void *to); // move-constructs at `to`, destroys `from`
    void (*destroy)(void *);
  };
  template <class F>
  static constexpr Ops kInlineOps = {[](void *p) { (*std::launder(static_cast<F *>(p)))(); },
                                     [](void *p) {
                                       F *f = std::launder(static_cast<F *>(p));
                                       (*f)();
                                       f->~F();
                                     },
                                     [](void *from, void *to) {
                                       F *source = std::launder(static_cast<F *>(from));
                                       ::new (to) F(std::move(*source));
                                       source->~F();
                                     },
                                     [](void *p) { std::launder(static_cast<F *>(p))->~F(); }};
  template <class F>
  static constexpr Ops kHeapOps = {
      [](void *p) { (**std::launder(static_cast<F **>(p)))(); },
      [](void *p) {
        F *f = *std::launder(static_cast<F **>(p));
        (*f)();
        delete f;
      },
      [](void *from, void *to) { ::new (to) F *(*std::launder(static_cast<F **>(from))); },
      [](void *p) { delete *std::launder(static_cast<F **>(p)); }};

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
  /// Runs `action` (any void() callable, or an Action) at time `at` (not
  /// before now()). The callable is constructed in its slot: no move.
  template <class F> void schedule(TimePs at, F &&action) {
    const uint32_t slot = allocate();
    actionAt(slot).emplace(std::forward<F>(action));
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
  /// Runs events until none is left; returns the time of the last one. With
  /// `pauseWhile`, stops before the next event while *pauseWhile is nonzero
  /// (a streamed launch waits for more instances); a later run() resumes with
  /// that event, so pausing never reorders events.
  TimePs run(const int *pauseWhile = nullptr) {
    for (;;) {
      if (pauseWhile != nullptr && *pauseWhile != 0)
        break;
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
      // Run in place: slots never move (the slab grows by whole chunks), and
      // the slot is freed only after the action, so the action's own events
      // take other slots.
      actionAt(slot).runAndReset();
      freeSlots_.push_back(slot);
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
  static constexpr uint32_t kChunkBits = 10; // slots per chunk: 1024
  Action &actionAt(uint32_t slot) { return chunks_[slot >> kChunkBits][slot & ((1u << kChunkBits) - 1)]; }
  /// A free slot, its action empty and its FIFO link cleared.
  uint32_t allocate() {
    uint32_t slot = 0;
    if (freeSlots_.empty()) {
      slot = static_cast<uint32_t>(next_.size());
      if ((slot >> kChunkBits) == chunks_.size())
        chunks_.push_back(std::make_unique<Action[]>(size_t{1} << kChunkBits));
      next_.push_back(kNone);
    } else {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
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
  List current_;                                  // the events of now()
  std::vector<std::unique_ptr<Action[]>> chunks_; // the slab: slot s is chunks_[s >> kChunkBits][s % 1024]
  std::vector<uint32_t> next_;                    // [slot]: the next event of the slot's FIFO
  std::vector<uint32_t> freeSlots_;
  TimePs now_ = 0;
  uint64_t bucketsCreated_ = 0;
};

} // namespace npusim::timing
