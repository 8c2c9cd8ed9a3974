#include "machine/dram_address.h"

#include "core/error.h"

#include <bit>

namespace npusim::machine {

namespace {

[[noreturn]] void badMapping(const std::string &mapping, const std::string &why) {
  throw core::InputError("dram.addressMapping '" + mapping + "': " + why);
}

} // namespace

DramAddressMapper::DramAddressMapper(const config::DramConfig &dram) {
  const config::DramTiming &timing = dram.timing;
  if (dram.channels <= 0 || timing.bankGroups <= 0 || timing.banksPerGroup <= 0 || timing.rows <= 0 ||
      timing.columns <= 0 || timing.prefetch <= 0 || timing.busWidthBits <= 0 || timing.busWidthBits % 8 != 0)
    throw core::InputError("dram: channels, bank groups, banks, rows, columns, prefetch and bus "
                           "width must be positive (bus width a multiple of 8 bits)");
  if (timing.columns % timing.prefetch != 0)
    throw core::InputError("dram: columns (" + std::to_string(timing.columns) +
                           ") must be a multiple of prefetch (" + std::to_string(timing.prefetch) + ")");
  granuleBytes_ = static_cast<uint32_t>(timing.accessBytes());
  channels_ = dram.channels;
  bankGroups_ = timing.bankGroups;
  banksPerGroup_ = timing.banksPerGroup;
  granulesPerRow_ = timing.columns / timing.prefetch;

  const std::string &mapping = dram.addressMapping;
  if (mapping.size() % 2 != 0 || mapping.size() > 12)
    badMapping(mapping, "expected two-letter fields Ro, Ba, Ra, Co, Ch (and optionally Bg)");
  separateBankGroup_ = mapping.find("Bg") != std::string::npos;
  bool seen[6] = {};
  // The string lists the most significant field first; digits_ keeps the least
  // significant first, the order decode() peels them off.
  for (size_t pos = mapping.size(); pos >= 2; pos -= 2) {
    const std::string token = mapping.substr(pos - 2, 2);
    Digit digit{};
    if (token == "Ro")
      digit = {Field::Row, static_cast<uint64_t>(timing.rows)};
    else if (token == "Ba")
      digit = {Field::Bank,
               static_cast<uint64_t>(separateBankGroup_ ? banksPerGroup_ : bankGroups_ * banksPerGroup_)};
    else if (token == "Bg")
      digit = {Field::BankGroup, static_cast<uint64_t>(bankGroups_)};
    else if (token == "Ra")
      digit = {Field::Rank, 1}; // one rank per channel: the timing sets describe one
    else if (token == "Co")
      digit = {Field::Column, static_cast<uint64_t>(granulesPerRow_)};
    else if (token == "Ch")
      digit = {Field::Channel, static_cast<uint64_t>(channels_)};
    else
      badMapping(mapping, "unknown field '" + token + "'");
    const auto index = static_cast<size_t>(digit.field);
    if (seen[index])
      badMapping(mapping, "field '" + token + "' appears twice");
    seen[index] = true;
    if ((digit.radix & (digit.radix - 1)) == 0)
      digit.shift = std::countr_zero(digit.radix);
    digits_[static_cast<size_t>(digitCount_++)] = digit;
  }
  for (Field required : {Field::Row, Field::Bank, Field::Rank, Field::Column, Field::Channel})
    if (!seen[static_cast<size_t>(required)])
      badMapping(mapping, "every one of Ro, Ba, Ra, Co, Ch must appear");
  // Every radix a power of two (the usual organisation): each field is a bit
  // field of the granule number, read with one shift and one mask.
  bitFields_ = std::has_single_bit(granuleBytes_) && std::has_single_bit(static_cast<unsigned>(bankGroups_));
  int offset = 0;
  for (int i = 0; i < digitCount_; ++i) {
    const Digit &digit = digits_[static_cast<size_t>(i)];
    bitFields_ = bitFields_ && digit.shift >= 0;
    fieldOffset_[static_cast<size_t>(digit.field)] = offset;
    fieldMask_[static_cast<size_t>(digit.field)] = digit.radix - 1;
    offset += digit.shift;
  }
  granuleShift_ = std::countr_zero(granuleBytes_);
  bankGroupShift_ = std::countr_zero(static_cast<unsigned>(bankGroups_));
}

DramLocation DramAddressMapper::decode(uint64_t address) const {
  DramLocation location;
  if (bitFields_) {
    const uint64_t granule = address >> granuleShift_;
    const auto field = [&](Field f) {
      const auto index = static_cast<size_t>(f);
      return (granule >> fieldOffset_[index]) & fieldMask_[index];
    };
    location.row = static_cast<int64_t>(field(Field::Row));
    location.rank = static_cast<int>(field(Field::Rank));
    location.column = static_cast<int>(field(Field::Column));
    location.channel = static_cast<int>(field(Field::Channel));
    const auto bankDigit = static_cast<int>(field(Field::Bank));
    if (separateBankGroup_) {
      location.bankGroup = static_cast<int>(field(Field::BankGroup));
      location.bank = bankDigit;
    } else {
      location.bankGroup = bankDigit & (bankGroups_ - 1);
      location.bank = bankDigit >> bankGroupShift_;
    }
    return location;
  }
  uint64_t rest = address / granuleBytes_;
  int bankDigit = 0;
  for (int i = 0; i < digitCount_; ++i) {
    const Digit &digit = digits_[static_cast<size_t>(i)];
    // The top digit wraps too: addresses alias past the capacity.
    uint64_t value = 0;
    if (digit.shift >= 0) {
      value = rest & (digit.radix - 1);
      rest >>= digit.shift;
    } else {
      value = rest % digit.radix;
      rest /= digit.radix;
    }
    switch (digit.field) {
    case Field::Row: location.row = static_cast<int64_t>(value); break;
    case Field::Bank: bankDigit = static_cast<int>(value); break;
    case Field::BankGroup: location.bankGroup = static_cast<int>(value); break;
    case Field::Rank: location.rank = static_cast<int>(value); break;
    case Field::Column: location.column = static_cast<int>(value); break;
    case Field::Channel: location.channel = static_cast<int>(value); break;
    }
  }
  if (separateBankGroup_) {
    location.bank = bankDigit;
  } else {
    // The bank group is the low part of the bank number, so consecutive banks
    // alternate bank groups and escape the longer same-group timings.
    location.bankGroup = bankDigit % bankGroups_;
    location.bank = bankDigit / bankGroups_;
  }
  return location;
}

} // namespace npusim::machine
