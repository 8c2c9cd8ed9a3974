// The DMA engine: strided and gathered transfers between DRAM and the
// scratchpad, masked with fill, and atomics. Elements are issued in row-major
// order of the data tile; the trace merges adjacent DRAM bytes into runs.
#include "functional/machine.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace npusim::functional::detail {
using npu::Opcode;

namespace {

/// Calls fn(std::integral_constant<size_t, size>{}) for an element size of 1, 2, 4 or 8.
template <class Fn> void withSize(int size, Fn &&fn) {
  switch (size) {
  case 1: fn(std::integral_constant<size_t, 1>{}); return;
  case 2: fn(std::integral_constant<size_t, 2>{}); return;
  case 4: fn(std::integral_constant<size_t, 4>{}); return;
  default: fn(std::integral_constant<size_t, 8>{}); return;
  }
}

/// Steps the odometer over all axes but the last to the next row, and offset
/// (wrapping) to that row's first element.
void nextRow(const npu::TileLayout &l, const std::vector<int64_t> &stride, std::vector<int64_t> &index,
             uint64_t &offset) {
  for (int a = l.rank() - 2; a >= 0; --a) {
    const size_t ua = static_cast<size_t>(a);
    offset += static_cast<uint64_t>(stride[ua]);
    if (++index[ua] < l.shape[ua])
      return;
    offset -= static_cast<uint64_t>(stride[ua]) * static_cast<uint64_t>(index[ua]);
    index[ua] = 0;
  }
}

} // namespace

bool Machine::allInside(const Pointer &p, const int64_t *offsets, int64_t n) const {
  if (n == 0)
    return true;
  const auto [lo, hi] = std::minmax_element(offsets, offsets + n);
  int64_t first = 0, last = 0;
  const int64_t size = p.elementBytes;
  return !__builtin_mul_overflow(*lo, size, &first) && !__builtin_add_overflow(first, p.byteOffset, &first) &&
         first >= 0 && !__builtin_mul_overflow(*hi, size, &last) &&
         !__builtin_add_overflow(last, p.byteOffset + size, &last) && last <= p.buffer->size();
}

