// InstancePipe: the instances of a streamed launch reach their timing thread
// in the order they were pushed, no more than its capacity wait in between,
// an error of the consumer reaches the producer, and a pipe dropped before
// its end stops its thread.
#include "runtime/instance_pipe.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace npusim::runtime {
namespace {

npu::InstanceTrace traceOf(int64_t instance) {
  npu::InstanceTrace trace;
  trace.instance = instance;
  trace.instructions.resize(static_cast<size_t>(instance % 7)); // traces of several sizes
  return trace;
}

TEST(InstancePipe, ConsumesEveryTraceInPushOrderWithBoundedWaiting) {
  std::vector<int64_t> seen;
  std::vector<size_t> sizes;
  std::atomic<int64_t> pushed{0};
  int64_t mostAhead = 0;
  {
    InstancePipe pipe([&](npu::InstanceTrace &&trace) {
      // A slow consumer, so that the producer runs into the capacity.
      if (trace.instance % 64 == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      mostAhead = std::max(mostAhead, pushed.load() - static_cast<int64_t>(seen.size()));
      seen.push_back(trace.instance);
      sizes.push_back(trace.instructions.size());
    });
    for (int64_t i = 0; i < 2000; ++i) {
      pipe.push(traceOf(i));
      pushed.store(i + 1);
    }
    pipe.close();
  }
  ASSERT_EQ(seen.size(), 2000u);
  for (size_t i = 0; i < seen.size(); ++i) {
    ASSERT_EQ(seen[i], static_cast<int64_t>(i));
    ASSERT_EQ(sizes[i], i % 7);
  }
  // The one being consumed, the ones waiting, and the one being pushed.
  EXPECT_LE(mostAhead, static_cast<int64_t>(InstancePipe::kCapacity) + 2);
  EXPECT_GT(mostAhead, 1); // the producer did run ahead
}

TEST(InstancePipe, TheConsumersErrorReachesTheProducer) {
  std::vector<int64_t> seen;
  InstancePipe pipe([&](npu::InstanceTrace &&trace) {
    if (trace.instance == 10)
      throw core::RuntimeError("timing: instance 10 failed");
    seen.push_back(trace.instance);
  });
  bool thrown = false;
  try {
    for (int64_t i = 0; i < 100000; ++i)
      pipe.push(traceOf(i));
    pipe.close();
  } catch (const core::RuntimeError &e) {
    thrown = true;
    EXPECT_STREQ(e.what(), "timing: instance 10 failed");
  }
  EXPECT_TRUE(thrown);
  ASSERT_EQ(seen.size(), 10u); // nothing after the failed instance
  EXPECT_EQ(seen.back(), 9);
}

TEST(InstancePipe, CloseRethrowsAnErrorOfTheLastTrace) {
  InstancePipe pipe([](npu::InstanceTrace &&trace) {
    if (trace.instance == 2)
      throw core::RuntimeError("timing: the last instance failed");
  });
  for (int64_t i = 0; i < 3; ++i)
    pipe.push(traceOf(i));
  EXPECT_THROW(pipe.close(), core::RuntimeError);
}

TEST(InstancePipe, DroppedBeforeItsEndStopsItsThread) {
  std::atomic<int64_t> consumed{0};
  {
    InstancePipe pipe([&](npu::InstanceTrace &&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++consumed;
    });
    for (int64_t i = 0; i < 20; ++i)
      pipe.push(traceOf(i));
  } // the functional run failed: no close()
  EXPECT_LE(consumed.load(), 20);
}

} // namespace
} // namespace npusim::runtime
