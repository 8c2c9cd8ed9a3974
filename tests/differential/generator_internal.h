#pragma once
// The kernel generator's internals, shared by its two source files:
// generator_expressions_support.cpp (index variables, layouts, loads,
// expression trees, stores) and kernel_generator_support.cpp (reductions, the
// four kernel families, the file text).
#include "differential/kernel_generator.h"
#include "core/shape.h"

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace npusim::differential::generator {

using core::nextPowerOfTwo;

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
// fp16/bf16 loads). `exact` is false for values derived from a float sum,
// cumsum or welford: the reference may run with other block sizes, so those differ by
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

inline const char *tlName(DType t) {
  switch (t) {
  case DType::Float16: return "tl.float16";
  case DType::BFloat16: return "tl.bfloat16";
  case DType::Int32: return "tl.int32";
  case DType::Int64: return "tl.int64";
  case DType::Bool: return "tl.int1";
  default: return "tl.float32";
  }
}

inline const char *signatureName(DType t) {
  switch (t) {
  case DType::Float16: return "*fp16";
  case DType::BFloat16: return "*bf16";
  case DType::Int32: return "*i32";
  case DType::Int64: return "*i64";
  case DType::Bool: return "*i1";
  default: return "*fp32";
  }
}

// Writes one kernel: picks a family, its iteration space and index variables,
// then loads, expressions, reductions and stores, each statement appended to
// the section of the body it belongs in; assemble() puts the file together.
class Writer {
public:
  explicit Writer(uint64_t seed) : random_(seed * 0x2545F4914F6CDD1Dull + 17) { kernel_.seed = seed; }

  GeneratedKernel write();

private:
  // ---- sizes and index variables ----

  int64_t randomSize(int64_t most);

  // Sizes of `rank` dims whose product stays within `most`.
  std::vector<int64_t> randomSizes(int rank, int64_t most);

  // Adds dims of one axis (innermost first) and their index variables, the
  // way Inductor splits a flat index: x0 = xindex % a, x1 = (xindex // a) % b, ...
  int64_t addAxis(char axis, const std::vector<int64_t> &sizes);

  Dim &addReductionDim(int64_t size);

  // ---- layouts ----

  Layout randomLayout(bool allowBroadcast, const std::vector<bool> &usable);

  std::string offsetText(const Layout &layout) const;

  bool usesAxis(const Layout &layout, char axis) const;

  // The conjunction of the masks of the axes the layout uses (Inductor leaves
  // out the masks of axes an access does not depend on).
  std::string maskFor(const Layout &layout) const;

  std::vector<bool> allDims() const { return std::vector<bool>(dims_.size(), true); }
  std::vector<bool> rowDims() const;

  // ---- statements ----

  void emit(const std::string &line) { target_->push_back(std::string(static_cast<size_t>(4 * indent_), ' ') + line); }
  std::string fresh() { return "tmp" + std::to_string(temporaries_++); }

  std::string constant(Kind kind, DType dtype, const std::string &text);

  // A load of a new input buffer into the pool.
  void load(const std::vector<bool> &usable);

  // An embedding-style indirect load: indices from one buffer, wrapped and
  // checked by tl.device_assert as Inductor does, address a table.
  void gatherLoad(const std::vector<bool> &usable);

  // Loads an index buffer, wraps negative indices and asserts the range.
  static constexpr int64_t wrappedRows = 21;
  struct WrappedIndex {
    std::string position; // the wrapped index, in [0, wrappedRows)
    Layout layout;        // of the index buffer
    std::string mask;     // of its load
  };
  WrappedIndex wrappedIndex(const std::vector<bool> &usable);
  std::string tableOffset(const WrappedIndex &index, int64_t &elements);

  // index_add / scatter_add: tl.atomic_add through wrapped indices (pointwise kernels).
  void scatterAdd(const std::string &fullMask);

  // A mutated argument: in_out_ptr0 loaded first, stored last at the same place.
  void loadInOut();

  // ---- expressions ----

  // Pool values an expression may use; when some are still unused (a load
  // nothing reads yet), mostly only those, so that every load tends to matter.
  std::vector<Value> candidates(Kind kind, const Want &want);

  const Value &use(const Value &v);

  Value make(Kind kind, DType dtype, const std::string &text, std::initializer_list<const Value *> operands);

  std::string floatLiteral();

  Value floatLeaf(const Want &want);

  Value floatExpr(int depth, const Want &want);

  Value intLeaf(const Want &want);

  static DType wider(DType a, DType b) { return a == DType::Int64 || b == DType::Int64 ? DType::Int64 : DType::Int32; }

  Value intExpr(int depth, const Want &want);

  Value boolExpr(int depth, const Want &want);

  Value anyExpr(int depth, const Want &want);

  // Inside a looped reduction the r index exists only in the loop body.
  bool visibleIndex(const Dim &d) const { return d.axis != 'r' || rIndexVisible_; }

  // ---- stores ----

  void store(const Value &value, const std::vector<bool> &usable);

  // ---- reductions ----

  enum class Reduction { Sum, Max, Min, ArgMax, ArgMin, Welford };

  Reduction randomReduction(Kind kind, bool looped);

  static std::string identity(Reduction r, const Value &v);

  // Persistent: reduces a whole [XBLOCK, R0_BLOCK] value; the results (per row) join the pool.
  void reducePersistent(const Value &input, Reduction r);

  // A cumulative sum along the reduction axis (tl.cumsum); the result joins the pool.
  void scanPersistent(const Value &input);

  // Looped: accumulators before the loop, the update in its body, the final
  // reduction after it; the results join `after`.
  void reduceLooped(const Value &input, Reduction r, std::vector<Value> &after);

  // ---- families ----

  void pointwise1d();

  void pointwise2d();

  void pointwiseBody();

  void reductionHeader(bool persistent);

  void persistentReduction();

  // Well-conditioned arithmetic on a per-row result (it may carry rounding differences).
  Value postReduction(const Value &row);

  void loopHeader(std::vector<std::string> &lines, const Dim &r);

  void loopedReduction();

  // The store text (without `tl.store(`) of a per-row result to a new contiguous buffer.
  std::string storeRow(const Value &row);

  // ---- the file ----

  void assemble();

  Random random_;
  GeneratedKernel kernel_;
  std::string family_;
  std::string constShape_, fullShape_;
  std::vector<Dim> dims_;
  int64_t xnumel_ = 1, ynumel_ = 1, rnumel_ = 1;
  int variables_ = 0, temporaries_ = 0, inputs_ = 0, outputs_ = 0;
  bool rIndexVisible_ = false;
  std::vector<Value> pool_;
  Value inOut_;
  std::string inOutPlace_, inOutMask_;
  bool dynamicNumels_ = false;
  std::set<std::string> used_;
  std::vector<std::string> header_, indexLines_, bodyLines_, accumulatorLines_, loopLines_, afterLoopLines_,
      afterLoopStores_, secondLoopLines_, storeLines_;
  std::vector<std::string> *target_ = &bodyLines_;
  int indent_ = 1;
};

} // namespace npusim::differential::generator