void DmaUnit::execute(const Instruction &in) {
  const npu::DmaDescriptor &dma = in.dma;
  const bool isLoad = in.opcode == Opcode::DmaLoad, isAtomic = in.opcode == Opcode::DmaAtomic;
  const int data = isLoad ? in.dsts.at(0) : in.srcs.at(0);
  const npu::TileLayout &l = machine.layout(data);
  const int64_t n = l.numElements();
  const Pointer p = machine.pointer(dma.argument);
  if (!p.buffer->bytes && machine.computeValues())
    return dmaAbsent(in);
  const DType d = l.dtype;
  const int size = p.elementBytes;
  const int64_t base = machine.scalarInt(dma.base);
  const bool values = machine.computeValues();

  // A strided transfer whose last axis is contiguous in DRAM goes row by row
  // (dmaRows): one bounds check, copy and trace run per active run of a row.
  if (!dma.gathered() && !isAtomic) {
    const size_t last = static_cast<size_t>(l.rank() - 1);
    if (machine.scalarInt(dma.strides.at(last)) == 1) {
      dmaRows(in, p, l, base);
      return;
    }
  }
  // Element offsets relative to the pointer, row-major.
  std::vector<int64_t> &offsets = offsets_;
  offsets.resize(static_cast<size_t>(n));
  if (dma.gathered()) {
    // An address-only run computes an index tile made from program ids and
    // constants on the vector units (npu::timingValueNeed).
    if (!values && !machine.tileAvailable(dma.indexTile))
      machine.fail("a gathered or scattered DMA whose index tile this address-only run did not compute (the "
                   "program needs computeValues)");
    Values &index = machine.scratch(1);
    machine.readTile(dma.indexTile, index);
    for (int64_t e = 0; e < n; ++e)
      offsets[static_cast<size_t>(e)] = static_cast<int64_t>(
          static_cast<uint64_t>(base) + static_cast<uint64_t>(index.i[static_cast<size_t>(e)]));
  } else {
    const int rank = l.rank();
    std::vector<int64_t> stride(static_cast<size_t>(rank)), index(static_cast<size_t>(rank), 0);
    for (int a = 0; a < rank; ++a)
      stride[static_cast<size_t>(a)] = machine.scalarInt(dma.strides.at(static_cast<size_t>(a)));
    // Wrapping arithmetic: absurd strides give absurd offsets, which the
    // bounds check then reports, instead of overflow. The last axis runs in
    // a loop of its own, the others with an odometer.
    const size_t last = static_cast<size_t>(rank - 1);
    const int64_t inner = l.shape[last];
    const uint64_t innerStride = static_cast<uint64_t>(stride[last]);
    uint64_t offset = static_cast<uint64_t>(base);
    for (int64_t e = 0; e < n; e += inner) {
      int64_t *row = offsets.data() + e;
      for (int64_t j = 0; j < inner; ++j)
        row[j] = static_cast<int64_t>(offset + static_cast<uint64_t>(j) * innerStride);
      nextRow(l, stride, index, offset);
    }
  }
  // An address-only run uses the mask when it computed it (from program ids
  // and constants); a mask computed from DRAM contents makes the program need
  // values (npu::timingValueNeed), so it never reaches here unknown.
  const uint8_t *mask = activeMask(dma, l);

  uint8_t *dram = p.buffer->bytes ? p.buffer->bytes->data() : nullptr; // null: an address-only run
  const int64_t dramSize = p.buffer->size();
  int64_t active = 0;

  if (!values) {
    // Addresses only: an active element outside the buffer is the fault a
    // values run reports, named the same way.
    for (int64_t e = 0; e < n; ++e) {
      if (mask && !mask[e])
        continue;
      const int64_t byte = machine.dramByte(p, offsets[static_cast<size_t>(e)], e);
      ++active;
      machine.addDram(p.buffer->address + static_cast<uint64_t>(byte), static_cast<uint32_t>(size), !isLoad);
    }
  } else if (isLoad) {
    uint64_t fillBits = 0;
    if (mask) {
      const Scalar fill = machine.scalarAs(dma.fill, d);
      fillBits = core::toBits(d, fill.f, fill.i);
    }
    const Machine::TileBytes tile = machine.tileBytes(data);
    if (!mask && machine.allInside(p, offsets.data(), n)) {
      // Every element active and inside the buffer: no per-element checks.
      uint8_t *to = tile.data, *shadow = tile.shadow;
      const int64_t *pos = tile.pos, *off = offsets.data();
      const uint8_t *from = dram + p.byteOffset;
      const bool trace = machine.tracing();
      const uint64_t address = p.buffer->address + static_cast<uint64_t>(p.byteOffset);
      withSize(size, [&](auto sizeTag) {
        constexpr size_t S = decltype(sizeTag)::value;
        constexpr int64_t SS = static_cast<int64_t>(S);
        for (int64_t e = 0; e < n; ++e) {
          std::memcpy(to + pos[e], from + off[e] * SS, S);
          std::memset(shadow + pos[e], 1, S);
          if (trace)
            machine.addDram(address + static_cast<uint64_t>(off[e] * SS), static_cast<uint32_t>(S), false);
        }
      });
      active = n;
    } else
      // The element size as a constant, so that the copies compile to moves.
      withSize(size, [&](auto sizeTag) {
        constexpr size_t S = decltype(sizeTag)::value;
        constexpr int64_t SS = static_cast<int64_t>(S);
        // Everything the loop reads besides the bytes it moves, in locals:
        // stores through byte pointers would otherwise reload it.
        uint8_t *const to = tile.data, *const shadow = tile.shadow;
        const int64_t *const pos = tile.pos, *const off = offsets.data();
        const bool trace = machine.tracing();
        const uint64_t address = p.buffer->address;
        const int64_t start = p.byteOffset;
        for (int64_t e = 0; e < n; ++e) {
          const int64_t at = pos[e];
          if (mask && !mask[e]) {
            std::memcpy(to + at, &fillBits, S);
          } else {
            int64_t byte = 0; // dramByte's check
            if (__builtin_mul_overflow(off[e], SS, &byte) || __builtin_add_overflow(byte, start, &byte) ||
                byte < 0 || byte + SS > dramSize)
              machine.outOfBounds(p, off[e], e);
            std::memcpy(to + at, dram + byte, S);
            if (trace)
              machine.addDram(address + static_cast<uint64_t>(byte), static_cast<uint32_t>(S), false);
            ++active;
          }
          std::memset(shadow + at, 1, S);
        }
      });
  } else if (!isAtomic) {
    const Machine::TileBytes tile = machine.tileBytes(data);
    withSize(size, [&](auto sizeTag) {
      constexpr size_t S = decltype(sizeTag)::value;
      for (int64_t e = 0; e < n; ++e) {
        if (mask && !mask[e])
          continue;
        const int64_t at = tile.pos[e];
        if (!tile.shadow[at] || !tile.shadow[at + static_cast<int64_t>(S) - 1])
          machine.checkWritten(data, e);
        const int64_t byte = machine.dramByte(p, offsets[static_cast<size_t>(e)], e);
        std::memcpy(dram + byte, tile.data + at, S);
        machine.addDram(p.buffer->address + static_cast<uint64_t>(byte), static_cast<uint32_t>(S), true);
        ++active;
      }
    });
  } else {
    Values &v = machine.scratch(3);
    machine.readTile(data, v);
    Values &old = machine.scratch(6);
    old.define(d, n);
    const bool isFloat = v.isFloat();
    if (isFloat && (dma.atomic == core::AtomicKind::And || dma.atomic == core::AtomicKind::Or ||
                    dma.atomic == core::AtomicKind::Xor))
      machine.fail("bitwise atomic on a float type");
    for (int64_t e = 0; e < n; ++e) {
      const size_t ue = static_cast<size_t>(e);
      if (mask && !mask[e]) {
        if (isFloat)
          old.f[ue] = 0.0;
        else
          old.i[ue] = 0;
        continue;
      }
      const int64_t byte = machine.dramByte(p, offsets[ue], e);
      uint64_t bits = 0;
      std::memcpy(&bits, dram + byte, static_cast<size_t>(size));
      Scalar before, next;
      core::fromBits(d, bits, before.f, before.i);
      if (isFloat)
        next.f = core::atomicFloat(dma.atomic, d, before.f, v.f[ue]);
      else
        next.i = core::atomicInt(dma.atomic, d, before.i, v.i[ue]);
      bits = core::toBits(d, next.f, next.i);
      std::memcpy(dram + byte, &bits, static_cast<size_t>(size));
      if (isFloat)
        old.f[ue] = before.f;
      else
        old.i[ue] = before.i;
      machine.addDram(p.buffer->address + static_cast<uint64_t>(byte), static_cast<uint32_t>(size), true);
      ++active;
    }
    if (!in.dsts.empty())
      machine.writeTile(in.dsts[0], old);
  }
  if (values && isLoad)
    machine.markComplete(data); // loaded or filled, every element
  countDma(in.opcode, active, size);
}

