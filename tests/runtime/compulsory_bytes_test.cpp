// The compulsory DRAM bytes of a step (runtime/compulsory_bytes.h), counted
// here by hand, and the honest roofline a timed run derives from them.
#include "runtime/compulsory_bytes.h"

#include "runtime/bundle_storages.h"
#include "config/hardware.h"
#include "reference/host_calls.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>

#include <set>

namespace npusim::runtime {
namespace {

TensorRef view(int64_t storage, std::vector<int64_t> shape, std::vector<int64_t> stride, int64_t offset = 0) {
  TensorRef t;
  t.storage = storage;
  t.offset = offset;
  t.shape = std::move(shape);
  t.stride = std::move(stride);
  return t;
}

CallValue tensor(const TensorRef &t) {
  CallValue v;
  v.kind = core::CallKind::Tensor;
  v.tensor = t;
  return v;
}

std::vector<Storage> storages(std::vector<std::pair<core::DType, int64_t>> s) {
  std::vector<Storage> out;
  for (size_t i = 0; i < s.size(); ++i)
    out.push_back(Storage{static_cast<int64_t>(i), s[i].first, s[i].second});
  return out;
}

// mm of [64, 32] x [32, 16] (B seen through a transposed view): 2048 + 512
// elements read, 1024 written, 4 bytes each.
TEST(CompulsoryBytes, ACallReadsItsArgumentsAndWritesItsOutputs) {
  Step step;
  step.kind = Step::Kind::Call;
  step.callArgs = {tensor(view(0, {64, 32}, {32, 1})), tensor(view(1, {32, 16}, {1, 32}))};
  step.out = {view(2, {64, 16}, {16, 1})};
  const CompulsoryBytes b = compulsoryBytes(step, storages({{core::DType::Float32, 2048},
                                                            {core::DType::Float32, 512},
                                                            {core::DType::Float32, 1024}}));
  EXPECT_EQ(b.read, (2048 + 512) * 4);
  EXPECT_EQ(b.written, 1024 * 4);
}

// A bias broadcast over 1000 rows (stride 0) is 16 elements; two views of one
// storage add up to at most the storage (fp16: 2 bytes); a list argument counts.
TEST(CompulsoryBytes, BroadcastsCountOnceAndAStorageAtMostOnce) {
  Step step;
  step.kind = Step::Kind::Call;
  CallValue list;
  list.kind = core::CallKind::List;
  list.list = {tensor(view(1, {100}, {1})), tensor(view(1, {100}, {1}, 50))};
  step.callArgs = {tensor(view(0, {1000, 16}, {0, 1})), list};
  step.out = {view(2, {7}, {1})};
  const CompulsoryBytes b = compulsoryBytes(step, storages({{core::DType::Float32, 16},
                                                            {core::DType::Float16, 120},
                                                            {core::DType::Int64, 7}}));
  EXPECT_EQ(b.read, 16 * 4 + 120 * 2);
  EXPECT_EQ(b.written, 7 * 8);
}

// A launch: in_ptr0 read; out_ptr0 written only; in_out_ptr0 read and
// written; a scalar counts nothing.
TEST(CompulsoryBytes, ALaunchReadsAllButItsPureOutputs) {
  Step step;
  step.kind = Step::Kind::Launch;
  LaunchArg in, out, inOut, scalar;
  in.isTensor = out.isTensor = inOut.isTensor = true;
  in.tensor = view(0, {256}, {1});
  out.tensor = view(1, {256}, {1});
  inOut.tensor = view(2, {10, 10}, {20, 1});
  step.args = {in, out, inOut, scalar};
  step.argNames = {"in_ptr0", "out_ptr0", "in_out_ptr0", "xnumel"};
  step.writes = {1, 2};
  const CompulsoryBytes b = compulsoryBytes(step, storages({{core::DType::Float32, 256},
                                                            {core::DType::Float32, 256},
                                                            {core::DType::Float32, 200}}));
  EXPECT_EQ(b.read, (256 + 100) * 4);
  EXPECT_EQ(b.written, (256 + 100) * 4);
}

// A timed run's roofline: GEMM 512^3 (validation/tpuv3/gemm-512): 3 x 1 MiB
// compulsory; 134,217,728 MACs -> 4096 cycles = 4.357 us at 940 MHz on 2 x
// 128 x 128 arrays, above 3 MiB at 481.28 GB/s = 6.536 us: the roofline is
// the bytes' 6.536 us whatever the program moved.
TEST(CompulsoryBytes, TheRooflineOfATimedStepUsesThem) {
  const Bundle bundle = loadBundle(std::string(NPUSIM_SOURCE_DIR) + "/validation/tpuv3/gemm-512");
  RunOptions options;
  options.mode = Mode::Timing;
  options.machine = config::loadConfig("tpuv3-like");
  const RunReport report = runBundle(bundle, options);
  ASSERT_TRUE(report.failure.empty()) << report.failure;
  ASSERT_EQ(report.steps.size(), 1u);
  const StepTiming &t = report.steps[0].timing;
  EXPECT_EQ(t.compulsoryBytes, 3 * 512 * 512 * 4);
  // 16 channels x 64 B per 2 DRAM cycles of 1064 ps: 481.203 GB/s = 481.203e3 bytes per us.
  EXPECT_NEAR(t.rooflineUs, 3.0 * 512 * 512 * 4 / (16 * 64 / 2.128e-3), 1e-3);
  EXPECT_NEAR(t.boundRatio, t.timeUs / t.rooflineUs, 1e-9);
  EXPECT_GE(t.dramBytesRead + t.dramBytesWritten, t.compulsoryBytes);
}

// What a step's programs touched bounds a storage's bytes: none of a storage
// they left alone, at most their bytes of one they touched in part, the view's
// bytes where they moved more.
TEST(CompulsoryBytes, WhatTheProgramsTouchedBoundsEachStorage) {
  Step step;
  step.kind = Step::Kind::Call;
  step.callArgs = {tensor(view(0, {1000, 64}, {64, 1})), tensor(view(1, {16}, {1})), tensor(view(3, {8}, {1}))};
  step.out = {view(2, {16, 64}, {64, 1})};
  const std::vector<Storage> s = storages({{core::DType::Float32, 64000},
                                           {core::DType::Int64, 16},
                                           {core::DType::Float32, 1024},
                                           {core::DType::Float32, 8}});
  TouchedByStorage touched;
  touched[0] = {10 * 256, 0};        // ten rows of the table
  touched[1] = {16 * 8 * 3, 0};      // the indices, read three times over
  touched[2] = {0, 1024 * 4 + 4096}; // the output, and more (padding written twice)
  const CompulsoryBytes b = compulsoryBytes(step, s, &touched);
  EXPECT_EQ(b.read, 10 * 256 + 16 * 8); // storage 3 untouched: 0
  EXPECT_EQ(b.written, 1024 * 4);
  const CompulsoryBytes views = compulsoryBytes(step, s);
  EXPECT_EQ(views.read, 64000 * 4 + 16 * 8 + 8 * 4);
}

// An embedding's honest roofline on the NPU: the table rows its indices name,
// read once, not the table (`aten.embedding` of 16 indices, 10 distinct, into
// a 1000 x 64 fp32 table), run in timing mode on the caller's storages.
TEST(CompulsoryBytes, AGatherCountsTheRowsItsIndicesName) {
  const std::string graph = R"({"format": "npusim-bundle", "version": 1, "model": {"op": "aten.embedding"},
    "seed": 0, "inputs": [], "outputs": [],
    "storages": [{"id": 0, "dtype": "fp32", "elements": 64000}, {"id": 1, "dtype": "i64", "elements": 16},
                 {"id": 2, "dtype": "fp32", "elements": 1024}],
    "steps": [{"kind": "call", "op": "aten.embedding",
               "args": [{"tensor": {"storage": 0, "offset": 0, "shape": [1000, 64], "stride": [64, 1]}},
                        {"tensor": {"storage": 1, "offset": 0, "shape": [16], "stride": [1]}}],
               "out": [{"tensor": {"storage": 2, "offset": 0, "shape": [16, 64], "stride": [64, 1]}}]}]})";
  const Bundle bundle = parseBundle(graph, NPUSIM_SOURCE_DIR, "embedding.json");
  std::vector<std::unique_ptr<reference::Buffer>> buffers = test::zeroStorages(bundle);
  const int64_t indices[16] = {5, 5, 7, 900, 999, 0, 7, 123, 5, 456, 321, 0, 999, 64, 900, 65};
  for (int i = 0; i < 16; ++i)
    reference::storeIntegerElement(*buffers[1], i, indices[i]);
  const std::set<int64_t> distinct(std::begin(indices), std::end(indices));
  ASSERT_EQ(distinct.size(), 10u);
  RunOptions options;
  options.mode = Mode::Timing;
  options.machine = config::loadConfig("tpuv3-like");
  const RunReport report = runBundle(bundle, options, buffers);
  ASSERT_TRUE(report.failure.empty()) << report.failure;
  ASSERT_EQ(report.steps.size(), 1u);
  ASSERT_TRUE(report.steps[0].timed);
  EXPECT_EQ(report.steps[0].timing.compulsoryBytes,
            static_cast<int64_t>(distinct.size()) * 64 * 4 + 16 * 8 + 16 * 64 * 4);
}

} // namespace
} // namespace npusim::runtime
