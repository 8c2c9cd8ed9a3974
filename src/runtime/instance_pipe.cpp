// InstancePipe (runtime/instance_pipe.h): one producer, one consumer, a
// bounded queue between them.
#include "runtime/instance_pipe.h"

#include <utility>

namespace npusim::runtime {

InstancePipe::InstancePipe(std::function<void(npu::InstanceTrace &&)> consume)
    : consume_(std::move(consume)), consumer_([this] { consumeAll(); }) {}

InstancePipe::~InstancePipe() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (consumer_.joinable())
    consumer_.join();
}

void InstancePipe::push(npu::InstanceTrace &&trace) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return error_ || waiting_.size() < kCapacity; });
  if (error_)
    std::rethrow_exception(error_);
  waiting_.push_back(std::move(trace));
  changed_.notify_all();
}

void InstancePipe::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
  consumer_.join();
  if (error_)
    std::rethrow_exception(error_);
}

void InstancePipe::consumeAll() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || closed_ || !waiting_.empty(); });
    if (stopping_ || waiting_.empty())
      return; // stopped, or closed with nothing left
    npu::InstanceTrace trace = std::move(waiting_.front());
    waiting_.pop_front();
    changed_.notify_all(); // room for the producer
    lock.unlock();
    try {
      consume_(std::move(trace));
    } catch (...) {
      lock.lock();
      error_ = std::current_exception();
      waiting_.clear();
      changed_.notify_all();
      return;
    }
    lock.lock();
  }
}

} // namespace npusim::runtime
