#include "differential/kernel_generator.h"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <sstream>

namespace npusim::differential {
namespace {

using core::DType;

// splitmix64: the same stream on every platform and standard library.
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int64_t between(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  bool chance(int percent) { return between(0, 99) < percent; }
  template <class T> const T &pick(const std::vector<T> &items) {
    return items[static_cast<size_t>(between(0, static_cast<int64_t>(items.size()) - 1))];
  }

private:
  uint64_t state_;
};

enum class Kind { Float, Int, Bool };

// A Triton value of the kernel body. Floats are always fp32 (Inductor upcasts
// fp16/bf16 loads). `exact` is false for values derived from a float sum or
// welford: the reference may run with other block sizes, so those differ by
// rounding, and must not feed anything discontinuous (comparisons, casts to
// integers or to 16-bit floats, argmax).
struct Value {
  std::string name;
  Kind kind = Kind::Float;
  DType dtype = DType::Float32;
  bool exact = true;
  bool spansR = false; // has the reduction axis (cannot be stored per row)
};

// What an expression may use.
struct Want {
  bool exact = false;   // only exact leaves
  bool noR = false;     // no values spanning the reduction axis
  bool bounded = false; // magnitudes stay moderate (no exp, no raw division)
};

// A logical dimension of the iteration space and its index variable.
struct Dim {
  char axis = 'x'; // 'x', 'y' or 'r'
  int64_t size = 1;
  std::string var;
};

// Where a tensor's elements lie: a stride per logical dimension (0 broadcasts).
struct Layout {
  std::vector<int64_t> strides;
  int64_t base = 0;
  int64_t elements = 1;
};

const char *tlName(DType t) {
  switch (t) {
  case DType::Float16: return "tl.float16";
  case DType::BFloat16: return "tl.bfloat16";
  case DType::Int32: return "tl.int32";
  case DType::Int64: return "tl.int64";
  case DType::Bool: return "tl.int1";
  default: return "tl.float32";
  }
}

const char *signatureName(DType t) {
  switch (t) {
  case DType::Float16: return "*fp16";
  case DType::BFloat16: return "*bf16";
  case DType::Int32: return "*i32";
  case DType::Int64: return "*i64";
  case DType::Bool: return "*i1";
  default: return "*fp32";
  }
}

int64_t nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

class Writer {
public:
  explicit Writer(uint64_t seed) : random_(seed * 0x2545F4914F6CDD1Dull + 17) { kernel_.seed = seed; }

  GeneratedKernel write() {
    switch (random_.between(0, 9)) {
    case 0: case 1: case 2: pointwise1d(); break;
    case 3: case 4: pointwise2d(); break;
    case 5: case 6: case 7: persistentReduction(); break;
    default: loopedReduction(); break;
    }
    assemble();
    return kernel_;
  }

private:
  // ---- sizes and index variables ----

  int64_t randomSize(int64_t most) {
    const int band = static_cast<int>(random_.between(0, 9));
    if (band < 4)
      return random_.between(1, std::min<int64_t>(9, most));
    if (band < 7)
      return random_.between(1, std::min<int64_t>(100, most));
    return random_.between(1, most);
  }

  // Sizes of `rank` dims whose product stays within `most`.
  std::vector<int64_t> randomSizes(int rank, int64_t most) {
    std::vector<int64_t> sizes;
    int64_t left = most;
    for (int i = 0; i < rank; ++i) {
      const int64_t s = randomSize(std::max<int64_t>(1, i + 1 == rank ? left : std::min<int64_t>(left, 64)));
      sizes.push_back(s);
      left = std::max<int64_t>(1, left / s);
    }
    return sizes;
  }

