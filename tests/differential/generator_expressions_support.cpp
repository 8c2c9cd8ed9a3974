#include "differential/generator_internal.h"

#include <algorithm>

namespace npusim::differential::generator {

int64_t Writer::randomSize(int64_t most) {
  const int band = static_cast<int>(random_.between(0, 9));
  if (band < 4)
    return random_.between(1, std::min<int64_t>(9, most));
  if (band < 7)
    return random_.between(1, std::min<int64_t>(100, most));
  return random_.between(1, most);
}

std::vector<int64_t> Writer::randomSizes(int rank, int64_t most) {
  std::vector<int64_t> sizes;
  int64_t left = most;
  for (int i = 0; i < rank; ++i) {
    const int64_t s = randomSize(std::max<int64_t>(1, i + 1 == rank ? left : std::min<int64_t>(left, 64)));
    sizes.push_back(s);
    left = std::max<int64_t>(1, left / s);
  }
  return sizes;
}

int64_t Writer::addAxis(char axis, const std::vector<int64_t> &sizes) {
  const std::string index = std::string(1, axis) + "index";
  int64_t divisor = 1, numel = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Dim d;
    d.axis = axis;
    d.size = sizes[i];
    d.var = std::string(1, axis) + std::to_string(variables_++);
    std::string expr;
    if (sizes.size() == 1)
      expr = index;
    else if (i == 0)
      expr = "(" + index + " % " + std::to_string(sizes[i]) + ")";
    else if (i + 1 == sizes.size())
      expr = index + " // " + std::to_string(divisor);
    else
      expr = "((" + index + " // " + std::to_string(divisor) + ") % " + std::to_string(sizes[i]) + ")";
    indexLines_.push_back(d.var + " = " + expr);
    dims_.push_back(d);
    divisor *= sizes[i];
    numel *= sizes[i];
  }
  return numel;
}

Dim &Writer::addReductionDim(int64_t size) {
  Dim d;
  d.axis = 'r';
  d.size = size;
  d.var = "r0_" + std::to_string(variables_++);
  dims_.push_back(d);
  return dims_.back();
}

Layout Writer::randomLayout(bool allowBroadcast, const std::vector<bool> &usable) {
  Layout layout;
  layout.strides.assign(dims_.size(), 0);
  std::vector<size_t> order;
  for (size_t i = 0; i < dims_.size(); ++i)
    if (usable[i] && !(allowBroadcast && random_.chance(15)))
      order.push_back(i);
  if (random_.chance(40)) // a permuted (transposed) memory order
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<size_t>(random_.between(0, static_cast<int64_t>(i) - 1))]);
  int64_t running = random_.chance(8) ? 2 : 1;
  for (size_t i : order) {
    layout.strides[i] = running;
    running *= dims_[i].size + (random_.chance(20) ? random_.between(1, 5) : 0);
  }
  layout.base = random_.chance(15) ? random_.between(1, 40) : 0;
  layout.elements = layout.base + 1;
  for (size_t i = 0; i < dims_.size(); ++i)
    layout.elements += (dims_[i].size - 1) * layout.strides[i];
  return layout;
}

std::string Writer::offsetText(const Layout &layout) const {
  std::vector<std::string> terms;
  if (layout.base != 0)
    terms.push_back(std::to_string(layout.base));
  for (size_t i = 0; i < dims_.size(); ++i)
    if (layout.strides[i] == 1)
      terms.push_back(dims_[i].var);
    else if (layout.strides[i] != 0)
      terms.push_back(std::to_string(layout.strides[i]) + "*" + dims_[i].var);
  if (terms.empty())
    return "0";
  std::string text = terms[0];
  for (size_t i = 1; i < terms.size(); ++i)
    text += " + " + terms[i];
  return text;
}

bool Writer::usesAxis(const Layout &layout, char axis) const {
  for (size_t i = 0; i < dims_.size(); ++i)
    if (dims_[i].axis == axis && layout.strides[i] != 0)
      return true;
  return false;
}

std::string Writer::maskFor(const Layout &layout) const {
  std::vector<std::string> masks;
  if (usesAxis(layout, 'r'))
    masks.push_back("r0_mask");
  if (usesAxis(layout, 'x'))
    masks.push_back("xmask");
  if (usesAxis(layout, 'y'))
    masks.push_back("ymask");
  std::string text;
  for (const std::string &m : masks)
    text += (text.empty() ? "" : " & ") + m;
  return text;
}

