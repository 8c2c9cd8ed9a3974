// Scratchpad access: element and tile reads and writes in every dtype, and the
// shadow bytes that say which elements an instance has written.
#include "functional/machine.h"

#include "npu/layout.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace npusim::functional::detail {

namespace {

/// Calls fn(lane, count) for each lane of a tile's layout with elements in
/// it: they fill a prefix of `count` slots of the lane (docs/npu.md §2).
template <class Fn> void forEachLane(const npu::TileLayout &l, int lanes, Fn &&fn) {
  const int64_t n = l.numElements();
  const int64_t laneExtent = l.shape[static_cast<size_t>(l.laneAxis)];
  if (n == 0)
    return;
  for (int lane = 0; lane < std::min<int64_t>(lanes, laneExtent); ++lane)
    fn(lane, (laneExtent - lane + lanes - 1) / lanes * (n / laneExtent));
}

} // namespace

bool Machine::tileAvailable(int t) {
  return firstUnwritten(t) < 0;
}

int64_t Machine::firstUnwritten(int t) {
  if (complete_[static_cast<size_t>(t)])
    return -1;
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const uint8_t *shadow = written_.data() + tile.bankOffset + shift_;
  const int size = core::byteSize(tile.layout.dtype);
  bool complete = true;
  forEachLane(tile.layout, program_.lanes, [&](int lane, int64_t count) {
    complete = complete && !std::memchr(shadow + lane * bankStride_, 0, static_cast<size_t>(count * size));
  });
  if (complete) {
    complete_[static_cast<size_t>(t)] = 1;
    return -1;
  }
  // Name the first unwritten element in row-major order: the zero byte lies
  // in some element's bytes.
  const int64_t *pos = positionsOf(t);
  for (int64_t e = 0; e < tile.layout.numElements(); ++e)
    for (int b = 0; b < size; ++b)
      if (!shadow[pos[e] + b])
        return e;
  return 0;
}

void Machine::checkTileInBank(int t) const {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t begin = tile.bankOffset + shift_, end = begin + tile.layout.bytesPerLane(program_.lanes);
  if (begin < 0 || end > bankBytes_)
    fail("scratchpad overflow: tile t" + std::to_string(t) + " (" + tile.name + ") occupies bank bytes [" +
         std::to_string(begin) + ", " + std::to_string(end) + ") of a " + std::to_string(bankBytes_) +
         "-byte bank" + (shift_ ? " (odd instance, placed instanceBankStride higher)" : ""));
}

uint8_t *Machine::elementBytes(int t, int64_t e) {
  return spad_.data() + program_.tiles[static_cast<size_t>(t)].bankOffset + shift_ + positionsOf(t)[e];
}

void Machine::checkWritten(int t, int64_t e) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t p = tile.bankOffset + shift_ + positionsOf(t)[e];
  const int size = core::byteSize(tile.layout.dtype);
  for (int b = 0; b < size; ++b)
    if (!written_[static_cast<size_t>(p + b)]) {
      const int64_t lane = p / bankStride_;
      fail("reads scratchpad bytes nothing wrote in this instance: tile t" + std::to_string(t) + " (" +
           tile.name + ") element " + std::to_string(e) + ", lane " + std::to_string(lane) + " bank byte " +
           std::to_string(p - lane * bankStride_ + b));
    }
}

void Machine::markWritten(int t, int64_t e) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t p = tile.bankOffset + shift_ + positionsOf(t)[e];
  std::memset(written_.data() + p, 1, static_cast<size_t>(core::byteSize(tile.layout.dtype)));
  noteTileWritten(t);
}

Scalar Machine::readElement(int t, int64_t e) {
  checkWritten(t, e);
  const DType d = layout(t).dtype;
  uint64_t bits = 0;
  std::memcpy(&bits, elementBytes(t, e), static_cast<size_t>(core::byteSize(d)));
  Scalar v;
  core::fromBits(d, bits, v.f, v.i);
  return v;
}

