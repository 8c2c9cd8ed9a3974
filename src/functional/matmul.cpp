// The systolic arrays. MLoadWeights holds a lanes x lanes block of B (rows
// kBlock*lanes.., columns nBlock*lanes..) in an array; MMatmul streams the rows
// of A through it: for every row m and held column n,
//   c[m, n] = c[m, n] + a[m, k0] * b[k0, n] + a[m, k0 + 1] * b[k0 + 1, n] + ...
// over the block's valid k, in increasing k, every product and sum rounded to
// C's dtype (inputs converted to C's dtype first, TF32 rounding for fp32 with
// InputPrecision::TF32). Accumulating the K blocks in increasing order from the
// initial C gives exactly the reference interpreter's dot (reference/dot.cpp).
// Padding rows and columns contribute nothing (not even a +0).
#include "functional/machine.h"

#include <algorithm>
#include <cstring>

namespace npusim::functional::detail {

void SystolicUnit::execute(const Instruction &in) {
  const int L = machine.lanes();
  if (in.array < 0 || in.array >= 64)
    machine.fail("systolic array " + std::to_string(in.array) + " does not exist");
  if (arrays.size() <= static_cast<size_t>(in.array))
    arrays.resize(static_cast<size_t>(in.array) + 1);
  ArrayState &array = arrays[static_cast<size_t>(in.array)];

  if (in.opcode == npu::Opcode::MLoadWeights) {
    const npu::TileLayout &b = machine.layout(in.srcs.at(0));
    const int64_t K = b.shape.at(0), N = b.shape.at(1);
    array.loaded = true;
    array.kBlock = in.kBlock;
    array.nBlock = in.nBlock;
    array.rows = std::max<int64_t>(0, std::min<int64_t>(L, K - in.kBlock * L));
    array.cols = std::max<int64_t>(0, std::min<int64_t>(L, N - in.nBlock * L));
    machine.countElements(array.rows * array.cols);
    // A block wholly past the column bound holds zeros and loads nothing
    // (its zeros are loaded all the same: the values do not change).
    if (!in.scalars.empty() && in.nBlock * L >= machine.scalarInt(in.scalars[0]))
      machine.countStreamedRows(0);
    if (!machine.computeValues())
      return;
    // B is checked whole, as a read of the tile would be, but only the held
    // block is decoded: a tile holds many blocks.
    machine.checkTileWritten(in.srcs[0]);
    if (b.dtype == DType::Float32) {
      // The common case, read straight from the tile's bytes (what
      // readElements decodes, without its element list and copy).
      const uint8_t *base = machine.laneBytes(in.srcs[0], 0); // lane 0: the tile's first byte
      const int64_t *pos = machine.positionsOf(in.srcs[0]);
      array.weights.define(DType::Float32, int64_t{L} * L);
      for (int64_t k = 0; k < array.rows; ++k) {
        const int64_t *row = pos + (in.kBlock * L + k) * N + in.nBlock * L;
        double *to = array.weights.f.data() + k * L;
        for (int64_t n = 0; n < array.cols; ++n) {
          float v;
          std::memcpy(&v, base + row[n], sizeof v);
          to[n] = v;
        }
      }
      return;
    }
    std::vector<int64_t> &elems = elemsA;
    elems.clear();
    for (int64_t k = 0; k < array.rows; ++k)
      for (int64_t n = 0; n < array.cols; ++n)
        elems.push_back((in.kBlock * L + k) * N + in.nBlock * L + n);
    Values &x = machine.scratch(1);
    machine.readElements(in.srcs[0], elems.data(), static_cast<int64_t>(elems.size()), x, false);
    array.weights.define(b.dtype, int64_t{L} * L);
    for (int64_t k = 0; k < array.rows; ++k)
      for (int64_t n = 0; n < array.cols; ++n) {
        const size_t from = static_cast<size_t>(k * array.cols + n);
        const size_t to = static_cast<size_t>(k * L + n);
        if (x.isFloat())
          array.weights.f[to] = x.f[from];
        else
          array.weights.i[to] = x.i[from];
      }
    return;
  }

  // MMatmul
  if (!array.loaded)
    machine.fail("systolic array " + std::to_string(in.array) +
                 " multiplies before any machine.load_weights");
  if (array.kBlock != in.kBlock || array.nBlock != in.nBlock)
    machine.fail("systolic array " + std::to_string(in.array) + " holds block (k " +
                 std::to_string(array.kBlock) + ", n " + std::to_string(array.nBlock) +
                 "), the matmul names (k " + std::to_string(in.kBlock) + ", n " + std::to_string(in.nBlock) +
                 ")");
  const int c = in.dsts.at(0), a = in.srcs.at(0);
  const npu::TileLayout &cl = machine.layout(c), &al = machine.layout(a);
  const int64_t M = cl.shape.at(0), N = cl.shape.at(1), K = al.shape.at(1);
  const int64_t k0 = in.kBlock * L, n0 = in.nBlock * L;
  const int64_t rows = std::min(array.rows, std::max<int64_t>(0, K - k0));
  const int64_t cols = std::min(array.cols, std::max<int64_t>(0, N - n0));
  machine.countElements(M * cols);
  // With a row bound, the rows past it are zeros that do not stream; adding
  // them below changes nothing, so the values are those of every row.
  const bool pastColumns = in.scalars.size() > 1 && n0 >= machine.scalarInt(in.scalars[1]);
  machine.countStreamedRows(pastColumns ? 0
                            : in.scalars.empty()
                                ? M
                                : std::clamp<int64_t>(machine.scalarInt(in.scalars[0]), 0, M));
  if (!machine.computeValues())
    return;
  const DType accType = cl.dtype;
  if (accType == DType::Float32) {
    multiplyFloat32Block(in, array, M, N, K, rows, cols);
    return;
  }
  // Only the block's columns of C are read (when accumulating) and written,
  // acc[m * cols + n] holding C[m, n0 + n].
  elemsC.clear();
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < cols; ++n)
      elemsC.push_back(m * N + n0 + n);
  const int64_t blockElements = M * cols;
  Values &acc = machine.scratch(6);
  if (in.accumulate) {
    machine.readElements(c, elemsC.data(), blockElements, acc, true);
  } else {
    acc.define(accType, blockElements);
    if (acc.isFloat())
      std::fill_n(acc.f.begin(), blockElements, 0.0);
    else
      std::fill_n(acc.i.begin(), blockElements, int64_t{0});
  }
  Values &aConverted = machine.scratch(2), &wConverted = machine.scratch(3);
  convertedA(in, M, K, rows, aConverted);
  wConverted.define(accType, int64_t{L} * L);
  core::castValues(array.weights.dtype, accType, array.weights.in(), wConverted.out(), int64_t{L} * L);