std::vector<bool> Writer::rowDims() const {
  std::vector<bool> usable;
  for (const Dim &d : dims_)
    usable.push_back(d.axis != 'r');
  return usable;
}

std::string Writer::constant(Kind kind, DType dtype, const std::string &text) {
  const std::string name = fresh();
  emit(name + " = tl.full(" + constShape_ + ", " + text + ", " + tlName(kind == Kind::Float ? DType::Float32 : dtype) +
       ")");
  return name;
}

void Writer::load(const std::vector<bool> &usable) {
  if (random_.chance(10)) {
    gatherLoad(usable);
    return;
  }
  GeneratedBuffer buffer;
  buffer.name = "in_ptr" + std::to_string(inputs_++);
  const int kind = static_cast<int>(random_.between(0, 99));
  if (kind < 62)
    buffer.dtype = random_.pick(std::vector<DType>{DType::Float32, DType::Float32, DType::Float16, DType::BFloat16});
  else if (kind < 88)
    buffer.dtype = random_.chance(50) ? DType::Int32 : DType::Int64;
  else
    buffer.dtype = DType::Bool;
  const Layout layout = randomLayout(true, usable);
  buffer.elements = layout.elements;
  kernel_.buffers.push_back(buffer);

  std::string mask = maskFor(layout);
  // A data-dependent mask: a bool computed earlier (in 1-D kernels every
  // value has the block's shape, so it fits any pointer).
  const std::vector<Value> bools = family_ == "pointwise1d" ? candidates(Kind::Bool, Want{true, false, false})
                                                            : std::vector<Value>{};
  if (!mask.empty() && !bools.empty() && random_.chance(25)) {
    mask = use(random_.pick(bools)).name + " & " + mask;
  } else if (!mask.empty() && random_.chance(20)) {
    // A data-independent extra condition, as Inductor writes for cat and pad.
    std::vector<size_t> used;
    for (size_t i = 0; i < dims_.size(); ++i)
      if (layout.strides[i] != 0)
        used.push_back(i);
    const Dim &d = dims_[random_.pick(used)];
    const std::string condition = fresh();
    emit(condition + " = " + d.var + (random_.chance(50) ? " < " : " >= ") +
         std::to_string(random_.between(0, d.size)));
    mask = condition + " & " + mask;
  }
  const bool isFloat = core::isFloat(buffer.dtype);
  const std::string other = isFloat ? (random_.chance(80) ? "0.0" : "-1.5") : "0";
  std::string text = "tl.load(" + buffer.name + " + (" + offsetText(layout) + ")";
  if (!mask.empty())
    text += ", " + mask + (random_.chance(30) ? ", eviction_policy='evict_last'" : "") + ", other=" + other;
  text += ")";
  if (buffer.dtype == DType::Float16 || buffer.dtype == DType::BFloat16)
    text += ".to(tl.float32)";
  else if (buffer.dtype == DType::Bool)
    text += ".to(tl.int1)";
  Value v;
  v.name = fresh();
  v.kind = isFloat ? Kind::Float : buffer.dtype == DType::Bool ? Kind::Bool : Kind::Int;
  v.dtype = isFloat ? DType::Float32 : buffer.dtype;
  v.spansR = usesAxis(layout, 'r');
  emit(v.name + " = " + text);
  if (mask.empty() && layout.strides == std::vector<int64_t>(dims_.size(), 0)) {
    // A scalar load; Inductor broadcasts it to the block.
    const std::string b = fresh();
    emit(b + " = tl.broadcast_to(" + v.name + ", " + fullShape_ + ")");
    v.name = b;
    v.spansR = family_ == "persistent" || family_ == "looped";
  }
  pool_.push_back(v);
}