void Machine::writeElement(int t, int64_t e, const Scalar &v) {
  const DType d = layout(t).dtype;
  const uint64_t bits = core::toBits(d, v.f, v.i);
  std::memcpy(elementBytes(t, e), &bits, static_cast<size_t>(core::byteSize(d)));
  markWritten(t, e);
}

namespace {

template <class T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T> void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}

} // namespace

namespace {

/// Decodes n elements of dtype d at base + pos(e) into slots.
template <class Pos> void decode(DType d, const uint8_t *base, Pos pos, int64_t n, Values &v) {
  double *f = v.f.data();
  int64_t *iv = v.i.data();
  switch (d) {
  case DType::Float32:
    for (int64_t e = 0; e < n; ++e)
      f[e] = load<float>(base + pos(e));
    break;
  case DType::Float64:
    for (int64_t e = 0; e < n; ++e)
      f[e] = load<double>(base + pos(e));
    break;
  case DType::Float16:
    for (int64_t e = 0; e < n; ++e)
      f[e] = core::halfToFloat(load<uint16_t>(base + pos(e)));
    break;
  case DType::BFloat16:
    for (int64_t e = 0; e < n; ++e)
      f[e] = core::bfloat16ToFloat(load<uint16_t>(base + pos(e)));
    break;
  case DType::Bool:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = base[pos(e)] != 0 ? 1 : 0;
    break;
  case DType::Int8:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int8_t>(base + pos(e));
    break;
  case DType::UInt8:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = base[pos(e)];
    break;
  case DType::Int16:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int16_t>(base + pos(e));
    break;
  case DType::UInt16:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<uint16_t>(base + pos(e));
    break;
  case DType::Int32:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int32_t>(base + pos(e));
    break;
  case DType::UInt32:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<uint32_t>(base + pos(e));
    break;
  case DType::Int64:
  case DType::UInt64:
    for (int64_t e = 0; e < n; ++e)
      iv[e] = load<int64_t>(base + pos(e));
    break;
  }
}

/// Encodes n slots as dtype d at base + pos(e) and marks them in the shadow
/// (unless that is null: the caller marks them).
template <class Pos>
void encode(DType d, uint8_t *base, uint8_t *shadow, Pos pos, int64_t n, const Values &v) {
  const double *f = v.f.data();
  const int64_t *iv = v.i.data();
  switch (d) {
  case DType::Float32:
    for (int64_t e = 0; e < n; ++e)
      store<float>(base + pos(e), static_cast<float>(f[e]));
    break;
  case DType::Float64:
    for (int64_t e = 0; e < n; ++e)
      store<double>(base + pos(e), f[e]);
    break;
  case DType::Float16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), core::floatToHalf(static_cast<float>(f[e])));
    break;
  case DType::BFloat16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), core::floatToBFloat16(static_cast<float>(f[e])));
    break;
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
    for (int64_t e = 0; e < n; ++e)
      base[pos(e)] = static_cast<uint8_t>(iv[e]);
    break;
  case DType::Int16:
  case DType::UInt16:
    for (int64_t e = 0; e < n; ++e)
      store<uint16_t>(base + pos(e), static_cast<uint16_t>(iv[e]));
    break;
  case DType::Int32:
  case DType::UInt32:
    for (int64_t e = 0; e < n; ++e)
      store<uint32_t>(base + pos(e), static_cast<uint32_t>(iv[e]));
    break;
  case DType::Int64:
  case DType::UInt64:
    for (int64_t e = 0; e < n; ++e)
      store<int64_t>(base + pos(e), iv[e]);
    break;
  }
  if (!shadow)
    return;
  const int size = core::byteSize(d);
  if (size == 4)
    for (int64_t e = 0; e < n; ++e)
      store<uint32_t>(shadow + pos(e), 0x01010101u);
  else
    for (int64_t e = 0; e < n; ++e)
      std::memset(shadow + pos(e), 1, static_cast<size_t>(size));
}

} // namespace