  // Adds dims of one axis (innermost first) and their index variables, the
  // way Inductor splits a flat index: x0 = xindex % a, x1 = (xindex // a) % b, ...
  int64_t addAxis(char axis, const std::vector<int64_t> &sizes) {
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

  Dim &addReductionDim(int64_t size) {
    Dim d;
    d.axis = 'r';
    d.size = size;
    d.var = "r0_" + std::to_string(variables_++);
    dims_.push_back(d);
    return dims_.back();
  }

  // ---- layouts ----

  Layout randomLayout(bool allowBroadcast, const std::vector<bool> &usable) {
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

  std::string offsetText(const Layout &layout) const {
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

  bool usesAxis(const Layout &layout, char axis) const {
    for (size_t i = 0; i < dims_.size(); ++i)
      if (dims_[i].axis == axis && layout.strides[i] != 0)
        return true;
    return false;
  }

  // The conjunction of the masks of the axes the layout uses (Inductor leaves
  // out the masks of axes an access does not depend on).
  std::string maskFor(const Layout &layout) const {
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

  std::vector<bool> allDims() const { return std::vector<bool>(dims_.size(), true); }
  std::vector<bool> rowDims() const {
    std::vector<bool> usable;
    for (const Dim &d : dims_)
      usable.push_back(d.axis != 'r');
    return usable;
  }

  // ---- statements ----

  void emit(const std::string &line) { target_->push_back(std::string(static_cast<size_t>(4 * indent_), ' ') + line); }
  std::string fresh() { return "tmp" + std::to_string(temporaries_++); }

  std::string constant(Kind kind, DType dtype, const std::string &text) {
    const std::string name = fresh();
    emit(name + " = tl.full(" + constShape_ + ", " + text + ", " + tlName(kind == Kind::Float ? DType::Float32 : dtype) +
         ")");
    return name;
  }

  // A load of a new input buffer into the pool.
  void load(const std::vector<bool> &usable) {
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
    // A data-independent extra condition, as Inductor writes for cat and pad.
    if (!mask.empty() && random_.chance(20)) {
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

  // ---- expressions ----

  // Pool values an expression may use; when some are still unused (a load
  // nothing reads yet), mostly only those, so that every load tends to matter.
  std::vector<Value> candidates(Kind kind, const Want &want) {
    std::vector<Value> found, unused;
    for (const Value &v : pool_)
      if (v.kind == kind && (v.exact || !want.exact) && (!v.spansR || !want.noR)) {
        found.push_back(v);
        if (!used_.count(v.name))
          unused.push_back(v);
      }
    return !unused.empty() && random_.chance(80) ? unused : found;
  }

  const Value &use(const Value &v) {
    used_.insert(v.name);
    return v;
  }

  Value make(Kind kind, DType dtype, const std::string &text, std::initializer_list<const Value *> operands) {
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

  std::string floatLiteral() {
    return random_.pick(std::vector<std::string>{"0.5", "1.0", "-2.0", "3.0", "0.125", "1e-05", "-0.75"});
  }

  Value floatLeaf(const Want &want) {
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

  Value floatExpr(int depth, const Want &want) {
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
      const Value b = floatExpr(depth - 1, want);
      return make(Kind::Float, DType::Float32, "tl.where(" + c.name + ", " + a.name + ", " + b.name + ")", {&c, &a, &b});
    }
    default: {
      const char *symbol = random_.pick(std::vector<const char *>{" + ", " * ", " - "});
      return make(Kind::Float, DType::Float32, a.name + symbol + floatLiteral(), {&a});
    }
    }
  }

  Value intLeaf(const Want &want) {
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
    c.name = constant(Kind::Int, c.dtype, std::to_string(random_.between(-9, 9)));
    return c;
  }

  static DType wider(DType a, DType b) { return a == DType::Int64 || b == DType::Int64 ? DType::Int64 : DType::Int32; }

  Value intExpr(int depth, const Want &want) {
    if (depth <= 0 || random_.chance(25))
      return intLeaf(want);
    const Value a = intExpr(depth - 1, want);
    const int op = static_cast<int>(random_.between(0, 12));
    switch (op) {
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

  Value boolExpr(int depth, const Want &want) {
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

  Value anyExpr(int depth, const Want &want) {
    const int kind = static_cast<int>(random_.between(0, 99));
    if (kind < 60)
      return floatExpr(depth, want);
    if (kind < 85)
      return intExpr(depth, want);
    return boolExpr(depth, want);
  }

  // Inside a looped reduction the r index exists only in the loop body.
  bool visibleIndex(const Dim &d) const { return d.axis != 'r' || rIndexVisible_; }

  // ---- stores ----

  void store(const Value &value, const std::vector<bool> &usable) {
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

  // ---- reductions ----

  enum class Reduction { Sum, Max, Min, ArgMax, ArgMin, Welford };

  Reduction randomReduction(Kind kind, bool looped) {
    if (kind == Kind::Int)
      return random_.pick(std::vector<Reduction>{Reduction::Sum, Reduction::Max, Reduction::Min});
    std::vector<Reduction> kinds{Reduction::Sum, Reduction::Sum, Reduction::Max, Reduction::Min, Reduction::ArgMax,
                                 Reduction::ArgMin};
    if (looped)
      kinds.push_back(Reduction::Welford);
    return random_.pick(kinds);
  }

  static std::string identity(Reduction r, const Value &v) {
    const bool isFloat = v.kind == Kind::Float;
    if (r == Reduction::Max || r == Reduction::ArgMax)
      return isFloat ? "float(\"-inf\")" : "-2147483648";
    if (r == Reduction::Min || r == Reduction::ArgMin)
      return isFloat ? "float(\"inf\")" : "2147483647";
    return "0";
  }

  // Persistent: reduces a whole [XBLOCK, R0_BLOCK] value; the results (per row) join the pool.
  void reducePersistent(const Value &input, Reduction r) {
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

  // Looped: accumulators before the loop, the update in its body, the final
  // reduction after it; the results join `after`.
  void reduceLooped(const Value &input, Reduction r, std::vector<Value> &after) {
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

  // ---- families ----

  void pointwise1d() {
    family_ = "pointwise1d";
    constShape_ = "[1]";
    fullShape_ = "[XBLOCK]";
    const int rank = static_cast<int>(random_.between(1, 3));
    xnumel_ = addAxis('x', randomSizes(rank, 4096));
    header_ = {"xnumel = " + std::to_string(xnumel_), "xoffset = tl.program_id(0) * XBLOCK",
               "xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xmask = xindex < xnumel"};
    pointwiseBody();
  }

  void pointwise2d() {
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

  void pointwiseBody() {
    target_ = &bodyLines_;
    const int loads = static_cast<int>(random_.between(1, 4));
    for (int i = 0; i < loads; ++i)
      load(allDims());
    const int stores = static_cast<int>(random_.between(1, 3));
    for (int i = 0; i < stores; ++i)
      store(anyExpr(static_cast<int>(random_.between(1, 4)), Want{}), allDims());
  }

  void reductionHeader(bool persistent) {
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

  void persistentReduction() {
    family_ = "persistent";
    reductionHeader(true);
    rIndexVisible_ = true;
    target_ = &bodyLines_;
    const int loads = static_cast<int>(random_.between(1, 3));
    for (int i = 0; i < loads; ++i)
      load(allDims());
    const int reductions = static_cast<int>(random_.between(1, 3));
    for (int i = 0; i < reductions; ++i) {
      Want want;
      want.bounded = true;
      const Value input = random_.chance(75) ? floatExpr(static_cast<int>(random_.between(0, 3)), want)
                                             : intExpr(static_cast<int>(random_.between(0, 2)), want);
      reducePersistent(input, randomReduction(input.kind, false));
      const Value rowResult = pool_.back();
      if (random_.chance(60))
        store(rowResult, rowDims());
      else
        store(postReduction(rowResult), rowDims());
    }
    if (random_.chance(60)) { // per-row results broadcast back over the row
      Want want;
      want.bounded = true;
      store(floatExpr(static_cast<int>(random_.between(1, 3)), want), allDims());
    }
  }

  // Well-conditioned arithmetic on a per-row result (it may carry rounding differences).
  Value postReduction(const Value &row) {
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

  void loopHeader(std::vector<std::string> &lines, const Dim &r) {
    const char *range = random_.chance(50) ? "tl.range" : "range";
    lines.push_back("    for r0_offset in " + std::string(range) + "(0, r0_numel, R0_BLOCK):");
    for (const std::string &l : {std::string("r0_index = r0_offset + r0_base"), std::string("r0_mask = r0_index < r0_numel"),
                                 std::string("roffset = r0_offset"), std::string("rindex = r0_index"),
                                 r.var + " = r0_index"})
      lines.push_back("        " + l);
  }

  void loopedReduction() {
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

  // The store text (without `tl.store(`) of a per-row result to a new contiguous buffer.
  std::string storeRow(const Value &row) {
    GeneratedBuffer buffer;
    buffer.name = "out_ptr" + std::to_string(outputs_++);
    buffer.written = true;
    buffer.dtype = row.kind == Kind::Float ? DType::Float32 : row.dtype;
    const Layout layout = randomLayout(false, rowDims());
    buffer.elements = layout.elements;
    kernel_.buffers.push_back(buffer);
    return buffer.name + " + (" + offsetText(layout) + "), " + row.name + ", xmask";
  }

  // ---- the file ----

  void assemble() {
    const bool reduction = family_ == "persistent" || family_ == "looped";
    const std::string prefix = family_ == "persistent" ? "triton_per" : family_ == "looped" ? "triton_red" : "triton_poi";
    kernel_.family = family_;
    kernel_.name = prefix + "_fused_random_" + std::to_string(kernel_.seed);

    std::vector<std::pair<std::string, std::string>> signature;
    for (const GeneratedBuffer &b : kernel_.buffers)
      if (!b.written)
        signature.emplace_back(b.name, signatureName(b.dtype));
    for (const GeneratedBuffer &b : kernel_.buffers)
      if (b.written)
        signature.emplace_back(b.name, signatureName(b.dtype));
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
        << "', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'num_load': " << inputs_
        << ", 'num_reduction': " << (reduction ? 1 : 0) << "},\n";
    out << (reduction ? "" : "    min_elem_per_thread=0\n") << ")\n@triton.jit\ndef " << kernel_.name << "(";
    for (size_t i = 0; i < signature.size(); ++i)
      out << (i ? ", " : "") << signature[i].first << (signature[i].second == "constexpr" ? " : tl.constexpr" : "");
    out << "):\n";
    for (const std::string &l : header_)
      out << "    " << l << "\n";
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
    // Inputs first, then outputs: the parameter order of the signature.
    std::stable_partition(kernel_.buffers.begin(), kernel_.buffers.end(), [](const GeneratedBuffer &b) { return !b.written; });
  }

  Random random_;
  GeneratedKernel kernel_;
  std::string family_;
  std::string constShape_, fullShape_;
  std::vector<Dim> dims_;
  int64_t xnumel_ = 1, ynumel_ = 1, rnumel_ = 1;
  int variables_ = 0, temporaries_ = 0, inputs_ = 0, outputs_ = 0;
  bool rIndexVisible_ = false;
  std::vector<Value> pool_;
  std::set<std::string> used_;
  std::vector<std::string> header_, indexLines_, bodyLines_, accumulatorLines_, loopLines_, afterLoopLines_,
      afterLoopStores_, secondLoopLines_, storeLines_;
  std::vector<std::string> *target_ = &bodyLines_;
  int indent_ = 1;
};

} // namespace

GeneratedKernel generateKernel(uint64_t seed) { return Writer(seed).write(); }

} // namespace npusim::differential