Writer::WrappedIndex Writer::wrappedIndex(const std::vector<bool> &usable) {
  // The index buffer holds values in [-20, 20] (the test's input filler):
  // Inductor's wrap of negative indices maps them into [0, 21).
  constexpr int64_t rows = wrappedRows;
  GeneratedBuffer index;
  index.name = "in_ptr" + std::to_string(inputs_++);
  index.dtype = random_.chance(50) ? DType::Int32 : DType::Int64;
  const Layout layout = randomLayout(true, usable);
  index.elements = layout.elements;
  kernel_.buffers.push_back(index);
  const std::string mask = maskFor(layout);
  const std::string raw = fresh(), wrapped = fresh(), negative = fresh(), position = fresh();
  emit(raw + " = tl.load(" + index.name + " + (" + offsetText(layout) + ")" + (mask.empty() ? "" : ", " + mask) +
       (random_.chance(50) ? ", eviction_policy='evict_last'" : "") + ")");
  emit(wrapped + " = " + raw + " + " + std::to_string(rows));
  emit(negative + " = " + raw + " < 0");
  emit(position + " = tl.where(" + negative + ", " + wrapped + ", " + raw + ")");
  const std::string inRange = "(0 <= " + position + ") & (" + position + " < " + std::to_string(rows) + ")";
  emit("tl.device_assert((" + inRange + ")" + (mask.empty() ? "" : " | ~(" + mask + ")") +
       ", \"index out of bounds: 0 <= " + position + " < " + std::to_string(rows) + "\")");
  pool_.push_back(Value{raw, Kind::Int, index.dtype, true, usesAxis(layout, 'r')});
  return WrappedIndex{position, layout, mask};
}

// A second index along one of the dims the index uses ("+ 21*x1"), or none.
std::string Writer::tableOffset(const WrappedIndex &index, int64_t &elements) {
  std::string offset = index.position;
  elements = wrappedRows;
  std::vector<size_t> used;
  for (size_t i = 0; i < dims_.size(); ++i)
    if (index.layout.strides[i] != 0)
      used.push_back(i);
  if (!used.empty() && random_.chance(50)) { // one table per value of another index, as in a batched gather
    const Dim &d = dims_[random_.pick(used)];
    offset += " + " + std::to_string(wrappedRows) + "*" + d.var;
    elements = wrappedRows * d.size;
  }
  return offset;
}

void Writer::gatherLoad(const std::vector<bool> &usable) {
  const WrappedIndex index = wrappedIndex(usable);
  const std::string &mask = index.mask;
  GeneratedBuffer table;
  table.name = "in_ptr" + std::to_string(inputs_++);
  table.dtype = random_.pick(std::vector<DType>{DType::Float32, DType::Float16, DType::BFloat16, DType::Int32});
  const std::string offset = tableOffset(index, table.elements);
  kernel_.buffers.push_back(table);
  const bool isFloat = core::isFloat(table.dtype);
  Value v;
  v.name = fresh();
  v.kind = isFloat ? Kind::Float : Kind::Int;
  v.dtype = isFloat ? DType::Float32 : table.dtype;
  v.spansR = usesAxis(index.layout, 'r');
  emit(v.name + " = tl.load(" + table.name + " + (" + offset + ")" +
       (mask.empty() ? "" : ", " + mask + ", other=" + (isFloat ? "0.0" : "0")) + ")" +
       (table.dtype == DType::Float16 || table.dtype == DType::BFloat16 ? ".to(tl.float32)" : ""));
  pool_.push_back(v);
}

void Writer::scatterAdd(const std::string &fullMask) {
  const WrappedIndex index = wrappedIndex(allDims());
  GeneratedBuffer target;
  target.name = "out_ptr" + std::to_string(outputs_++);
  target.written = true;
  target.dtype = random_.pick(std::vector<DType>{DType::Float32, DType::Float32, DType::Int32, DType::Int64});
  const std::string offset = tableOffset(index, target.elements);
  kernel_.buffers.push_back(target);
  // Float additions may happen in another order on the NPU: moderate magnitudes.
  Want want;
  want.bounded = true;
  const int depth = static_cast<int>(random_.between(0, 3));
  const Value v = target.dtype == DType::Float32 ? floatExpr(depth, want) : intExpr(depth, want);
  storeLines_.push_back("    tl.atomic_add(" + target.name + " + (tl.broadcast_to(" + offset + ", " + fullShape_ + ")), " +
                        v.name + ", " + fullMask + ", sem='relaxed')");
}

void Writer::loadInOut() {
  GeneratedBuffer buffer;
  buffer.name = "in_out_ptr0";
  buffer.written = true;
  buffer.dtype = random_.pick(std::vector<DType>{DType::Float32, DType::Float16, DType::Int32, DType::Int64});
  const Layout layout = randomLayout(false, allDims());
  buffer.elements = layout.elements;
  kernel_.buffers.push_back(buffer);
  const bool isFloat = core::isFloat(buffer.dtype);
  inOut_ = Value{fresh(), isFloat ? Kind::Float : Kind::Int, isFloat ? DType::Float32 : buffer.dtype, true, false};
  inOutPlace_ = "in_out_ptr0 + (" + offsetText(layout) + ")";
  inOutMask_ = maskFor(layout);
  emit(inOut_.name + " = tl.load(" + inOutPlace_ + ", " + inOutMask_ + ")" +
       (buffer.dtype == DType::Float16 ? ".to(tl.float32)" : ""));
  pool_.push_back(inOut_);
}