  if (core::isFloatType(accType)) {
    core::visitFloat(accType, [&](auto tag) {
      constexpr DType D = decltype(tag)::value;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < cols; ++n) {
          const size_t at = static_cast<size_t>(m * cols + n);
          double x = acc.f[at];
          for (int64_t k = 0; k < rows; ++k)
            x = core::roundFloat<D>(x + core::roundFloat<D>(aConverted.f[static_cast<size_t>(m * rows + k)] *
                                                            wConverted.f[static_cast<size_t>(k * L + n)]));
          acc.f[at] = x;
        }
    });
  } else {
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < cols; ++n) {
        const size_t at = static_cast<size_t>(m * cols + n);
        uint64_t x = static_cast<uint64_t>(acc.i[at]);
        for (int64_t k = 0; k < rows; ++k)
          x += static_cast<uint64_t>(aConverted.i[static_cast<size_t>(m * rows + k)]) *
               static_cast<uint64_t>(wConverted.i[static_cast<size_t>(k * L + n)]);
        acc.i[at] = accType == DType::Bool ? static_cast<int64_t>(x & 1u) : core::wrapIntTo(accType, x);
      }
  }
  machine.writeElements(c, elemsC.data(), blockElements, acc);
}

void SystolicUnit::convertedA(const Instruction &in, int64_t M, int64_t K, int64_t rows, Values &converted) {
  // A is checked whole, as a read of the tile would be; only the block's
  // columns are decoded, converted[m * rows + k] holding A[m, k0 + k],
  // converted to the accumulator's dtype as Cast does.
  const int a = in.srcs.at(0);
  const int64_t k0 = in.kBlock * machine.lanes();
  machine.checkTileWritten(a);
  elemsA.clear();
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < rows; ++k)
      elemsA.push_back(m * K + k0 + k);
  Values &av = machine.scratch(1);
  machine.readElements(a, elemsA.data(), M * rows, av, false);
  const DType accType = machine.layout(in.dsts.at(0)).dtype;
  converted.define(accType, av.size);
  core::castValues(av.dtype, accType, av.in(), converted.out(), av.size);
}

