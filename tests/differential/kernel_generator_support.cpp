#include "differential/generator_internal.h"

#include <algorithm>
#include <sstream>

namespace npusim::differential {
namespace generator {

GeneratedKernel Writer::write() {
  dynamicNumels_ = random_.chance(20);
  switch (random_.between(0, 9)) {
  case 0: case 1: case 2: pointwise1d(); break;
  case 3: case 4: pointwise2d(); break;
  case 5: case 6: case 7: persistentReduction(); break;
  default: loopedReduction(); break;
  }
  assemble();
  return kernel_;
}

Writer::Reduction Writer::randomReduction(Kind kind, bool looped) {
  if (kind == Kind::Int)
    return random_.pick(std::vector<Reduction>{Reduction::Sum, Reduction::Max, Reduction::Min});
  std::vector<Reduction> kinds{Reduction::Sum, Reduction::Sum, Reduction::Max, Reduction::Min, Reduction::ArgMax,
                               Reduction::ArgMin};
  if (looped)
    kinds.push_back(Reduction::Welford);
  return random_.pick(kinds);
}

std::string Writer::identity(Reduction r, const Value &v) {
  const bool isFloat = v.kind == Kind::Float;
  if (r == Reduction::Max || r == Reduction::ArgMax)
    return isFloat ? "float(\"-inf\")" : "-2147483648";
  if (r == Reduction::Min || r == Reduction::ArgMin)
    return isFloat ? "float(\"inf\")" : "2147483647";
  return "0";
}

void Writer::reducePersistent(const Value &input, Reduction r) {
  const std::string mask = "r0_mask & xmask";
  const std::string full = fresh();
  emit(full + " = tl.broadcast_to(" + input.name + ", [XBLOCK, R0_BLOCK])");
  const std::string masked = fresh();
  emit(masked + " = tl.where(" + mask + ", " + full + ", " + identity(r, input) + ")");
  Value result;
  result.name = fresh();
  result.kind = input.kind;
  result.dtype = input.dtype;
  result.exact = input.exact && !(r == Reduction::Sum && input.kind == Kind::Float);
  switch (r) {
  case Reduction::Sum: emit(result.name + " = tl.sum(" + masked + ", 1)[:, None]"); break;
  case Reduction::Max: emit(result.name + " = triton_helpers.max2(" + masked + ", 1)[:, None]"); break;
  case Reduction::Min: emit(result.name + " = triton_helpers.min2(" + masked + ", 1)[:, None]"); break;
  default: {
    const std::string indices = fresh();
    emit(indices + " = tl.broadcast_to(rindex, " + masked + ".shape)");
    const char *f = r == Reduction::ArgMax ? "triton_helpers.max_with_index" : "triton_helpers.min_with_index";
    emit(result.name + "_val, " + result.name + "_idx = " + f + "(" + masked + ", " + indices + ", 1)");
    emit(result.name + " = " + result.name + "_idx[:, None]");
    result.kind = Kind::Int;
    result.dtype = DType::Int32;
    result.exact = true;
  }
  }
  pool_.push_back(result);
}

void Writer::scanPersistent(const Value &input) {
  const std::string full = fresh(), masked = fresh();
  emit(full + " = tl.broadcast_to(" + input.name + ", [XBLOCK, R0_BLOCK])");
  emit(masked + " = tl.where(r0_mask & xmask, " + full + ", 0)");
  Value result;
  result.name = fresh();
  result.kind = input.kind;
  result.dtype = input.dtype;
  result.exact = input.exact && input.kind != Kind::Float; // the scan order may differ
  result.spansR = true;
  emit(result.name + " = tl.cumsum(" + masked + ", 1)");
  pool_.push_back(result);
}

void Writer::reduceLooped(const Value &input, Reduction r, std::vector<Value> &after) {
  const std::string mask = "r0_mask & xmask";
  const std::string acc = "_" + fresh();
  const char *accType = input.kind == Kind::Float ? "tl.float32" : tlName(input.dtype);
  const std::string full = fresh();
  emit(full + " = tl.broadcast_to(" + input.name + ", [XBLOCK, R0_BLOCK])");
  auto init = [&](const std::string &name, const std::string &value, const char *type) {
    accumulatorLines_.push_back("    " + name + " = tl.full([XBLOCK, R0_BLOCK], " + value + ", " + type + ")");
  };
  auto finish = [&](const std::string &line) { afterLoopLines_.push_back("    " + line); };
  Value result;
  result.name = acc.substr(1);
  result.kind = input.kind;
  result.dtype = input.dtype;
  result.exact = input.exact && !(input.kind == Kind::Float && r == Reduction::Sum);
  switch (r) {
  case Reduction::Sum:
    init(acc, "0", accType);
    emit(acc + "_next = " + acc + " + " + full);
    emit(acc + " = tl.where(" + mask + ", " + acc + "_next, " + acc + ")");
    finish(result.name + " = tl.sum(" + acc + ", 1)[:, None]");
    break;
  case Reduction::Max: case Reduction::Min: {
    const bool max = r == Reduction::Max;
    init(acc, identity(r, input), accType);
    emit(acc + "_next = triton_helpers." + (max ? "maximum(" : "minimum(") + acc + ", " + full + ")");
    emit(acc + " = tl.where(" + mask + ", " + acc + "_next, " + acc + ")");
    finish(result.name + " = triton_helpers." + (max ? "max2(" : "min2(") + acc + ", 1)[:, None]");
    break;
  }
  case Reduction::ArgMax: case Reduction::ArgMin: {
    const bool max = r == Reduction::ArgMax;
    init(acc, identity(r, input), accType);
    init(acc + "_index", "2147483647", "tl.int32");
    emit(acc + "_next, " + acc + "_index_next = triton_helpers." + (max ? "maximum_with_index(" : "minimum_with_index(") +
         acc + ", " + acc + "_index, " + full + ", rindex)");
    emit(acc + " = tl.where(" + mask + ", " + acc + "_next, " + acc + ")");
    emit(acc + "_index = tl.where(" + mask + ", " + acc + "_index_next, " + acc + "_index)");
    finish(result.name + "_val, " + result.name + "_idx = triton_helpers." + (max ? "max_with_index(" : "min_with_index(") +
           acc + ", " + acc + "_index, 1)");
    finish(result.name + " = " + result.name + "_idx[:, None]");
    result.kind = Kind::Int;
    result.dtype = DType::Int32;
    result.exact = true;
    break;
  }
  case Reduction::Welford: {
    for (const char *part : {"_mean", "_m2", "_weight"})
      init(acc + part, "0", "tl.float32");
    emit(acc + "_mean_next, " + acc + "_m2_next, " + acc + "_weight_next = triton_helpers.welford_reduce(" + full +
         ", " + acc + "_mean, " + acc + "_m2, " + acc + "_weight, roffset == 0)");
    for (const char *part : {"_mean", "_m2", "_weight"})
      emit(acc + part + " = tl.where(" + mask + ", " + acc + part + "_next, " + acc + part + ")");
    finish(result.name + "_a, " + result.name + "_b, " + result.name + "_c = triton_helpers.welford(" + acc + "_mean, " +
           acc + "_m2, " + acc + "_weight, 1)");
    finish(result.name + " = " + result.name + "_a[:, None]");
    finish(result.name + "_var = " + result.name + "_b[:, None]");
    result.exact = false;
    Value variance = result;
    variance.name = result.name + "_var";
    after.push_back(variance);
    break;
  }
  }
  after.push_back(result);
}

void Writer::pointwise1d() {
  family_ = "pointwise1d";
  constShape_ = "[1]";
  fullShape_ = "[XBLOCK]";
  const int rank = static_cast<int>(random_.between(1, 3));
  xnumel_ = addAxis('x', randomSizes(rank, random_.chance(10) ? 70000 : 4096));
  header_ = {"xnumel = " + std::to_string(xnumel_), "xoffset = tl.program_id(0) * XBLOCK",
             "xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xmask = xindex < xnumel"};
  pointwiseBody();
}

void Writer::pointwise2d() {
  family_ = "pointwise2d";
  constShape_ = "[1, 1]";
  fullShape_ = "[YBLOCK, XBLOCK]";
  ynumel_ = addAxis('y', randomSizes(static_cast<int>(random_.between(1, 2)), 512));
  xnumel_ = addAxis('x', randomSizes(1, std::max<int64_t>(1, 8192 / ynumel_)));
  header_ = {"ynumel = " + std::to_string(ynumel_),
             "xnumel = " + std::to_string(xnumel_),
             "yoffset = tl.program_id(1) * YBLOCK",
             "yindex = yoffset + tl.arange(0, YBLOCK)[:, None]",
             "ymask = yindex < ynumel",
             "xoffset = tl.program_id(0) * XBLOCK",
             "xindex = xoffset + tl.arange(0, XBLOCK)[None, :]",
             "xmask = xindex < xnumel"};
  pointwiseBody();
}

void Writer::pointwiseBody() {
  target_ = &bodyLines_;
  const bool inOut = random_.chance(25);
  if (inOut)
    loadInOut();
  const int loads = static_cast<int>(random_.between(1, 4));
  for (int i = 0; i < loads; ++i)
    load(allDims());
  const int stores = static_cast<int>(random_.between(inOut ? 0 : 1, 3));
  for (int i = 0; i < stores; ++i)
    store(anyExpr(static_cast<int>(random_.between(1, 4)), Want{}), allDims());
  if (random_.chance(12))
    scatterAdd(family_ == "pointwise1d" ? "xmask" : "xmask & ymask");
  if (inOut) {
    const int depth = static_cast<int>(random_.between(1, 4));
    const Value v = inOut_.kind == Kind::Float ? floatExpr(depth, Want{}) : intExpr(depth, Want{});
    storeLines_.push_back("    tl.store(" + inOutPlace_ + ", " + v.name + ", " + inOutMask_ + ")");
  }
}

void Writer::reductionHeader(bool persistent) {
  constShape_ = "[1, 1]";
  fullShape_ = "[XBLOCK, R0_BLOCK]";
  const int rank = static_cast<int>(random_.between(1, 2));
  if (persistent) {
    rnumel_ = randomSize(512);
    xnumel_ = addAxis('x', randomSizes(rank, std::max<int64_t>(1, 16384 / rnumel_)));
  } else {
    rnumel_ = randomSize(random_.chance(50) ? 3000 : 300);
    xnumel_ = addAxis('x', randomSizes(rank, 64));
  }
  Dim &r = addReductionDim(rnumel_);
  header_ = {"xnumel = " + std::to_string(xnumel_), "r0_numel = " + std::to_string(rnumel_)};
  if (persistent)
    header_.push_back("R0_BLOCK: tl.constexpr = " + std::to_string(nextPowerOfTwo(rnumel_)));
  header_.insert(header_.end(), {"rnumel = r0_numel", "RBLOCK: tl.constexpr = R0_BLOCK",
                                 "xoffset = tl.program_id(0) * XBLOCK",
                                 "xindex = xoffset + tl.arange(0, XBLOCK)[:, None]", "xmask = xindex < xnumel"});
  if (persistent) {
    header_.push_back("r0_index = tl.arange(0, R0_BLOCK)[None, :]");
    header_.push_back("r0_offset = 0");
    header_.push_back(nextPowerOfTwo(rnumel_) == rnumel_ && random_.chance(70)
                          ? "r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]"
                          : "r0_mask = r0_index < r0_numel");
    header_.push_back("roffset = r0_offset");
    header_.push_back("rindex = r0_index");
    header_.push_back(r.var + " = r0_index");
  } else {
    header_.push_back("r0_base = tl.arange(0, R0_BLOCK)[None, :]");
    header_.push_back("rbase = r0_base");
  }
}

void Writer::persistentReduction() {
  family_ = "persistent";
  reductionHeader(true);
  rIndexVisible_ = true;
  target_ = &bodyLines_;
  const int loads = static_cast<int>(random_.between(1, 3));
  for (int i = 0; i < loads; ++i)
    load(allDims());
  const int reductions = static_cast<int>(random_.between(1, 3));
  bool scanned = false;
  for (int i = 0; i < reductions; ++i) {
    Want want;
    want.bounded = true;
    const Value input = random_.chance(75) ? floatExpr(static_cast<int>(random_.between(0, 3)), want)
                                           : intExpr(static_cast<int>(random_.between(0, 2)), want);
    if (random_.chance(15)) {
      scanPersistent(input);
      scanned = true;
      continue;
    }
    reducePersistent(input, randomReduction(input.kind, false));
    const Value rowResult = pool_.back();
    if (random_.chance(60))
      store(rowResult, rowDims());
    else
      store(postReduction(rowResult), rowDims());
  }
  if (scanned || random_.chance(60)) { // per-row results broadcast back over the row
    Want want;
    want.bounded = true;
    store(floatExpr(static_cast<int>(random_.between(1, 3)), want), allDims());
  }
}

Value Writer::postReduction(const Value &row) {
  if (row.kind != Kind::Float)
    return make(Kind::Int, row.dtype, row.name + " * " + std::to_string(random_.between(-3, 3)) + " + 1", {&row});
  switch (random_.between(0, 4)) {
  case 0: return make(Kind::Float, DType::Float32, "libdevice.sqrt(tl_math.abs(" + row.name + ") + 1e-05)", {&row});
  case 1: return make(Kind::Float, DType::Float32, "libdevice.tanh(" + row.name + ")", {&row});
  case 2: return make(Kind::Float, DType::Float32, "(" + row.name + " / " + std::to_string(rnumel_) + ".0)", {&row});
  case 3: return make(Kind::Float, DType::Float32, "libdevice.rsqrt(tl_math.abs(" + row.name + ") + 1e-05)", {&row});
  default: return make(Kind::Float, DType::Float32, "tl.sigmoid(" + row.name + ")", {&row});
  }
}

void Writer::loopHeader(std::vector<std::string> &lines, const Dim &r) {
  const char *range = random_.chance(50) ? "tl.range" : "range";
  lines.push_back("    for r0_offset in " + std::string(range) + "(0, r0_numel, R0_BLOCK):");
  for (const std::string &l : {std::string("r0_index = r0_offset + r0_base"), std::string("r0_mask = r0_index < r0_numel"),
                               std::string("roffset = r0_offset"), std::string("rindex = r0_index"),
                               r.var + " = r0_index"})
    lines.push_back("        " + l);
}

void Writer::loopedReduction() {
  family_ = "looped";
  reductionHeader(false);
  const Dim r = dims_.back();
  loopHeader(loopLines_, r);
  target_ = &loopLines_;
  indent_ = 2;
  rIndexVisible_ = true;
  const int loads = static_cast<int>(random_.between(1, 3));
  for (int i = 0; i < loads; ++i)
    load(allDims());
  std::vector<Value> rowResults;
  const int reductions = static_cast<int>(random_.between(1, 2));
  for (int i = 0; i < reductions; ++i) {
    Want want;
    want.bounded = true;
    const Value input = random_.chance(75) ? floatExpr(static_cast<int>(random_.between(0, 3)), want)
                                           : intExpr(static_cast<int>(random_.between(0, 2)), want);
    reduceLooped(input, randomReduction(input.kind, true), rowResults);
  }
  // After the loop: store the per-row results.
  pool_ = rowResults;
  rIndexVisible_ = false;
  target_ = &afterLoopLines_;
  indent_ = 1;
  for (const Value &row : rowResults)
    if (random_.chance(70))
      store(random_.chance(60) ? row : postReduction(row), rowDims());
  storeLines_.swap(afterLoopStores_);
  if (afterLoopStores_.empty())
    afterLoopStores_.push_back("    tl.store(" + storeRow(rowResults.front()) + ")");
  // A second pass that broadcasts the per-row results back over the rows.
  if (random_.chance(60)) {
    loopHeader(secondLoopLines_, r);
    target_ = &secondLoopLines_;
    indent_ = 2;
    rIndexVisible_ = true;
    for (Value &v : pool_)
      v.spansR = false;
    const int more = static_cast<int>(random_.between(1, 2));
    for (int i = 0; i < more; ++i)
      load(allDims());
    Want want;
    want.bounded = true;
    store(floatExpr(static_cast<int>(random_.between(1, 3)), want), allDims());
    secondLoopLines_.insert(secondLoopLines_.end(), storeLines_.begin(), storeLines_.end());
    storeLines_.clear();
  }
}

std::string Writer::storeRow(const Value &row) {
  GeneratedBuffer buffer;
  buffer.name = "out_ptr" + std::to_string(outputs_++);
  buffer.written = true;
  buffer.dtype = row.kind == Kind::Float ? DType::Float32 : row.dtype;
  const Layout layout = randomLayout(false, rowDims());
  buffer.elements = layout.elements;
  kernel_.buffers.push_back(buffer);
  return buffer.name + " + (" + offsetText(layout) + "), " + row.name + ", xmask";
}

void Writer::assemble() {
  const bool reduction = family_ == "persistent" || family_ == "looped";
  const std::string prefix = family_ == "persistent" ? "triton_per" : family_ == "looped" ? "triton_red" : "triton_poi";
  kernel_.family = family_;
  kernel_.name = prefix + "_fused_random_" + std::to_string(kernel_.seed);

  // Inductor's parameter order: in_out_ptr*, in_ptr*, out_ptr*, numels, block sizes.
  auto rank = [](const GeneratedBuffer &b) { return b.name.rfind("in_out", 0) == 0 ? 0 : b.written ? 2 : 1; };
  std::stable_sort(kernel_.buffers.begin(), kernel_.buffers.end(),
                   [&](const GeneratedBuffer &a, const GeneratedBuffer &b) { return rank(a) < rank(b); });
  std::vector<std::pair<std::string, std::string>> signature;
  std::string mutated;
  for (const GeneratedBuffer &b : kernel_.buffers) {
    signature.emplace_back(b.name, signatureName(b.dtype));
    if (rank(b) == 0)
      mutated += (mutated.empty() ? "'" : ", '") + b.name + "'";
  }
  std::vector<std::string> constexprs;
  std::string sizeHints;
  if (family_ == "pointwise2d") {
    signature.emplace_back("ynumel", "i32");
    signature.emplace_back("xnumel", "i32");
    constexprs = {"YBLOCK", "XBLOCK"};
    sizeHints = "{'y': " + std::to_string(nextPowerOfTwo(ynumel_)) + ", 'x': " + std::to_string(nextPowerOfTwo(xnumel_)) + "}";
  } else if (reduction) {
    signature.emplace_back("xnumel", "i32");
    signature.emplace_back("r0_numel", "i32");
    constexprs = {"XBLOCK"};
    if (family_ == "looped")
      constexprs.push_back("R0_BLOCK");
    sizeHints = "{'x': " + std::to_string(nextPowerOfTwo(xnumel_)) + ", 'r0_': " + std::to_string(nextPowerOfTwo(rnumel_)) + "}";
  } else {
    signature.emplace_back("xnumel", "i32");
    constexprs = {"XBLOCK"};
    sizeHints = "{'x': " + std::to_string(nextPowerOfTwo(xnumel_)) + "}";
  }
  for (const std::string &c : constexprs)
    signature.emplace_back(c, "constexpr");

  std::ostringstream out;
  out << "\nimport triton\nimport triton.language as tl\n\n"
      << "from torch._inductor.runtime import triton_helpers, triton_heuristics\n"
      << "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\n"
      << "from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties\n"
      << "triton_helpers.set_driver_to_gpu()\n\n";
  const char *decorator = family_ == "persistent" ? "persistent_reduction" : family_ == "looped" ? "reduction" : "pointwise";
  out << "@triton_heuristics." << decorator << "(\n    size_hints=" << sizeHints << ",\n";
  if (reduction)
    out << "    reduction_hint=ReductionHint.DEFAULT,\n";
  else if (family_ == "pointwise2d")
    out << "    tile_hint=TileHint.DEFAULT,\n";
  out << "    filename=__file__,\n    triton_meta={'signature': {";
  for (size_t i = 0; i < signature.size(); ++i)
    out << (i ? ", " : "") << "'" << signature[i].first << "': '" << signature[i].second << "'";
  out << "}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, "
         "regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, "
         "warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]]}]},\n";
  out << "    inductor_meta={'grid_type': '" << (family_ == "pointwise2d" ? "Grid2D" : "Grid1D")
      << "', 'autotune_hints': set(), 'kernel_name': '" << kernel_.name
      << "', 'mutated_arg_names': [" << mutated << "], 'optimize_mem': True, 'no_x_dim': False, 'num_load': " << inputs_
      << ", 'num_reduction': " << (reduction ? 1 : 0) << "},\n";
  out << (reduction ? "" : "    min_elem_per_thread=0\n") << ")\n@triton.jit\ndef " << kernel_.name << "(";
  for (size_t i = 0; i < signature.size(); ++i)
    out << (i ? ", " : "") << signature[i].first << (signature[i].second == "constexpr" ? " : tl.constexpr" : "");
  out << "):\n";
  kernel_.scalars["xnumel"] = xnumel_;
  if (family_ == "pointwise2d")
    kernel_.scalars["ynumel"] = ynumel_;
  if (reduction)
    kernel_.scalars["r0_numel"] = rnumel_;
  for (const std::string &l : header_) {
    // Dynamic shapes: the numels stay run-time arguments.
    const bool bindsNumel = l.rfind("xnumel = ", 0) == 0 || l.rfind("ynumel = ", 0) == 0 || l.rfind("r0_numel = ", 0) == 0;
    if (!(bindsNumel && dynamicNumels_))
      out << "    " << l << "\n";
  }
  for (const std::string &l : indexLines_)
    out << "    " << l << "\n";
  for (const std::string &l : bodyLines_)
    out << l << "\n";
  for (const std::string &l : accumulatorLines_)
    out << l << "\n";
  for (const std::string &l : loopLines_)
    out << l << "\n";
  for (const std::string &l : afterLoopLines_)
    out << l << "\n";
  for (const std::string &l : afterLoopStores_)
    out << l << "\n";
  for (const std::string &l : secondLoopLines_)
    out << l << "\n";
  for (const std::string &l : storeLines_)
    out << l << "\n";
  kernel_.source = out.str();
}

} // namespace generator

GeneratedKernel generateKernel(uint64_t seed) { return generator::Writer(seed).write(); }

} // namespace npusim::differential
