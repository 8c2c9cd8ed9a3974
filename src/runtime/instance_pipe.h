#pragma once
// A streamed launch's instance traces on their way from the thread that runs
// the functional simulator to a thread that times them (internal to the
// runtime module): the functional run of one large launch and its timing
// overlap on two cores, where the caller's thread would otherwise do both in
// turn while the timing threads wait for the stream to end. The traces are
// timed in the order they were pushed, by one consumer, so the launch's timing
// is the one the caller's thread gives, bit for bit; at most kCapacity traces
// wait in between, which bounds the memory.
#include "npu/execution.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace npusim::runtime {

class InstancePipe {
public:
  static constexpr size_t kCapacity = 32;

  /// Starts the consumer thread, which calls `consume` on each trace in order.
  explicit InstancePipe(std::function<void(npu::InstanceTrace &&)> consume);
  /// Stops the consumer (traces still waiting are dropped) and joins it.
  ~InstancePipe();
  InstancePipe(const InstancePipe &) = delete;
  InstancePipe &operator=(const InstancePipe &) = delete;

  /// Hands over the next trace, waiting while kCapacity wait. Rethrows the
  /// consumer's error, after which nothing more is consumed.
  void push(npu::InstanceTrace &&trace);
  /// Waits until every trace pushed is consumed and joins the consumer;
  /// rethrows its error.
  void close();

private:
  void consumeAll();

  std::function<void(npu::InstanceTrace &&)> consume_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<npu::InstanceTrace> waiting_;
  bool closed_ = false, stopping_ = false;
  std::exception_ptr error_;
  std::thread consumer_;
};

} // namespace npusim::runtime