std::vector<Value> Writer::candidates(Kind kind, const Want &want) {
  std::vector<Value> found, unused;
  for (const Value &v : pool_)
    if (v.kind == kind && (v.exact || !want.exact) && (!v.spansR || !want.noR)) {
      found.push_back(v);
      if (!used_.count(v.name))
        unused.push_back(v);
    }
  return !unused.empty() && random_.chance(80) ? unused : found;
}

const Value &Writer::use(const Value &v) {
  used_.insert(v.name);
  return v;
}

Value Writer::make(Kind kind, DType dtype, const std::string &text, std::initializer_list<const Value *> operands) {
  Value v;
  v.name = fresh();
  v.kind = kind;
  v.dtype = dtype;
  for (const Value *o : operands) {
    v.exact = v.exact && o->exact;
    v.spansR = v.spansR || o->spansR;
  }
  emit(v.name + " = " + text);
  return v;
}

std::string Writer::floatLiteral() {
  return random_.pick(std::vector<std::string>{"0.5", "1.0", "-2.0", "3.0", "0.125", "1e-05", "-0.75"});
}

Value Writer::floatLeaf(const Want &want) {
  const std::vector<Value> found = candidates(Kind::Float, want);
  if (!found.empty() && random_.chance(75))
    return use(random_.pick(found));
  switch (random_.between(0, 2)) {
  case 0: {
    Value c;
    c.name = constant(Kind::Float, DType::Float32, floatLiteral());
    return c;
  }
  case 1: {
    const Value i = intExpr(0, want);
    return make(Kind::Float, DType::Float32, i.name + ".to(tl.float32)", {&i});
  }
  default: {
    const Value b = boolExpr(0, want);
    return make(Kind::Float, DType::Float32, b.name + ".to(tl.float32)", {&b});
  }
  }
}

Value Writer::floatExpr(int depth, const Want &want) {
  if (depth <= 0 || random_.chance(15))
    return floatLeaf(want);
  const int op = static_cast<int>(random_.between(0, 17));
  const Value a = floatExpr(depth - 1, want);
  switch (op) {
  case 0: case 1: case 2: {
    const Value b = floatExpr(depth - 1, want);
    const char *symbol = op == 0 ? " + " : op == 1 ? " - " : " * ";
    return make(Kind::Float, DType::Float32, a.name + symbol + b.name, {&a, &b});
  }
  case 3: {
    const Value b = floatExpr(depth - 1, want);
    if (!want.bounded && random_.chance(25))
      return make(Kind::Float, DType::Float32, "(" + a.name + " / " + b.name + ")", {&a, &b});
    return make(Kind::Float, DType::Float32, "(" + a.name + " / (tl_math.abs(" + b.name + ") + 1.0))", {&a, &b});
  }
  case 4: case 5: {
    const Value b = floatExpr(depth - 1, want);
    const char *f = op == 4 ? "triton_helpers.maximum" : "triton_helpers.minimum";
    return make(Kind::Float, DType::Float32, std::string(f) + "(" + a.name + ", " + b.name + ")", {&a, &b});
  }
  case 6:
    if (want.bounded)
      return make(Kind::Float, DType::Float32, "tl_math.exp(libdevice.tanh(" + a.name + "))", {&a});
    return make(Kind::Float, DType::Float32, "tl_math.exp(" + a.name + ")", {&a});
  case 7: return make(Kind::Float, DType::Float32, "tl_math.log(tl_math.abs(" + a.name + ") + 1.0)", {&a});
  case 8: return make(Kind::Float, DType::Float32, "libdevice.sqrt(tl_math.abs(" + a.name + "))", {&a});
  case 9: return make(Kind::Float, DType::Float32, "libdevice.tanh(" + a.name + ")", {&a});
  case 10: return make(Kind::Float, DType::Float32, "tl.sigmoid(" + a.name + ")", {&a});
  case 11: return make(Kind::Float, DType::Float32, "-" + a.name, {&a});
  case 12: return make(Kind::Float, DType::Float32, "tl_math.abs(" + a.name + ")", {&a});
  case 13: {
    if (!a.exact) // rounding to 16 bits would turn a last-bit difference into one 16-bit ulp
      return a;
    const char *narrow = random_.chance(50) ? "tl.float16" : "tl.bfloat16";
    return make(Kind::Float, DType::Float32, a.name + ".to(" + narrow + ").to(tl.float32)", {&a});
  }
  case 14: case 15: {
    const Value c = boolExpr(depth - 1, want);
    if (random_.chance(30)) // a Python number as one branch, as for relu and masked fills
      return make(Kind::Float, DType::Float32, "tl.where(" + c.name + ", " + a.name + ", " + floatLiteral() + ")", {&c, &a});
    const Value b = floatExpr(depth - 1, want);
    return make(Kind::Float, DType::Float32, "tl.where(" + c.name + ", " + a.name + ", " + b.name + ")", {&c, &a, &b});
  }
  default: {
    const char *symbol = random_.pick(std::vector<const char *>{" + ", " * ", " - "});
    return make(Kind::Float, DType::Float32, a.name + symbol + floatLiteral(), {&a});
  }
  }
}