const uint8_t *DmaUnit::activeMask(const npu::DmaDescriptor &dma, const npu::TileLayout &l) {
  // An address-only run uses the mask when it computed it (from program ids
  // and constants); a mask computed from DRAM contents makes the program need
  // values (npu::timingValueNeed), so it never reaches here unknown. The
  // clip's registers likewise.
  const uint8_t *mask = nullptr;
  if (dma.maskTile >= 0 && (machine.computeValues() || machine.tileAvailable(dma.maskTile)))
    mask = machine.readMask(dma.maskTile);
  if (!dma.clipped())
    return mask;
  const int rank = l.rank();
  std::vector<int64_t> low(static_cast<size_t>(rank)), high(static_cast<size_t>(rank));
  bool whole = true, empty = false;
  for (int a = 0; a < rank; ++a) {
    const size_t ua = static_cast<size_t>(a);
    low[ua] = std::clamp<int64_t>(machine.scalarInt(dma.clipLow.at(ua)), 0, l.shape[ua]);
    high[ua] = std::clamp<int64_t>(machine.scalarInt(dma.clipHigh.at(ua)), low[ua], l.shape[ua]);
    whole = whole && low[ua] == 0 && high[ua] == l.shape[ua];
    empty = empty || low[ua] == high[ua];
  }
  if (whole)
    return mask;
  const int64_t n = l.numElements();
  clipMask_.assign(static_cast<size_t>(n), 0);
  if (!empty) {
    // Row by row (the last axis's active span), an odometer over the others.
    const size_t last = static_cast<size_t>(rank - 1);
    const int64_t inner = l.shape[last];
    std::vector<int64_t> index(static_cast<size_t>(rank), 0);
    for (int64_t e0 = 0; e0 < n; e0 += inner) {
      bool rowActive = true;
      for (size_t a = 0; a < last; ++a)
        rowActive = rowActive && index[a] >= low[a] && index[a] < high[a];
      if (rowActive) {
        uint8_t *row = clipMask_.data() + e0;
        if (mask)
          for (int64_t j = low[last]; j < high[last]; ++j)
            row[j] = mask[e0 + j] != 0;
        else
          std::memset(row + low[last], 1, static_cast<size_t>(high[last] - low[last]));
      }
      for (int a = rank - 2; a >= 0; --a) {
        const size_t ua = static_cast<size_t>(a);
        if (++index[ua] < l.shape[ua])
          break;
        index[ua] = 0;
      }
    }
  }
  return clipMask_.data();
}

