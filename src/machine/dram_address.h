#pragma once
// Address mapping of the DRAM: a flat byte address to channel, rank, bank
// group, bank, row and column, as a mixed-radix number whose digits are named
// by DramConfig::addressMapping (docs/dram.md, "Address mapping").
#include "config/hardware.h"

#include <array>
#include <cstdint>
#include <string>

namespace npusim::machine {

struct DramLocation {
  int channel = 0;
  int rank = 0;
  int bankGroup = 0;
  int bank = 0; // within its bank group
  int64_t row = 0;
  int column = 0; // in access granules within the row
};

class DramAddressMapper {
public:
  /// Throws core::InputError when the mapping string is not a permutation of
  /// Ro, Ba, Ra, Co, Ch (optionally with a separate Bg), or the organisation
  /// has a non-positive size.
  explicit DramAddressMapper(const config::DramConfig &dram);

  DramLocation decode(uint64_t address) const;
  /// Bytes of one access granule: the unit the low address digits skip.
  uint32_t granuleBytes() const { return granuleBytes_; }
  int channels() const { return channels_; }
  /// The channel repeats every this many bytes: the granule times the radices
  /// of the digits up to and including the channel's. channelOf() of any
  /// address, negative offsets from a base included, reduces modulo it.
  uint64_t channelPeriodBytes() const { return channelPeriodBytes_; }
  /// The channel of an address; an offset below zero (a negative stride from
  /// an aligned base) wraps as the address space does.
  int channelOf(int64_t address) const;
  int bankGroups() const { return bankGroups_; }
  int banksPerGroup() const { return banksPerGroup_; }
  /// Access granules in one row (columns / prefetch).
  int granulesPerRow() const { return granulesPerRow_; }

private:
  using Field = config::AddressField;
  struct Digit {
    Field field;
    uint64_t radix;
    int shift = -1; // log2(radix) when radix is a power of two: a shift and a mask instead of a division
  };
  uint32_t granuleBytes_ = 0;
  uint64_t channelPeriodBytes_ = 0;
  int channels_ = 0, bankGroups_ = 0, banksPerGroup_ = 0, granulesPerRow_ = 0;
  bool separateBankGroup_ = false;
  std::array<Digit, 6> digits_{}; // least significant first
  int digitCount_ = 0;
  // When every radix, the granule size and the bank group count are powers of
  // two, decode() reads each field as bits [offset, offset + log2 radix) of the
  // granule number; a field that is absent (Bg without a Bg digit) has mask 0.
  bool bitFields_ = false;
  int granuleShift_ = 0, bankGroupShift_ = 0;
  std::array<int, 6> fieldOffset_{};    // [Field]
  std::array<uint64_t, 6> fieldMask_{}; // [Field]
};

} // namespace npusim::machine
