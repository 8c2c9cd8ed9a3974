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
  std::string why;
  const std::vector<config::AddressField> fields = config::parseAddressMapping(mapping, &why);
  if (fields.empty())
    badMapping(mapping, why);
  separateBankGroup_ = false;
  for (config::AddressField field : fields)
    separateBankGroup_ = separateBankGroup_ || field == config::AddressField::BankGroup;
  // The string lists the most significant field first; digits_ keeps the least
  // significant first, the order decode() peels them off.
  for (auto it = fields.rbegin(); it != fields.rend(); ++it) {
    Digit digit{*it, 1};
    switch (*it) {
    case Field::Row: digit.radix = static_cast<uint64_t>(timing.rows); break;
    case Field::Bank:
      digit.radix = static_cast<uint64_t>(separateBankGroup_ ? banksPerGroup_ : bankGroups_ * banksPerGroup_);
      break;
    case Field::BankGroup: digit.radix = static_cast<uint64_t>(bankGroups_); break;
    case Field::Rank: digit.radix = 1; break; // one rank per channel: the timing sets describe one
    case Field::Column: digit.radix = static_cast<uint64_t>(granulesPerRow_); break;
    case Field::Channel: digit.radix = static_cast<uint64_t>(channels_); break;
    }
    if ((digit.radix & (digit.radix - 1)) == 0)
      digit.shift = std::countr_zero(digit.radix);
    digits_[static_cast<size_t>(digitCount_++)] = digit;
  }
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
  channelPeriodBytes_ = granuleBytes_;
  for (int i = 0; i < digitCount_; ++i) {
    channelPeriodBytes_ *= digits_[static_cast<size_t>(i)].radix;
    if (digits_[static_cast<size_t>(i)].field == Field::Channel)
      break;
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

int DramAddressMapper::channelOf(int64_t address) const {
  const auto period = static_cast<int64_t>(channelPeriodBytes_);
  const int64_t wrapped = ((address % period) + period) % period;
  return decode(static_cast<uint64_t>(wrapped)).channel;
}

} // namespace npusim::machine
