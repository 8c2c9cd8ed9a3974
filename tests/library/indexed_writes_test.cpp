// The kernels of the calls that used to run on the host: index_put (with and
// without accumulate), scatter (src, value, add), add and sub of tensors,
// histc of integers and randint. Each runs on the reference interpreter and
// compiled for tpuv3-like and edge-8lane against values worked out by hand
// (comments give the arithmetic), and against the host call on random data.
#include "config/hardware.h"
#include "library/plan_harness.h"
#include "reference/host_calls.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <climits>
#include <memory>
#include <set>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

const char *const kMachines[] = {"", "tpuv3-like", "edge-8lane"};

/// Contiguous buffers with given contents, a plan run on them, their values read back.
class Buffers {
public:
  TensorRef add(DType dtype, std::vector<int64_t> shape, const std::vector<double> &values) {
    auto b = std::make_unique<reference::Buffer>();
    b->dtype = dtype;
    b->bytes.assign(values.size() * static_cast<size_t>(core::byteSize(dtype)), 0);
    for (size_t i = 0; i < values.size(); ++i)
      if (core::isFloat(dtype))
        reference::storeElement(*b, static_cast<int64_t>(i), values[i]);
      else
        reference::storeIntegerElement(*b, static_cast<int64_t>(i), static_cast<int64_t>(values[i]));
    TensorRef t;
    t.buffer = static_cast<int>(buffers_.size());
    t.shape = shape;
    t.stride.assign(shape.size(), 1);
    for (size_t a = shape.size(); a-- > 1;)
      t.stride[a - 1] = t.stride[a] * shape[a];
    t.dtype = dtype;
    buffers_.push_back(std::move(b));
    return t;
  }
  /// Plans `op` for `machine` ("" = the interpreter) and runs it.
  void run(const std::string &machine, const std::string &op, const std::vector<CallArgument> &args,
           const std::vector<const TensorRef *> &outs) {
    if (machine.empty()) {
      const CallPlan plan = planCall(op, args, outs, MachineShape{});
      harness::runPlan(plan, buffers_, scratchBufferBase(args, outs));
    } else {
      const config::HardwareConfig hw = config::loadConfig(machine);
      const CallPlan plan = planCall(op, args, outs, machineShapeOf(hw));
      harness::runPlanOnNpu(plan, buffers_, scratchBufferBase(args, outs), hw);
    }
  }
  std::vector<double> values(const TensorRef &t) const {
    const reference::Buffer &b = *buffers_[static_cast<size_t>(t.buffer)];
    std::vector<double> v;
    for (int64_t e = 0; e < b.numElements(); ++e)
      v.push_back(core::isFloat(b.dtype) ? reference::loadElement(b, e)
                                         : static_cast<double>(reference::loadIntegerElement(b, e)));
    return v;
  }

private:
  std::vector<std::unique_ptr<reference::Buffer>> buffers_;
};

CallArgument list(std::vector<CallArgument> items) {
  CallArgument a;
  a.kind = CallArgument::Kind::List;
  a.list = std::move(items);
  return a;
}

std::string name(const char *machine) {
  return *machine ? machine : "interpreter";
}

TEST(LibraryIndexPut, RepeatedRowsAddUpInOrderOrKeepTheLastValue) {
  for (const char *machine : kMachines)
    for (bool accumulate : {true, false}) {
      Buffers b;
      // self[r][c] = 10 r + c over [5, 3]; indices 1, -1 (= 4), 1, 3; values[k][c] = k + c / 4.
      std::vector<double> self;
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 3; ++c)
          self.push_back(10 * r + c);
      const TensorRef t = b.add(DType::Float32, {5, 3}, self);
      const TensorRef idx = b.add(DType::Int64, {4}, {1, -1, 1, 3});
      std::vector<double> put;
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < 3; ++c)
          put.push_back(k + c / 4.0);
      const TensorRef v = b.add(DType::Float32, {4, 3}, put);
      b.run(machine, "aten.index_put_", {C::arg(t), list({C::arg(idx)}), C::arg(v), C::boolean(accumulate)}, {&t});
      std::vector<double> want = self;
      for (int c = 0; c < 3; ++c) {
        const double v0 = c / 4.0, v1 = 1 + c / 4.0, v2 = 2 + c / 4.0, v3 = 3 + c / 4.0;
        // accumulate: row 1 += v0 + v2, row 4 += v1, row 3 += v3; else row 1 = v2 (the last), 4 = v1, 3 = v3.
        want[static_cast<size_t>(3 + c)] = accumulate ? 10 + c + v0 + v2 : v2;
        want[static_cast<size_t>(12 + c)] = accumulate ? 40 + c + v1 : v1;
        want[static_cast<size_t>(9 + c)] = accumulate ? 30 + c + v3 : v3;
      }
      EXPECT_EQ(b.values(t), want) << name(machine) << " accumulate=" << accumulate;
    }
}