void DmaUnit::dmaAbsent(const Instruction &in) {
  machine.setComputeValues(false);
  try {
    execute(in);
  } catch (...) {
    machine.setComputeValues(true);
    throw;
  }
  machine.setComputeValues(true);
  int zeroed = -1;
  if (in.opcode == Opcode::DmaLoad)
    zeroed = in.dsts.at(0);
  else if (in.opcode == Opcode::DmaAtomic && !in.dsts.empty())
    zeroed = in.dsts[0];
  if (zeroed < 0)
    return;
  const int64_t active = machine.countedElements(); // writeTile sets it to the tile's size
  Values &zeros = machine.scratch(6);
  zeros.define(machine.layout(zeroed).dtype, machine.layout(zeroed).numElements());
  std::fill(zeros.f.begin(), zeros.f.end(), 0.0);
  std::fill(zeros.i.begin(), zeros.i.end(), int64_t{0});
  machine.writeTile(zeroed, zeros);
  machine.countElements(active);
}

void DmaUnit::countDma(Opcode opcode, int64_t active, int size) {
  machine.countElements(active);
  const int64_t bytes = active * size;
  if (opcode == Opcode::DmaLoad)
    machine.stats().dmaBytesRead += bytes;
  else if (opcode == Opcode::DmaAtomic) {
    machine.stats().dmaBytesRead += bytes;
    machine.stats().dmaBytesWritten += bytes;
  } else
    machine.stats().dmaBytesWritten += bytes;
}