void Machine::readTile(int t, Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  const int64_t n = tile.layout.numElements();
  v.define(d, n);
  const int64_t *pos = positionsOf(t);
  const uint8_t *base = spad_.data() + tile.bankOffset + shift_;
  checkTileWritten(t);
  decode(
      d, base, [pos](int64_t e) { return pos[e]; }, n, v);
}

void Machine::forgetMask(const Instruction &in) {
  if (maskOf_ < 0)
    return;
  if (npu::unitOf(in.opcode) != npu::Unit::Dma) {
    maskOf_ = -1;
    return;
  }
  const npu::Tile &mask = program_.tiles[static_cast<size_t>(maskOf_)];
  const int64_t maskEnd = mask.bankOffset + mask.layout.bytesPerLane(program_.lanes);
  for (int t : in.dsts) {
    const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
    if (tile.bankOffset < maskEnd &&
        mask.bankOffset < tile.bankOffset + tile.layout.bytesPerLane(program_.lanes))
      maskOf_ = -1;
  }
}

const uint8_t *Machine::readMask(int t) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const npu::TileLayout &l = tile.layout;
  const int64_t n = l.numElements();
  if (maskOf_ == t && core::byteSize(l.dtype) == 1)
    return mask_.data(); // checked when it was read
  mask_.resize(static_cast<size_t>(n));
  if (core::byteSize(l.dtype) != 1) { // not a bool (validation rejects it): the general path
    maskOf_ = -1;
    Values &v = scratch(kScratch - 1);
    readTile(t, v);
    for (int64_t e = 0; e < n; ++e)
      mask_[static_cast<size_t>(e)] =
          v.isFloat() ? v.f[static_cast<size_t>(e)] != 0.0 : v.i[static_cast<size_t>(e)] != 0;
    return mask_.data();
  }
  checkTileWritten(t);
  maskOf_ = t;
  const uint8_t *base = spad_.data() + tile.bankOffset + shift_;
  const int64_t lanes = program_.lanes;
  if (l.rank() == 1) { // element e in slot e / lanes of lane e % lanes: each lane's bytes in turn
    for (int64_t lane = 0; lane < std::min(lanes, n); ++lane) {
      const uint8_t *from = base + lane * bankStride_;
      for (int64_t e = lane, slot = 0; e < n; e += lanes, ++slot)
        mask_[static_cast<size_t>(e)] = from[slot];
    }
    return mask_.data();
  }
  const int64_t *pos = positionsOf(t);
  const int64_t inner = l.rank() == 0 ? 1 : l.shape.back();
  // Along the last axis consecutive elements take consecutive slots of one
  // lane unless that axis is the lane axis: a row is one copy.
  if (inner > 1 && l.laneAxis != l.rank() - 1) {
    for (int64_t e0 = 0; e0 < n; e0 += inner)
      std::memcpy(mask_.data() + e0, base + pos[e0], static_cast<size_t>(inner));
  } else {
    for (int64_t e = 0; e < n; ++e)
      mask_[static_cast<size_t>(e)] = base[pos[e]];
  }
  return mask_.data();
}

void Machine::checkTileWritten(int t) {
  if (const int64_t e = firstUnwritten(t); e >= 0)
    checkWritten(t, e);
}

void Machine::readElements(int t, const int64_t *elems, int64_t n, Values &v, bool check) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  v.define(d, n);
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  if (check) {
    const uint8_t *shadow = written_.data() + begin;
    const int size = core::byteSize(d);
    for (int64_t e = 0; e < n; ++e) {
      const uint8_t *s = shadow + pos[elems[e]];
      // All bytes, as readElement checks them.
      for (int b = 0; b < size; ++b)
        if (!s[b]) {
          checkWritten(t, elems[e]);
          break;
        }
    }
  }
  decode(
      d, spad_.data() + begin, [pos, elems](int64_t e) { return pos[elems[e]]; }, n, v);
}

void Machine::writeElements(int t, const int64_t *elems, int64_t n, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  encode(
      tile.layout.dtype, spad_.data() + begin, written_.data() + begin,
      [pos, elems](int64_t e) { return pos[elems[e]]; }, n, v);
  noteTileWritten(t);
}