TEST(LibraryIndexPut, OneDimensionalIntegers) {
  for (const char *machine : kMachines) {
    Buffers b;
    // An inverse permutation as MoE routing builds it: out[perm[i]] = i.
    const TensorRef t = b.add(DType::Int64, {6}, {0, 0, 0, 0, 0, 0});
    const TensorRef perm = b.add(DType::Int64, {6}, {4, 0, 5, 2, 1, 3});
    const TensorRef ids = b.add(DType::Int64, {6}, {0, 1, 2, 3, 4, 5});
    b.run(machine, "aten.index_put_", {C::arg(t), list({C::arg(perm)}), C::arg(ids), C::boolean(false)}, {&t});
    EXPECT_EQ(b.values(t), (std::vector<double>{1, 4, 3, 5, 0, 2})) << name(machine);
  }
}

TEST(LibraryIndexPut, AgreesWithTheHostCall) {
  for (const char *machine : kMachines) {
    CallFixture f;
    if (*machine)
      f.useNpu(config::loadConfig(machine));
    const TensorRef self = f.tensor(DType::Float32, {40, 70});
    const TensorRef idx = f.tensor(DType::Int64, {3, 9}, {}, 0, -40.0, 40.0); // negatives and repeats
    const TensorRef values = f.tensor(DType::Float32, {70});                  // broadcast over the indices
    for (bool accumulate : {true, false})
      EXPECT_EQ(f.compare("aten.index_put_", {C::arg(self), list({C::arg(idx)}), C::arg(values), C::boolean(accumulate)},
                          {self}),
                "")
          << name(machine);
    const TensorRef half = f.tensor(DType::Float16, {17, 8});
    const TensorRef hidx = f.tensor(DType::Int32, {5}, {}, 0, 0.0, 17.0);
    const TensorRef hval = f.tensor(DType::Float16, {5, 8});
    const TensorRef out = f.tensor(DType::Float16, {17, 8});
    EXPECT_EQ(f.compare("aten.index_put", {C::arg(half), list({C::arg(hidx)}), C::arg(hval), C::boolean(true)}, {out}),
              "")
        << name(machine);
  }
}