Value Writer::intLeaf(const Want &want) {
  const std::vector<Value> found = candidates(Kind::Int, want);
  const int choice = static_cast<int>(random_.between(0, 9));
  if (!found.empty() && choice < 6)
    return use(random_.pick(found));
  if (choice < 8) {
    std::vector<Value> indices;
    for (const Dim &d : dims_)
      if (visibleIndex(d) && !(want.noR && d.axis == 'r'))
        indices.push_back(Value{d.var, Kind::Int, DType::Int32, true, d.axis == 'r'});
    if (!indices.empty())
      return random_.pick(indices);
  }
  if (choice == 8) {
    Want exactWant = want;
    exactWant.exact = true;
    const Value f = floatExpr(1, exactWant);
    const DType type = random_.chance(50) ? DType::Int32 : DType::Int64;
    return make(Kind::Int, type, f.name + ".to(" + tlName(type) + ")", {&f}); // saturating, NaN gives 0
  }
  Value c;
  c.kind = Kind::Int;
  c.dtype = random_.chance(50) ? DType::Int32 : DType::Int64;
  // Now and then the edges of the integer types, where arithmetic wraps.
  std::string value = std::to_string(random_.between(-9, 9));
  if (random_.chance(12))
    value = c.dtype == DType::Int32 ? random_.pick(std::vector<std::string>{"2147483647", "-2147483648", "65536"})
                                    : random_.pick(std::vector<std::string>{"3000000000", "-5000000000", "4294967296"});
  c.name = constant(Kind::Int, c.dtype, value);
  return c;
}

Value Writer::intExpr(int depth, const Want &want) {
  if (depth <= 0 || random_.chance(25))
    return intLeaf(want);
  const Value a = intExpr(depth - 1, want);
  const int op = static_cast<int>(random_.between(0, 15));
  switch (op) {
  case 13: case 14: {
    // Integer ops whose edge cases are defined (docs/tileir.md): division and
    // remainder by zero or MIN / -1, shifts by negative or too large amounts.
    const Value b = intExpr(depth - 1, want);
    const char *symbol = random_.pick(std::vector<const char *>{" // ", " % ", " << ", " >> "});
    return make(Kind::Int, wider(a.dtype, b.dtype), "(" + a.name + symbol + b.name + ")", {&a, &b});
  }
  case 15:
    return make(Kind::Int, a.dtype, random_.chance(50) ? "-" + a.name : "tl_math.abs(" + a.name + ")", {&a});
  case 0: case 1: case 2: case 3: case 4: {
    const Value b = intExpr(depth - 1, want);
    const char *symbol = random_.pick(std::vector<const char *>{" + ", " - ", " * ", " & ", " | ", " ^ "});
    return make(Kind::Int, wider(a.dtype, b.dtype), a.name + symbol + b.name, {&a, &b});
  }
  case 5: {
    const int64_t divisor = random_.chance(80) ? random_.between(1, 9) : -random_.between(1, 5);
    const char *symbol = random_.chance(50) ? " // " : " % ";
    return make(Kind::Int, a.dtype, "(" + a.name + symbol + "(" + std::to_string(divisor) + "))", {&a});
  }
  case 6: {
    // Python floor division of a by a constant tensor, as Inductor writes it.
    const std::string d = constant(Kind::Int, a.dtype, std::to_string(random_.between(1, 7)));
    return make(Kind::Int, a.dtype,
                "tl.where((" + a.name + " < 0) != (" + d + " < 0), tl.where(" + a.name + " % " + d + " != 0, " + a.name +
                    " // " + d + " - 1, " + a.name + " // " + d + "), " + a.name + " // " + d + ")",
                {&a});
  }
  case 7: return make(Kind::Int, a.dtype, "~" + a.name, {&a});
  case 8: {
    const std::string shift = constant(Kind::Int, a.dtype, std::to_string(random_.between(0, 3)));
    return make(Kind::Int, a.dtype, a.name + (random_.chance(50) ? " << " : " >> ") + shift, {&a});
  }
  case 9: {
    const Value b = intExpr(depth - 1, want);
    const char *f = random_.chance(50) ? "triton_helpers.maximum" : "triton_helpers.minimum";
    return make(Kind::Int, wider(a.dtype, b.dtype), std::string(f) + "(" + a.name + ", " + b.name + ")", {&a, &b});
  }
  case 10: {
    const Value c = boolExpr(depth - 1, want);
    const Value b = intExpr(depth - 1, want);
    return make(Kind::Int, wider(a.dtype, b.dtype), "tl.where(" + c.name + ", " + a.name + ", " + b.name + ")",
                {&c, &a, &b});
  }
  default:
    return make(Kind::Int, a.dtype, a.name + " + " + std::to_string(random_.between(-5, 5)), {&a});
  }
}

