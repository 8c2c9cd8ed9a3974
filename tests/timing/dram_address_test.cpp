// The address mapper: flat byte address -> channel, bank group, bank, row, column.
#include "machine/dram_address.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::timing {
namespace {

using namespace machine;

// HBM2 organisation (config::DramTiming defaults): 32-byte granules, 128 / 4 = 32
// granules per row, 4 x 4 banks, 65536 rows.
config::DramConfig hbm2(int channels, const std::string &mapping) {
  config::DramConfig dram;
  dram.channels = channels;
  dram.addressMapping = mapping;
  return dram;
}

TEST(DramAddressMapping, DefaultPutsChannelThenColumnThenBankThenRow) {
  const DramAddressMapper mapper(hbm2(16, "RoBaRaCoCh"));
  EXPECT_EQ(mapper.granuleBytes(), 32u);
  EXPECT_EQ(mapper.granulesPerRow(), 32);
  // Granule g = address / 32: channel g % 16, column (g / 16) % 32, bank number
  // (g / 512) % 16 (group = number % 4, bank = number / 4), row g / 8192.
  // address 0x12345 + 31 bytes: g = 74565 / 32 = 2330 -> channel 2330 % 16 = 10,
  // column (2330 / 16) % 32 = 145 % 32 = 17, bank number 2330 / 512 = 4 -> group 0, bank 1, row 0.
  const DramLocation a = mapper.decode(0x12345);
  EXPECT_EQ(a.channel, 10);
  EXPECT_EQ(a.column, 17);
  EXPECT_EQ(a.bankGroup, 0);
  EXPECT_EQ(a.bank, 1);
  EXPECT_EQ(a.row, 0);
  // g = 8192 * 7 + 512 * 6 + 16 * 5 + 3: row 7, bank number 6 (group 2, bank 1), column 5, channel 3.
  const uint64_t g = 8192 * 7 + 512 * 6 + 16 * 5 + 3;
  const DramLocation b = mapper.decode(g * 32 + 31);
  EXPECT_EQ(b.channel, 3);
  EXPECT_EQ(b.column, 5);
  EXPECT_EQ(b.bankGroup, 2);
  EXPECT_EQ(b.bank, 1);
  EXPECT_EQ(b.row, 7);
  // Past the capacity (16 ch * 16 banks * 65536 rows * 1 KiB = 16 GiB) addresses wrap.
  EXPECT_EQ(mapper.decode((uint64_t{16} << 30) + g * 32).row, 7);
}

TEST(DramAddressMapping, SeparateBankGroupField) {
  const DramAddressMapper mapper(hbm2(2, "RoBaRaCoBgCh"));
  // g = 2 * (4 * (32 * (4 * row + bank) + column) + group) + channel.
  const uint64_t g = 2 * (4 * (32 * (4 * 9 + 3) + 30) + 2) + 1;
  const DramLocation l = mapper.decode(g * 32);
  EXPECT_EQ(l.channel, 1);
  EXPECT_EQ(l.bankGroup, 2);
  EXPECT_EQ(l.column, 30);
  EXPECT_EQ(l.bank, 3);
  EXPECT_EQ(l.row, 9);
}

TEST(DramAddressMapping, ChannelsNeedNotBeAPowerOfTwo) {
  const DramAddressMapper mapper(hbm2(3, "RoBaRaCoCh"));
  // Granules 0..5 go to channels 0, 1, 2, 0, 1, 2; granule 3 is column 1.
  for (uint64_t g = 0; g < 6; ++g)
    EXPECT_EQ(mapper.decode(g * 32).channel, static_cast<int>(g % 3));
  EXPECT_EQ(mapper.decode(3 * 32).column, 1);
}

// The channel of an offset from a base: channel-low mapping, 3 channels of
// 32-byte granules: period 96 bytes; offset -32 is granule -1, which wraps to
// channel 2 (as -1 mod 3); with the channel above the columns (RoBaRaChCo,
// 32 granules per row) the period is 32 * 32 * 3 = 3072 bytes and offset -32
// lies in the last row-span, channel 2.
TEST(DramAddressMapping, ChannelOfNegativeOffsetsWraps) {
  const DramAddressMapper low(hbm2(3, "RoBaRaCoCh"));
  EXPECT_EQ(low.channelPeriodBytes(), 96u);
  EXPECT_EQ(low.channelOf(-32), 2);
  EXPECT_EQ(low.channelOf(-64), 1);
  EXPECT_EQ(low.channelOf(-1), 2);
  EXPECT_EQ(low.channelOf(97), 0);
  const DramAddressMapper high(hbm2(3, "RoBaRaChCo"));
  EXPECT_EQ(high.channelPeriodBytes(), 3072u);
  EXPECT_EQ(high.channelOf(-32), 2);
  EXPECT_EQ(high.channelOf(1024), 1);
  EXPECT_EQ(high.channelOf(-1024 - 1), 1);
}

// Field by field, by mixed-radix division of the granule number (least
// significant field last in the mapping string): the statement of the mapping,
// for every mapping below whether its radices are powers of two (decode() reads
// bit fields) or not (decode() divides).
TEST(DramAddressMapping, RandomAddressesMatchMixedRadixDivision) {
  struct Case {
    int channels;
    std::string mapping;
    int bankGroups;
  };
  const Case cases[] = {{16, "RoBaRaCoCh", 4}, {16, "RoBaRaCoBgCh", 4}, {8, "RoCoBaRaCh", 4},
                        {3, "RoBaRaCoCh", 4},  {16, "RoBaRaCoCh", 3},   {6, "RoBaRaCoBgCh", 2}};
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 11;
  };
  for (const Case &c : cases) {
    config::DramConfig dram = hbm2(c.channels, c.mapping);
    dram.timing.bankGroups = c.bankGroups;
    const DramAddressMapper mapper(dram);
    const bool separate = c.mapping.find("Bg") != std::string::npos;
    const int groups = c.bankGroups, perGroup = dram.timing.banksPerGroup;
    for (int trial = 0; trial < 2000; ++trial) {
      const uint64_t address = next() % (uint64_t{1} << 40);
      uint64_t rest = address / 32;
      int64_t row = 0;
      int bankNumber = 0, group = 0, column = 0, channel = 0;
      for (size_t pos = c.mapping.size(); pos >= 2; pos -= 2) {
        const std::string field = c.mapping.substr(pos - 2, 2);
        uint64_t radix = 1;
        if (field == "Ro")
          radix = 65536;
        else if (field == "Ba")
          radix = static_cast<uint64_t>(separate ? perGroup : groups * perGroup);
        else if (field == "Bg")
          radix = static_cast<uint64_t>(groups);
        else if (field == "Co")
          radix = 32;
        else if (field == "Ch")
          radix = static_cast<uint64_t>(c.channels);
        const uint64_t digit = rest % radix;
        rest /= radix;
        if (field == "Ro")
          row = static_cast<int64_t>(digit);
        else if (field == "Ba")
          bankNumber = static_cast<int>(digit);
        else if (field == "Bg")
          group = static_cast<int>(digit);
        else if (field == "Co")
          column = static_cast<int>(digit);
        else if (field == "Ch")
          channel = static_cast<int>(digit);
      }
      const DramLocation l = mapper.decode(address);
      SCOPED_TRACE(c.mapping + " with " + std::to_string(c.channels) + " channels, " +
                   std::to_string(groups) + " bank groups, address " + std::to_string(address));
      EXPECT_EQ(l.row, row);
      EXPECT_EQ(l.column, column);
      EXPECT_EQ(l.channel, channel);
      EXPECT_EQ(l.rank, 0);
      EXPECT_EQ(l.bankGroup, separate ? group : bankNumber % groups);
      EXPECT_EQ(l.bank, separate ? bankNumber : bankNumber / groups);
      if (::testing::Test::HasFailure())
        return;
    }
  }
}

TEST(DramAddressMapping, RejectsMalformedMappings) {
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCo")), core::InputError);     // no channel
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCoChCh")), core::InputError); // twice
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCoC")), core::InputError);    // odd length
  EXPECT_THROW(DramAddressMapper(hbm2(0, "RoBaRaCoCh")), core::InputError);   // no channels
}

} // namespace
} // namespace npusim::timing