TEST(LibraryScatter, LastIndexWinsAndRowsPastTheIndexKeepSelf) {
  for (const char *machine : kMachines) {
    Buffers b;
    // self [3, 4] = 100 + e; index [2, 2] along dim 1 = [[3, 0], [1, -3]]: -3 is column 1, repeated;
    // src [3, 2] = [[1, 2], [3, 4], [5, 6]], only its first two rows read.
    std::vector<double> self;
    for (int e = 0; e < 12; ++e)
      self.push_back(100 + e);
    const TensorRef t = b.add(DType::Float32, {3, 4}, self);
    const TensorRef idx = b.add(DType::Int64, {2, 2}, {3, 0, 1, -3});
    const TensorRef src = b.add(DType::Float32, {3, 2}, {1, 2, 3, 4, 5, 6});
    b.run(machine, "aten.scatter_.src", {C::arg(t), C::integer(1), C::arg(idx), C::arg(src)}, {&t});
    // Row 0: column 3 = 1, column 0 = 2; row 1: column 1 = 3, then 4; row 2 unchanged.
    EXPECT_EQ(b.values(t), (std::vector<double>{2, 101, 102, 1, 104, 4, 106, 107, 108, 109, 110, 111}))
        << name(machine);

    const TensorRef u = b.add(DType::Float32, {3, 4}, std::vector<double>(12, 0.0));
    const TensorRef top = b.add(DType::Int64, {1, 4}, {2, 0, 2, 1});
    b.run(machine, "aten.scatter_.value", {C::arg(u), C::integer(0), C::arg(top), C::number(1.5)}, {&u});
    // Along dim 0: column c gets 1.5 in row top[0][c].
    EXPECT_EQ(b.values(u), (std::vector<double>{0, 1.5, 0, 0, 0, 0, 0, 1.5, 1.5, 0, 1.5, 0})) << name(machine);

    const TensorRef acc = b.add(DType::Int32, {2, 3}, {1, 1, 1, 1, 1, 1});
    const TensorRef out = b.add(DType::Int32, {2, 3}, {0, 0, 0, 0, 0, 0});
    const TensorRef aidx = b.add(DType::Int64, {2, 3}, {0, 0, 2, 1, 1, 1});
    const TensorRef asrc = b.add(DType::Int32, {2, 3}, {5, 7, 11, 13, 17, 19});
    b.run(machine, "aten.scatter_add", {C::arg(acc), C::integer(1), C::arg(aidx), C::arg(asrc)}, {&out});
    // Row 0: 1 + 5 + 7, 1, 1 + 11; row 1: 1, 1 + 13 + 17 + 19, 1. self keeps its values.
    EXPECT_EQ(b.values(out), (std::vector<double>{13, 1, 12, 1, 50, 1})) << name(machine);
    EXPECT_EQ(b.values(acc), (std::vector<double>{1, 1, 1, 1, 1, 1})) << name(machine);
  }
}

TEST(LibraryScatter, AgreesWithTheHostCall) {
  for (const char *machine : kMachines) {
    CallFixture f;
    if (*machine)
      f.useNpu(config::loadConfig(machine));
    const TensorRef self = f.tensor(DType::Float32, {3, 20, 33});
    const TensorRef idx = f.tensor(DType::Int64, {2, 7, 33}, {}, 0, 0.0, 20.0);
    const TensorRef src = f.tensor(DType::Float32, {3, 9, 33});
    EXPECT_EQ(f.compare("aten.scatter_.src", {C::arg(self), C::integer(1), C::arg(idx), C::arg(src)}, {self}), "")
        << name(machine);
    const TensorRef out = f.tensor(DType::Float32, {3, 20, 33});
    EXPECT_EQ(f.compare("aten.scatter_add", {C::arg(self), C::integer(-2), C::arg(idx), C::arg(src)}, {out}), "")
        << name(machine);
    const TensorRef small = f.tensor(DType::BFloat16, {16, 64});
    const TensorRef sidx = f.tensor(DType::Int64, {16, 6}, {}, 0, -64.0, 64.0);
    EXPECT_EQ(f.compare("aten.scatter_.value", {C::arg(small), C::integer(1), C::arg(sidx), C::number(-0.25)}, {small}),
              "")
        << name(machine);
  }
}