Value Writer::boolExpr(int depth, const Want &want) {
  Want exactWant = want;
  exactWant.exact = true; // a comparison turns a rounding difference into a different bool
  const std::vector<Value> found = candidates(Kind::Bool, exactWant);
  if (depth <= 0 || random_.chance(30)) {
    if (!found.empty() && random_.chance(60))
      return use(random_.pick(found));
    const Value i = intLeaf(exactWant);
    return make(Kind::Bool, DType::Bool, i.name + (random_.chance(50) ? " < " : " >= ") + std::to_string(random_.between(-3, 6)),
                {&i});
  }
  const char *comparison = random_.pick(std::vector<const char *>{" < ", " > ", " <= ", " >= ", " == ", " != "});
  switch (random_.between(0, 4)) {
  case 0: case 1: {
    const Value a = floatExpr(depth - 1, exactWant), b = floatExpr(depth - 1, exactWant);
    return make(Kind::Bool, DType::Bool, a.name + comparison + b.name, {&a, &b});
  }
  case 2: {
    const Value a = intExpr(depth - 1, exactWant), b = intExpr(depth - 1, exactWant);
    return make(Kind::Bool, DType::Bool, a.name + comparison + b.name, {&a, &b});
  }
  case 3: {
    const Value a = boolExpr(depth - 1, exactWant), b = boolExpr(depth - 1, exactWant);
    const char *symbol = random_.pick(std::vector<const char *>{" & ", " | ", " ^ ", " != "});
    return make(Kind::Bool, DType::Bool, a.name + symbol + b.name, {&a, &b});
  }
  default: {
    const Value a = boolExpr(depth - 1, exactWant);
    return make(Kind::Bool, DType::Bool, random_.chance(50) ? "~" + a.name : a.name + " == 0", {&a});
  }
  }
}

Value Writer::anyExpr(int depth, const Want &want) {
  const int kind = static_cast<int>(random_.between(0, 99));
  if (kind < 60)
    return floatExpr(depth, want);
  if (kind < 85)
    return intExpr(depth, want);
  return boolExpr(depth, want);
}

void Writer::store(const Value &value, const std::vector<bool> &usable) {
  GeneratedBuffer buffer;
  buffer.name = "out_ptr" + std::to_string(outputs_++);
  buffer.written = true;
  if (value.kind == Kind::Float)
    buffer.dtype = random_.pick(std::vector<DType>{DType::Float32, DType::Float32, DType::Float16, DType::BFloat16});
  else if (value.kind == Kind::Int)
    buffer.dtype = random_.chance(70) ? value.dtype : (value.dtype == DType::Int32 ? DType::Int64 : DType::Int32);
  else
    buffer.dtype = DType::Bool;
  const Layout layout = randomLayout(false, usable);
  buffer.elements = layout.elements;
  kernel_.buffers.push_back(buffer);
  storeLines_.push_back(std::string(static_cast<size_t>(4 * indent_), ' ') + "tl.store(" + buffer.name + " + (" +
                        offsetText(layout) + "), " + value.name + ", " + maskFor(layout) + ")");
}

} // namespace npusim::differential::generator
