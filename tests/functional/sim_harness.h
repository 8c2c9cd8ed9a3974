#pragma once
// DRAM buffers, launch arguments and a trace collector for simulator tests.
#include "functional/simulator.h"
#include "npu/builder.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace npusim::functionaltest {

using core::DType;
using npu::ElementOp;
using npu::Opcode;
using npu::ProgramBuilder;
using npu::ScalarOperand;

inline ScalarOperand imm(int64_t v) { return ScalarOperand::immediate(v); }
inline ScalarOperand immf(double v) { return ScalarOperand::immediateFloat(v); }
inline ScalarOperand reg(int r) { return ScalarOperand::ofRegister(r); }

class Harness {
public:
  /// A buffer of the given elements; its address is 0x1000 * (index + 1).
  template <class T> int buffer(const std::string &name, DType dtype, const std::vector<T> &values) {
    storage_.push_back(std::make_unique<std::vector<uint8_t>>(values.size() * sizeof(T)));
    if (!values.empty())
      std::memcpy(storage_.back()->data(), values.data(), values.size() * sizeof(T));
    buffers.push_back(functional::DramBuffer{name, dtype, 0x1000u * (buffers.size() + 1), storage_.back().get()});
    return static_cast<int>(buffers.size()) - 1;
  }
  template <class T> std::vector<T> contents(int b) const {
    const std::vector<uint8_t> &bytes = *buffers[static_cast<size_t>(b)].bytes;
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
  void pointer(int b, int64_t elementOffset = 0) {
    functional::LaunchArgument a;
    a.buffer = b;
    a.elementOffset = elementOffset;
    arguments.push_back(a);
  }
  void integer(int64_t v) {
    functional::LaunchArgument a;
    a.intValue = v;
    arguments.push_back(a);
  }
  functional::RunStats run(const npu::Program &p, functional::Grid grid = {},
                           functional::RunOptions options = {}) {
    return functional::run(p, grid, buffers, arguments, options);
  }

  std::vector<functional::DramBuffer> buffers;
  std::vector<functional::LaunchArgument> arguments;

private:
  std::vector<std::unique_ptr<std::vector<uint8_t>>> storage_;
};

class Collector : public npu::ExecutionListener {
public:
  void instanceDone(npu::InstanceTrace &&trace) override { traces.push_back(std::move(trace)); }
  std::vector<npu::InstanceTrace> traces;
};

} // namespace npusim::functionaltest