void DmaUnit::dmaRows(const Instruction &in, const Pointer &p, const npu::TileLayout &l, int64_t base) {
  const npu::DmaDescriptor &dma = in.dma;
  const bool isLoad = in.opcode == Opcode::DmaLoad;
  const int data = isLoad ? in.dsts.at(0) : in.srcs.at(0);
  const int64_t n = l.numElements();
  const int rank = l.rank();
  const size_t last = static_cast<size_t>(rank - 1);
  const int64_t inner = l.shape[last];
  const int size = p.elementBytes;
  const bool values = machine.computeValues();
  std::vector<int64_t> stride(static_cast<size_t>(rank)), index(static_cast<size_t>(rank), 0);
  for (int a = 0; a < rank; ++a)
    stride[static_cast<size_t>(a)] = machine.scalarInt(dma.strides.at(static_cast<size_t>(a)));
  const uint8_t *mask = activeMask(dma, l);
  uint64_t fillBits = 0;
  if (values && isLoad && mask) {
    const Scalar fill = machine.scalarAs(dma.fill, l.dtype);
    fillBits = core::toBits(l.dtype, fill.f, fill.i);
  }
  const Machine::TileBytes tile = values ? machine.tileBytes(data) : Machine::TileBytes{};
  // Along the last axis consecutive elements take consecutive slots of one
  // lane unless that axis is the lane axis.
  const bool rowInLane = l.laneAxis != rank - 1 || inner == 1;
  const int64_t lanes = machine.lanes();
  uint8_t *dram = p.buffer->bytes ? p.buffer->bytes->data() : nullptr; // null: an address-only run
  const int64_t dramSize = p.buffer->size();
  const uint64_t address = p.buffer->address;
  // The byte of an element offset in the buffer, or -1 outside it.
  auto byteOf = [&](int64_t offset) -> int64_t {
    int64_t byte = 0;
    if (__builtin_mul_overflow(offset, int64_t{size}, &byte) ||
        __builtin_add_overflow(byte, p.byteOffset, &byte) || byte < 0 || byte + size > dramSize)
      return -1;
    return byte;
  };
  int64_t active = 0;
  withSize(size, [&](auto sizeTag) {
    constexpr size_t S = decltype(sizeTag)::value;
    constexpr int64_t SS = static_cast<int64_t>(S);
    // Elements e0 + [j0, j1) of a row whose element j lies at offset o + j,
    // one at a time, exactly as the general path treats them.
    auto oneByOne = [&](int64_t e0, uint64_t o, int64_t j0, int64_t j1) {
      for (int64_t j = j0; j < j1; ++j) {
        const int64_t e = e0 + j, offset = static_cast<int64_t>(o + static_cast<uint64_t>(j));
        if (!values) {
          const int64_t byte = machine.dramByte(p, offset, e);
          ++active;
          machine.addDram(address + static_cast<uint64_t>(byte), static_cast<uint32_t>(S), !isLoad);
          continue;
        }
        const int64_t at = tile.pos[e];
        if (!isLoad && (!tile.shadow[at] || !tile.shadow[at + SS - 1]))
          machine.checkWritten(data, e);
        const int64_t byte = machine.dramByte(p, offset, e);
        if (isLoad) {
          std::memcpy(tile.data + at, dram + byte, S);
          std::memset(tile.shadow + at, 1, S);
        } else
          std::memcpy(dram + byte, tile.data + at, S);
        machine.addDram(address + static_cast<uint64_t>(byte), static_cast<uint32_t>(S), !isLoad);
        ++active;
      }
    };
    // An active run: when its first and last elements lie inside the buffer
    // (and the offsets do not wrap), so does everything between.
    auto activeRun = [&](int64_t e0, uint64_t o, int64_t j0, int64_t j1) {
      const int64_t first = static_cast<int64_t>(o + static_cast<uint64_t>(j0));
      const int64_t lastOffset = static_cast<int64_t>(o + static_cast<uint64_t>(j1 - 1));
      const int64_t byte = byteOf(first);
      if (byte < 0 || lastOffset < first || byteOf(lastOffset) < 0)
        return oneByOne(e0, o, j0, j1);
      const int64_t count = j1 - j0;
      if (values) {
        const int64_t at = tile.pos[e0 + j0];
        if (!rowInLane) {
          // The row runs along the lane axis: element j lies in lane j %
          // lanes. Lane by lane, a lane's slots are visited in order, so the
          // scratchpad is written (or read) one lane's bytes at a time.
          uint8_t *const bytes = tile.data, *const shadow = tile.shadow;
          const int64_t *const pos = tile.pos + e0;
          uint8_t *const run = dram + byte;
          if (!isLoad)
            for (int64_t j = j0; j < j1; ++j) {
              const int64_t q = pos[j];
              if (!shadow[q] || !shadow[q + SS - 1])
                return oneByOne(e0, o, j0, j1);
            }
          const int64_t laneEnd = std::min(j1, j0 + lanes);
          for (int64_t r = j0; r < laneEnd; ++r)
            if (isLoad)
              for (int64_t j = r; j < j1; j += lanes) {
                const int64_t q = pos[j];
                std::memcpy(bytes + q, run + (j - j0) * SS, S);
                std::memset(shadow + q, 1, S);
              }
            else
              for (int64_t j = r; j < j1; j += lanes)
                std::memcpy(run + (j - j0) * SS, bytes + pos[j], S);
        } else if (isLoad) {
          std::memcpy(tile.data + at, dram + byte, static_cast<size_t>(count) * S);
          std::memset(tile.shadow + at, 1, static_cast<size_t>(count) * S);
        } else {
          if (std::memchr(tile.shadow + at, 0, static_cast<size_t>(count) * S))
            return oneByOne(e0, o, j0, j1);
          std::memcpy(dram + byte, tile.data + at, static_cast<size_t>(count) * S);
        }
      }
      machine.addDram(address + static_cast<uint64_t>(byte), static_cast<uint32_t>(count * SS), !isLoad);
      active += count;
    };
    auto fill = [&](int64_t e0, int64_t j0, int64_t j1) {
      if (!values || !isLoad)
        return;
      for (int64_t j = j0; j < j1; ++j) {
        const int64_t at = tile.pos[e0 + j];
        std::memcpy(tile.data + at, &fillBits, S);
        std::memset(tile.shadow + at, 1, S);
      }
    };
    // A masked load of a row in one lane whose every element lies inside the
    // buffer: each slot gets its DRAM element or the fill in one branch-free
    // pass, the shadow one set, the active runs traced as activeRun does.
    using Bits = std::conditional_t<
        S == 1, uint8_t,
        std::conditional_t<S == 2, uint16_t, std::conditional_t<S == 4, uint32_t, uint64_t>>>;
    const Bits fillValue = static_cast<Bits>(fillBits);
    auto maskedRow = [&](int64_t e0, uint64_t o) {
      const int64_t lastOffset = static_cast<int64_t>(o + static_cast<uint64_t>(inner - 1));
      const int64_t byte = byteOf(static_cast<int64_t>(o));
      if (byte < 0 || lastOffset < static_cast<int64_t>(o) || byteOf(lastOffset) < 0)
        return false;
      const uint8_t *m = mask + e0, *from = dram + byte;
      const int64_t at = tile.pos[e0];
      uint8_t *to = tile.data + at;
      int64_t count = 0;
      for (int64_t j = 0; j < inner; ++j) {
        Bits v;
        std::memcpy(&v, from + j * SS, S);
        v = m[j] ? v : fillValue;
        std::memcpy(to + j * SS, &v, S);
        count += m[j] != 0;
      }
      std::memset(tile.shadow + at, 1, static_cast<size_t>(inner) * S);
      active += count;
      if (machine.tracing())
        for (int64_t j = 0; j < inner;) {
          int64_t k = j;
          while (k < inner && (m[k] != 0) == (m[j] != 0))
            ++k;
          if (m[j])
            machine.addDram(address + static_cast<uint64_t>(byte + j * SS),
                            static_cast<uint32_t>((k - j) * SS), false);
          j = k;
        }
      return true;
    };
    const bool maskedRows = values && isLoad && mask && rowInLane;
    auto oneRow = [&](int64_t e0, uint64_t o) {
      if (!mask)
        activeRun(e0, o, 0, inner);
      else if (!maskedRows || !maskedRow(e0, o))
        for (int64_t j = 0; j < inner;) {
          const uint8_t *m = mask + e0;
          int64_t k = j;
          while (k < inner && (m[k] != 0) == (m[j] != 0))
            ++k;
          if (m[j])
            activeRun(e0, o, j, k);
          else
            fill(e0, j, k);
          j = k;
        }
    };
    // Rows along the lane axis: element j of row r lies in slot (j / lanes)
    // * rows + r of lane j % lanes, so `block` consecutive rows fill
    // consecutive slots, a cache line of them per column. Such a block is
    // moved column by column (a blocked transpose) when its rows are wholly
    // active and inside the buffer, and for a store written and disjoint in
    // DRAM in row order (so that no later row's element is overwritten by an
    // earlier one's); otherwise row by row.
    constexpr int64_t block = 64 / SS;
    auto laneBlock = [&](int64_t e0, const uint64_t *rowOffset, int64_t rows) {
      if (rows < 2)
        return false;
      int64_t bytes[block];
      for (int64_t k = 0; k < rows; ++k) {
        const int64_t first = static_cast<int64_t>(rowOffset[k]);
        const int64_t lastOffset = static_cast<int64_t>(rowOffset[k] + static_cast<uint64_t>(inner - 1));
        bytes[k] = byteOf(first);
        if (bytes[k] < 0 || lastOffset < first || byteOf(lastOffset) < 0)
          return false;
        if (mask && std::memchr(mask + e0 + k * inner, 0, static_cast<size_t>(inner)))
          return false;
        if (!isLoad && k > 0 && bytes[k] < bytes[k - 1] + inner * SS)
          return false;
      }
      const int64_t *pos = tile.pos + e0;
      uint8_t *const spad = tile.data, *const shadow = tile.shadow;
      const size_t column = static_cast<size_t>(rows) * S;
      if (!isLoad)
        for (int64_t j = 0; j < inner; ++j)
          if (std::memchr(shadow + pos[j], 0, column))
            return false;
      for (int64_t j = 0; j < inner; ++j) {
        uint8_t *slots = spad + pos[j];
        if (isLoad) {
          for (int64_t k = 0; k < rows; ++k)
            std::memcpy(slots + k * SS, dram + bytes[k] + j * SS, S);
          std::memset(shadow + pos[j], 1, column);
        } else
          for (int64_t k = 0; k < rows; ++k)
            std::memcpy(dram + bytes[k] + j * SS, slots + k * SS, S);
      }
      for (int64_t k = 0; k < rows; ++k)
        machine.addDram(address + static_cast<uint64_t>(bytes[k]), static_cast<uint32_t>(inner * SS),
                        !isLoad);
      active += rows * inner;
      return true;
    };
    uint64_t offset = static_cast<uint64_t>(base);
    if (!values || rowInLane) {
      for (int64_t e0 = 0; e0 < n; e0 += inner) {
        oneRow(e0, offset);
        nextRow(l, stride, index, offset);
      }
      return;
    }
    uint64_t rowOffset[block];
    for (int64_t e0 = 0; e0 < n;) {
      const int64_t rows = std::min(block, (n - e0) / inner);
      for (int64_t k = 0; k < rows; ++k) {
        rowOffset[k] = offset;
        nextRow(l, stride, index, offset);
      }
      if (!laneBlock(e0, rowOffset, rows))
        for (int64_t k = 0; k < rows; ++k)
          oneRow(e0 + k * inner, rowOffset[k]);
      e0 += rows * inner;
    }
  });
  if (values && isLoad)
    machine.markComplete(data); // loaded or filled, every element
  countDma(in.opcode, active, size);
}