void SystolicUnit::multiplyFloat32Block(const Instruction &in, const ArrayState &array, int64_t M, int64_t N,
                                        int64_t K, int64_t rows, int64_t cols) {
  const int L = machine.lanes();
  const int c = in.dsts.at(0), a = in.srcs.at(0);
  const int64_t n0 = in.nBlock * L;
  const bool tf32 = in.precision == core::InputPrecision::TF32;
  auto input = [tf32](float v) { return tf32 ? core::roundToTF32(v) : v; };
  // Dense operands, rows of C and B padded to whole vectors: a32[m * rows +
  // k] = A[m, k0 + k], b32[k * ld + n] = B[k0 + k, n0 + n], c32[m * ld + n] =
  // C[m, n0 + n]. The padding columns compute values nothing reads.
  const int64_t ld = (cols + kFloat32GemmWidth - 1) / kFloat32GemmWidth * kFloat32GemmWidth;
  std::vector<float> &a32 = floatsA, &b32 = floatsB, &c32 = floatsC;
  a32.resize(static_cast<size_t>(M * rows));
  b32.assign(static_cast<size_t>(rows * ld), 0.0f);
  c32.resize(static_cast<size_t>(M * ld));

  if (multiplyFloat32Lanes(in, array, M, rows, cols))
    return;
  // Only the block's columns of C are read (when accumulating) and written.
  const Machine::TileBytes ct = machine.tileBytes(c);
  constexpr uint32_t kWritten = 0x01010101u; // all four shadow bytes set
  for (int64_t m = 0; m < M; ++m) {
    const int64_t *pos = ct.pos + m * N + n0;
    float *row = c32.data() + m * ld;
    if (!in.accumulate) {
      std::fill_n(row, cols, 0.0f);
      continue;
    }
    for (int64_t n = 0; n < cols; ++n) {
      uint32_t shadow;
      std::memcpy(&shadow, ct.shadow + pos[n], sizeof shadow);
      if (shadow != kWritten)
        machine.checkWritten(c, m * N + n0 + n);
      std::memcpy(row + n, ct.data + pos[n], sizeof(float));
    }
  }
  if (machine.layout(a).dtype == DType::Float32) {
    machine.checkTileWritten(a);
    const Machine::TileBytes t = machine.tileBytes(a);
    const int64_t k0 = in.kBlock * L;
    for (int64_t m = 0; m < M; ++m) {
      const int64_t *pos = t.pos + m * K + k0;
      float *row = a32.data() + m * rows;
      for (int64_t k = 0; k < rows; ++k) {
        float v;
        std::memcpy(&v, t.data + pos[k], sizeof v);
        row[k] = input(v);
      }
    }
  } else {
    Values &converted = machine.scratch(2);
    convertedA(in, M, K, rows, converted);
    for (size_t e = 0; e < a32.size(); ++e)
      a32[e] = input(static_cast<float>(converted.f[e]));
  }
  // fp32 weights are floats already (the cast to fp32 is the identity on them).
  const std::vector<double> *weights = &array.weights.f;
  if (array.weights.dtype != DType::Float32) {
    Values &w = machine.scratch(3);
    w.define(DType::Float32, int64_t{L} * L);
    core::castValues(array.weights.dtype, DType::Float32, array.weights.in(), w.out(), int64_t{L} * L);
    weights = &w.f;
  }
  for (int64_t k = 0; k < rows; ++k)
    for (int64_t n = 0; n < cols; ++n)
      b32[static_cast<size_t>(k * ld + n)] =
          input(static_cast<float>((*weights)[static_cast<size_t>(k * L + n)]));

  multiplyFloat32(a32.data(), b32.data(), c32.data(), M, rows, ld);
  for (int64_t m = 0; m < M; ++m) {
    const int64_t *pos = ct.pos + m * N + n0;
    const float *row = c32.data() + m * ld;
    for (int64_t n = 0; n < cols; ++n) {
      std::memcpy(ct.data + pos[n], row + n, sizeof(float));
      std::memcpy(ct.shadow + pos[n], &kWritten, sizeof kWritten);
    }
  }
}

