// fillView and copySameDType against plain loops over the views' indices, on
// contiguous views (the memset/memcpy path) and on strided, broadcast and
// overlapping ones (the element path).
#include "reference/host_calls.h"

#include <gtest/gtest.h>

#include <cstring>

namespace npusim::reference {
namespace {

Buffer buffer(core::DType dtype, int64_t elements) {
  Buffer b;
  b.name = "b";
  b.dtype = dtype;
  b.bytes.assign(static_cast<size_t>(elements * core::byteSize(dtype)), 0xAB);
  return b;
}

TensorView view(Buffer &b, int64_t offset, std::vector<int64_t> shape, std::vector<int64_t> stride) {
  TensorView v;
  v.buffer = &b;
  v.offset = offset;
  v.shape = std::move(shape);
  v.stride = std::move(stride);
  return v;
}

uint32_t word(const Buffer &b, int64_t i) {
  uint32_t w;
  std::memcpy(&w, b.bytes.data() + i * 4, 4);
  return w;
}

void setWord(Buffer &b, int64_t i, uint32_t w) {
  std::memcpy(b.bytes.data() + i * 4, &w, 4);
}

TEST(Views, ContiguousAndStrided) {
  Buffer b = buffer(core::DType::Float32, 64);
  EXPECT_TRUE(isContiguous(view(b, 3, {2, 5}, {5, 1})));
  EXPECT_TRUE(isContiguous(view(b, 0, {2, 1, 5}, {5, 99, 1}))); // a size-1 axis's stride is free
  EXPECT_FALSE(isContiguous(view(b, 0, {2, 5}, {1, 2})));       // transposed
  EXPECT_FALSE(isContiguous(view(b, 0, {2, 5}, {6, 1})));       // padded rows
  EXPECT_FALSE(isContiguous(view(b, 0, {3}, {0})));             // broadcast
}

TEST(Views, FillContiguousFloat32) {
  Buffer b = buffer(core::DType::Float32, 32);
  fillView(view(b, 5, {3, 4}, {4, 1}), 1.5);
  for (int64_t i = 0; i < 32; ++i) // 1.5f = 0x3FC00000; elements 5..16 only
    EXPECT_EQ(word(b, i), i >= 5 && i < 17 ? 0x3FC00000u : 0xABABABABu) << i;
  fillView(view(b, 0, {32}, {1}), 0.0);
  for (int64_t i = 0; i < 32; ++i)
    EXPECT_EQ(word(b, i), 0u);
}

TEST(Views, FillStridedFloat16) {
  Buffer b = buffer(core::DType::Float16, 40);
  // Rows of 3 every 8 elements, columns backwards: elements 2,1,0, 10,9,8, 18,17,16.
  fillView(view(b, 2, {3, 3}, {8, -1}), -2.0);
  for (int64_t i = 0; i < 40; ++i) {
    uint16_t h;
    std::memcpy(&h, b.bytes.data() + i * 2, 2);
    const bool inView = i % 8 < 3 && i < 24;
    EXPECT_EQ(h, inView ? 0xC000u : 0xABABu) << i; // -2.0 in fp16 = 0xC000
  }
}

TEST(Views, FillLargeRepeatsThePattern) {
  // Past the 4 KiB block the pattern is copied on in blocks: every element of
  // an odd-sized run still gets it, and nothing after the run does.
  const int64_t n = 10007;
  Buffer b = buffer(core::DType::Int32, n + 1);
  fillView(view(b, 0, {n}, {1}), 7.0);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(word(b, i), 7u) << i;
  EXPECT_EQ(word(b, n), 0xABABABABu);
}

TEST(Views, CopyContiguousAndTransposed) {
  Buffer from = buffer(core::DType::Int32, 12), to = buffer(core::DType::Int32, 12);
  for (int64_t i = 0; i < 12; ++i)
    setWord(from, i, static_cast<uint32_t>(100 + i));
  ASSERT_TRUE(copySameDType(view(from, 0, {3, 4}, {4, 1}), view(to, 0, {3, 4}, {4, 1})));
  for (int64_t i = 0; i < 12; ++i)
    EXPECT_EQ(word(to, i), 100u + i);
  // to[i][j] = from[j][i] for a [4, 3] transposed read of the [3, 4] source.
  ASSERT_TRUE(copySameDType(view(from, 0, {4, 3}, {1, 4}), view(to, 0, {4, 3}, {3, 1})));
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(word(to, i * 3 + j), 100u + j * 4 + i);
}

TEST(Views, CopyBroadcastAndOverlap) {
  Buffer b = buffer(core::DType::Float32, 16);
  for (int64_t i = 0; i < 16; ++i)
    setWord(b, i, static_cast<uint32_t>(i));
  // Broadcast row 0..3 into rows 1..3 of the same buffer, reading element
  // i of the row before any write: to[r][c] = c.
  ASSERT_TRUE(copySameDType(view(b, 0, {3, 4}, {0, 1}), view(b, 4, {3, 4}, {4, 1})));
  for (int64_t i = 0; i < 16; ++i)
    EXPECT_EQ(word(b, i), static_cast<uint32_t>(i % 4)) << i;
  // Overlapping shifted strided copy: b[2k+2] = old b[2k] for k = 0..5.
  for (int64_t i = 0; i < 16; ++i)
    setWord(b, i, static_cast<uint32_t>(i));
  ASSERT_TRUE(copySameDType(view(b, 0, {6}, {2}), view(b, 2, {6}, {2})));
  for (int64_t k = 0; k < 6; ++k)
    EXPECT_EQ(word(b, 2 * k + 2), static_cast<uint32_t>(2 * k));
  EXPECT_EQ(word(b, 0), 0u);
  EXPECT_EQ(word(b, 1), 1u);
  // Overlapping contiguous copy (memmove): b[1..15] = old b[0..14].
  for (int64_t i = 0; i < 16; ++i)
    setWord(b, i, static_cast<uint32_t>(i));
  ASSERT_TRUE(copySameDType(view(b, 0, {15}, {1}), view(b, 1, {15}, {1})));
  for (int64_t i = 1; i < 16; ++i)
    EXPECT_EQ(word(b, i), static_cast<uint32_t>(i - 1));
}

TEST(Views, CopyKeepsNanPayloadsAndRefusesOtherDtypes) {
  Buffer from = buffer(core::DType::Float32, 2), to = buffer(core::DType::Float32, 2);
  setWord(from, 0, 0x7F800001u); // a signalling NaN: a round trip through double would quiet it
  setWord(from, 1, 0x80000000u); // -0.0
  ASSERT_TRUE(copySameDType(view(from, 0, {2}, {1}), view(to, 0, {2}, {1})));
  EXPECT_EQ(word(to, 0), 0x7F800001u);
  EXPECT_EQ(word(to, 1), 0x80000000u);
  Buffer half = buffer(core::DType::Float16, 2);
  EXPECT_FALSE(copySameDType(view(from, 0, {2}, {1}), view(half, 0, {2}, {1})));
  EXPECT_EQ(half.bytes, std::vector<uint8_t>(4, 0xAB));
}

} // namespace
} // namespace npusim::reference