// ------------------------------------------------------------ DRAM pointers

Pointer Machine::pointer(int argument) const {
  const LaunchArgument &a = arguments_[static_cast<size_t>(argument)];
  Pointer p;
  p.buffer = &buffers_[static_cast<size_t>(a.buffer)];
  p.elementBytes = core::byteSize(program_.arguments[static_cast<size_t>(argument)].dtype);
  p.byteOffset = a.elementOffset * p.elementBytes;
  return p;
}

void Machine::outOfBounds(const Pointer &p, int64_t elementOffset, int64_t tileElement) const {
  const int64_t size = p.buffer->size();
  // In the buffer's terms: the pointer's own offset plus the element's.
  const int64_t element = static_cast<int64_t>(static_cast<uint64_t>(p.byteOffset / p.elementBytes) +
                                               static_cast<uint64_t>(elementOffset));
  const uint64_t byte = static_cast<uint64_t>(element) * static_cast<uint64_t>(p.elementBytes);
  std::ostringstream s;
  if (tileElement >= 0)
    s << "element " << tileElement << " of the data tile";
  else
    s << "the scalar access";
  s << " is outside buffer '" << p.buffer->name << "' (" << size / p.elementBytes << " elements of "
    << p.elementBytes << " bytes): element offset " << element << ", byte offset "
    << static_cast<int64_t>(byte) << ", address 0x" << std::hex << (p.buffer->address + byte);
  fail(s.str());
}

} // namespace npusim::functional::detail