TEST(LibraryAdd, BroadcastsAndScalesTheOtherOperand) {
  for (const char *machine : kMachines) {
    Buffers b;
    const TensorRef x = b.add(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
    const TensorRef y = b.add(DType::Float32, {3}, {0.5, -1, 8});
    const TensorRef out = b.add(DType::Float32, {2, 3}, std::vector<double>(6, 0.0));
    b.run(machine, "aten.add.Tensor", {C::arg(x), C::arg(y), C::number(2)}, {&out});
    // out[r][c] = x[r][c] + 2 y[c].
    EXPECT_EQ(b.values(out), (std::vector<double>{2, 0, 19, 5, 3, 22})) << name(machine);
    b.run(machine, "aten.sub_.Tensor", {C::arg(x), C::arg(y), C::number(1)}, {&x});
    EXPECT_EQ(b.values(x), (std::vector<double>{0.5, 3, -5, 3.5, 6, -2})) << name(machine);
    const TensorRef i = b.add(DType::Int64, {4}, {1, 2, 3, 4});
    const TensorRef j = b.add(DType::Int64, {4}, {10, 20, 30, 40});
    const TensorRef k = b.add(DType::Int64, {4}, {0, 0, 0, 0});
    b.run(machine, "aten.add.Tensor", {C::arg(i), C::arg(j), C::integer(3)}, {&k});
    EXPECT_EQ(b.values(k), (std::vector<double>{31, 62, 93, 124})) << name(machine);
  }
}

TEST(LibraryAdd, AgreesWithTheHostCall) {
  for (const char *machine : kMachines) {
    CallFixture f;
    if (*machine)
      f.useNpu(config::loadConfig(machine));
    const TensorRef a = f.tensor(DType::Float32, {2, 8, 5}, {40, 1, 8}); // transposed inner axes
    const TensorRef bias = f.tensor(DType::Float32, {5});
    const TensorRef out = f.tensor(DType::Float32, {2, 8, 5});
    EXPECT_EQ(f.compare("aten.add.Tensor", {C::arg(a), C::arg(bias), C::number(1)}, {out}), "") << name(machine);
    const TensorRef h = f.tensor(DType::Float16, {3, 130});
    const TensorRef col = f.tensor(DType::Float16, {3, 1});
    EXPECT_EQ(f.compare("aten.sub_.Tensor", {C::arg(h), C::arg(col), C::number(0.5)}, {h}), "") << name(machine);
  }
}

TEST(LibraryHistc, IntegerBinsAsTheHostComputesThem) {
  for (const char *machine : kMachines) {
    Buffers b;
    // bins = 4 over [0, 7]: bin (v * 4) // 7, v = 7 in the last bin: 0, 0, 0, 1, 1, 1, 1, 3.
    const TensorRef x = b.add(DType::Int32, {8}, {0, 1, 1, 2, 3, 3, 3, 7});
    const TensorRef counts = b.add(DType::Int32, {4}, {9, 9, 9, 9});
    b.run(machine, "aten.histc", {C::arg(x), C::integer(4), C::integer(0), C::integer(7)}, {&counts});
    EXPECT_EQ(b.values(counts), (std::vector<double>{3, 4, 0, 1})) << name(machine);
    // min == max: the data's range [2, 9]; bin (v - 2) * 3 // 7: 2 -> 0, 5 -> 1, 5 -> 1, 9 -> 3, the last bin 2.
    const TensorRef y = b.add(DType::Int64, {4}, {2, 5, 5, 9});
    const TensorRef c3 = b.add(DType::Int64, {3}, {0, 0, 0});
    b.run(machine, "aten.histc", {C::arg(y), C::integer(3), C::integer(0), C::integer(0)}, {&c3});
    EXPECT_EQ(b.values(c3), (std::vector<double>{1, 2, 1})) << name(machine);
  }
}

TEST(LibraryHistc, IntegersAgreeWithTheHostCall) {
  for (const char *machine : kMachines) {
    CallFixture f;
    if (*machine)
      f.useNpu(config::loadConfig(machine));
    const TensorRef x = f.tensor(DType::Int32, {5, 37}, {}, 0, -3.0, 40.0); // some outside [0, 31]
    const TensorRef out = f.tensor(DType::Int32, {8});
    EXPECT_EQ(f.compare("aten.histc", {C::arg(x), C::integer(8), C::integer(0), C::integer(31)}, {out}), "")
        << name(machine);
  }
}

TEST(LibraryRandint, EveryElementIsWrittenWithinTheRange) {
  for (const char *machine : kMachines) {
    Buffers b;
    const TensorRef t = b.add(DType::Int64, {100}, std::vector<double>(100, -1.0));
    b.run(machine, "aten.randint.low_out", {C::integer(5), C::integer(12), C::integers({100})}, {&t});
    std::set<double> seen;
    for (double v : b.values(t)) {
      EXPECT_GE(v, 5) << name(machine);
      EXPECT_LT(v, 12) << name(machine);
      seen.insert(v);
    }
    // 100 draws from 7 values: a hash that missed 3 of them would be broken.
    EXPECT_GE(seen.size(), 5u) << name(machine);
    // The whole int64 range (Inductor's seeds) keeps all 64 bits.
    const TensorRef s = b.add(DType::Int64, {7}, std::vector<double>(7, 0.0));
    b.run(machine, "aten.randint.low_out", {C::integer(INT64_MIN), C::integer(INT64_MAX), C::integers({7})}, {&s});
    const std::vector<double> seeds = b.values(s);
    EXPECT_EQ(std::set<double>(seeds.begin(), seeds.end()).size(), 7u) << name(machine);
  }
}

// The operators the committed bundles used to run on the host, with their
// arguments as the bundles give them, each planned as NPU launches (the
// runtime's dispatcher sends a call to the NPU exactly when planCall has it).
TEST(LibraryCoverage, TheCommittedBundlesCallsArePlanned) {
  Buffers b;
  const TensorRef table = b.add(DType::Float32, {512, 64}, std::vector<double>(512 * 64, 0.0));
  const TensorRef ids = b.add(DType::Int64, {1, 16}, std::vector<double>(16, 3.0));
  const TensorRef grads = b.add(DType::Float32, {1, 16, 64}, std::vector<double>(16 * 64, 0.0));
  const TensorRef route = b.add(DType::Float32, {16, 4}, std::vector<double>(64, 0.0));
  const TensorRef top = b.add(DType::Int64, {16, 2}, std::vector<double>(32, 1.0));
  const TensorRef weights = b.add(DType::Float32, {16, 8}, std::vector<double>(128, 0.0));
  const TensorRef topw = b.add(DType::Float32, {16, 2}, std::vector<double>(32, 0.0));
  const TensorRef experts = b.add(DType::Int32, {32}, std::vector<double>(32, 0.0));
  const TensorRef counts = b.add(DType::Int32, {8}, std::vector<double>(8, 0.0));
  const TensorRef perm = b.add(DType::Int64, {32}, std::vector<double>(32, 0.0));
  const TensorRef order = b.add(DType::Int64, {32}, std::vector<double>(32, 5.0));
  const TensorRef ranks = b.add(DType::Int64, {32}, std::vector<double>(32, 0.0));
  const TensorRef logits = b.add(DType::Float32, {2, 8, 5}, std::vector<double>(80, 0.0));
  const TensorRef bias = b.add(DType::Float32, {5}, std::vector<double>(5, 0.0));
  const TensorRef seeds = b.add(DType::Int64, {7}, std::vector<double>(7, 0.0));
  struct Call {
    std::string op;
    std::vector<CallArgument> args;
    std::vector<const TensorRef *> outs;
  };
  const std::vector<Call> calls = {
      {"aten.index_put_", {C::arg(table), list({C::arg(ids)}), C::arg(grads), C::boolean(true)}, {&table}},
      {"aten.index_put_", {C::arg(perm), list({C::arg(order)}), C::arg(ranks), C::boolean(false)}, {&perm}},
      {"aten.scatter_.value", {C::arg(route), C::integer(1), C::arg(top), C::number(1)}, {&route}},
      {"aten.scatter_.src", {C::arg(weights), C::integer(1), C::arg(top), C::arg(topw)}, {&weights}},
      {"aten.histc", {C::arg(experts), C::integer(8), C::integer(0), C::integer(7)}, {&counts}},
      {"aten.add.Tensor", {C::arg(logits), C::arg(bias), C::integer(1)}, {&logits}},
      {"aten.randint.low_out", {C::integer(INT64_MIN), C::integer(INT64_MAX), C::integers({7})}, {&seeds}},
  };
  for (const Call &c : calls) {
    EXPECT_TRUE(isPlanned(c.op)) << c.op;
    try {
      const CallPlan plan = planCall(c.op, c.args, c.outs, MachineShape{});
      EXPECT_FALSE(plan.launches.empty()) << c.op;
    } catch (const core::RuntimeError &e) {
      ADD_FAILURE() << c.op << ": " << e.what();
    }
  }
}

TEST(LibraryIndexPut, IndicesThatAreTheResultAreRefused) {
  Buffers b;
  const TensorRef t = b.add(DType::Int64, {6}, {0, 1, 2, 3, 4, 5});
  const TensorRef v = b.add(DType::Int64, {6}, {0, 1, 2, 3, 4, 5});
  try {
    planCall("aten.index_put_", std::vector<CallArgument>{C::arg(t), list({C::arg(t)}), C::arg(v), C::boolean(false)},
             std::vector<const TensorRef *>{&t}, MachineShape{});
    FAIL() << "an index tensor that the call overwrites was planned";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("aten.index_put_"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace npusim::library
