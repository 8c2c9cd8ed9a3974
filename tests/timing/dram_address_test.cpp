// The address mapper: flat byte address -> channel, bank group, bank, row, column.
#include "timing/dram_address.h"

#include "core/error.h"

#include <gtest/gtest.h>

namespace npusim::timing {
namespace {

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

TEST(DramAddressMapping, RejectsMalformedMappings) {
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCo")), core::InputError);     // no channel
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCoChCh")), core::InputError); // twice
  EXPECT_THROW(DramAddressMapper(hbm2(1, "RoBaRaCoC")), core::InputError);    // odd length
  EXPECT_THROW(DramAddressMapper(hbm2(0, "RoBaRaCoCh")), core::InputError);   // no channels
}

} // namespace
} // namespace npusim::timing