bool SystolicUnit::multiplyFloat32Lanes(const Instruction &in, const ArrayState &array, int64_t M,
                                        int64_t rows, int64_t cols) {
  const int L = machine.lanes();
  const int c = in.dsts.at(0), a = in.srcs.at(0);
  const npu::TileLayout &la = machine.layout(a), &lc = machine.layout(c);
  // [M, K] and [M, N] with the lane axis last: column j of either lies in lane
  // j % L, its M elements in consecutive slots (npu::elementPositions: m * 4 +
  // the column's part), so each column is one run of M floats.
  if (la.dtype != DType::Float32 || la.rank() != 2 || la.laneAxis != 1 || lc.rank() != 2 ||
      lc.laneAxis != 1 || la.shape[0] != M || array.weights.dtype != DType::Float32)
    return false;
  const int64_t k0 = in.kBlock * L, n0 = in.nBlock * L;
  const Machine::TileBytes at = machine.tileBytes(a), ct = machine.tileBytes(c);
  // Every column of C the block reads must be written; otherwise the element
  // path names the first unwritten element.
  if (in.accumulate)
    for (int64_t n = 0; n < cols; ++n)
      if (std::memchr(ct.shadow + ct.pos[n0 + n], 0, static_cast<size_t>(M) * sizeof(float)))
        return false;
  machine.checkTileWritten(a);
  const bool tf32 = in.precision == core::InputPrecision::TF32;
  // Transposed: ct32[n * ld + m] = C[m, n0 + n] = sum over k of bt32[n * rows
  // + k] * at32[k * ld + m], the same products and sums in the same order.
  const int64_t ld = (M + kFloat32GemmWidth - 1) / kFloat32GemmWidth * kFloat32GemmWidth;
  std::vector<float> &bt32 = floatsA, &at32 = floatsB, &ct32 = floatsC;
  bt32.resize(static_cast<size_t>(cols * rows));
  at32.assign(static_cast<size_t>(rows * ld), 0.0f);
  ct32.assign(static_cast<size_t>(cols * ld), 0.0f);
  for (int64_t k = 0; k < rows; ++k) {
    float *row = at32.data() + k * ld;
    std::memcpy(row, at.data + at.pos[k0 + k], static_cast<size_t>(M) * sizeof(float));
    if (tf32)
      for (int64_t m = 0; m < M; ++m)
        row[m] = core::roundToTF32(row[m]);
  }
  for (int64_t n = 0; n < cols; ++n)
    for (int64_t k = 0; k < rows; ++k) {
      const auto w = static_cast<float>(array.weights.f[static_cast<size_t>(k * L + n)]);
      bt32[static_cast<size_t>(n * rows + k)] = tf32 ? core::roundToTF32(w) : w;
    }
  if (in.accumulate)
    for (int64_t n = 0; n < cols; ++n)
      std::memcpy(ct32.data() + n * ld, ct.data + ct.pos[n0 + n], static_cast<size_t>(M) * sizeof(float));
  multiplyFloat32(bt32.data(), at32.data(), ct32.data(), cols, rows, ld);
  for (int64_t n = 0; n < cols; ++n) {
    std::memcpy(ct.data + ct.pos[n0 + n], ct32.data() + n * ld, static_cast<size_t>(M) * sizeof(float));
    std::memset(ct.shadow + ct.pos[n0 + n], 1, static_cast<size_t>(M) * sizeof(float));
  }
  return true;
}

} // namespace npusim::functional::detail