void Machine::writeTile(int t, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const int64_t n = tile.layout.numElements();
  const int64_t *pos = positionsOf(t);
  const int64_t begin = tile.bankOffset + shift_;
  encode(
      tile.layout.dtype, spad_.data() + begin, nullptr, [pos](int64_t e) { return pos[e]; }, n, v);
  markTileWritten(t);
  current_.elements = n;
}

void Machine::readLane(int t, int lane, int64_t count, Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  v.define(d, count);
  const int64_t begin = tile.bankOffset + shift_ + lane * bankStride_;
  checkLaneWritten(t, lane, count);
  const int size = core::byteSize(d);
  decode(
      d, spad_.data() + begin, [size](int64_t e) { return e * size; }, count, v);
}

void Machine::checkLaneWritten(int t, int lane, int64_t count) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  if (complete_[static_cast<size_t>(t)]) {
    // Within the lane's own elements a complete tile has nothing unwritten.
    const npu::TileLayout &l = tile.layout;
    const int64_t laneExtent = l.shape[static_cast<size_t>(l.laneAxis)];
    const int64_t own = lane < laneExtent ? (laneExtent - lane + program_.lanes - 1) / program_.lanes *
                                                (l.numElements() / laneExtent)
                                          : 0;
    if (count <= own)
      return;
  }
  const int64_t bytes = count * core::byteSize(tile.layout.dtype);
  const uint8_t *shadow = written_.data() + tile.bankOffset + shift_ + lane * bankStride_;
  if (bytes > 0 && (std::memchr(shadow, 0, static_cast<size_t>(bytes)) != nullptr)) {
    // Name the first unwritten element in row-major terms.
    const int64_t *pos = positionsOf(t);
    for (int64_t e = 0; e < tile.layout.numElements(); ++e)
      if (pos[e] / bankStride_ == lane)
        checkWritten(t, e);
  }
}

void Machine::markTileWritten(int t) {
  forEachLane(layout(t), program_.lanes, [&](int lane, int64_t count) { markLaneWritten(t, lane, count); });
  noteTileWritten(t);
  complete_[static_cast<size_t>(t)] = 1;
}

void Machine::fillTile(int t, uint64_t bits) {
  const int size = core::byteSize(layout(t).dtype);
  forEachLane(layout(t), program_.lanes, [&](int lane, int64_t count) {
    uint8_t *p = laneBytes(t, lane);
    // The element size as a constant, so that the copies compile to moves;
    // little-endian: an element's bytes are the low bytes of `bits`.
    auto fill = [&](auto sizeTag) {
      constexpr size_t S = decltype(sizeTag)::value;
      for (int64_t k = 0; k < count; ++k)
        std::memcpy(p + k * static_cast<int64_t>(S), &bits, S);
    };
    switch (size) {
    case 1: fill(std::integral_constant<size_t, 1>{}); break;
    case 2: fill(std::integral_constant<size_t, 2>{}); break;
    case 4: fill(std::integral_constant<size_t, 4>{}); break;
    default: fill(std::integral_constant<size_t, 8>{}); break;
    }
    markLaneWritten(t, lane, count);
  });
  noteTileWritten(t);
  current_.elements = layout(t).numElements();
}

void Machine::markLaneWritten(int t, int lane, int64_t count) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  std::memset(written_.data() + tile.bankOffset + shift_ + lane * bankStride_, 1,
              static_cast<size_t>(count * core::byteSize(tile.layout.dtype)));
  noteTileWritten(t);
}

void Machine::writeLane(int t, int lane, int64_t count, const Values &v) {
  const npu::Tile &tile = program_.tiles[static_cast<size_t>(t)];
  const DType d = tile.layout.dtype;
  const int64_t begin = tile.bankOffset + shift_ + lane * bankStride_;
  const int size = core::byteSize(d);
  encode(
      d, spad_.data() + begin, nullptr, [size](int64_t e) { return e * size; }, count, v);
  markLaneWritten(t, lane, count);
}

} // namespace npusim::functional::detail
