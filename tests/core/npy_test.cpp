// .npy reading and writing: round trips for every dtype, the exact bytes numpy
// writes, the header variants numpy and older writers produce, and malformed
// files, each of which must be an InputError naming the file and the problem.
#include "core/error.h"
#include "core/npy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace npusim::core {
namespace {

namespace fs = std::filesystem;

class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "npusim-npy-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string &name) const { return (dir_ / name).string(); }

  std::string writeBytes(const std::string &name, const std::string &bytes) const {
    const std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }

  /// readNpy of a file holding `bytes` must fail with an InputError whose
  /// message starts with the file name and contains `expected`.
  void expectMalformed(const std::string &name, const std::string &bytes, const std::string &expected) const {
    const std::string p = writeBytes(name, bytes);
    try {
      readNpy(p);
      ADD_FAILURE() << name << ": expected an InputError containing '" << expected << "'";
    } catch (const InputError &e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(p + ": ", 0), 0u) << message;
      EXPECT_NE(message.find(expected), std::string::npos)
          << "message: " << message << "\nexpected: " << expected;
    }
  }

  fs::path dir_;
};

/// A .npy file of format `major`.0 with the given header text (not padded) and data.
std::string npyBytes(int major, const std::string &header, const std::string &data) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const size_t n = header.size();
  const int lengthBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string floats(std::initializer_list<float> values) {
  std::string out(values.size() * 4, '\0');
  size_t i = 0;
  for (float v : values)
    std::memcpy(out.data() + 4 * i++, &v, 4);
  return out;
}

NpyArray sampleArray(DType dtype, std::vector<int64_t> shape) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  const auto bytes = static_cast<size_t>(a.numElements() * byteSize(dtype));
  for (size_t i = 0; i < bytes; ++i)
    a.bytes.push_back(dtype == DType::Bool ? static_cast<uint8_t>(i % 3 == 0)
                                           : static_cast<uint8_t>(i * 37 + 11));
  return a;
}

TEST_F(NpyTest, RoundTripsEveryDType) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto dtype = static_cast<DType>(i);
    for (const std::vector<int64_t> &shape :
         std::vector<std::vector<int64_t>>{{}, {5}, {2, 3}, {2, 1, 4}, {0}, {3, 0}}) {
      SCOPED_TRACE(std::string(tritonName(dtype)) + " rank " + std::to_string(shape.size()));
      const NpyArray a = sampleArray(dtype, shape);
      const std::string p = path("a.npy");
      writeNpy(p, a);
      const NpyArray b = readNpy(p);
      // bf16 has no numpy dtype: it is written as <u2 and read back as u16.
      EXPECT_EQ(b.dtype, dtype == DType::BFloat16 ? DType::UInt16 : dtype);
      EXPECT_EQ(b.shape, a.shape);
      EXPECT_EQ(b.bytes, a.bytes);
      EXPECT_EQ(b.numElements(), a.numElements());
    }
  }
}

TEST_F(NpyTest, WritesWhatNumpyWrites) {
  // np.save('a.npy', np.array([1, 2, 3], dtype='<f4')): a 118-byte header padded
  // with spaces so that the data starts at byte 128, ending in '\n'.
  NpyArray a;
  a.dtype = DType::Float32;
  a.shape = {3};
  const std::string data = floats({1.0f, 2.0f, 3.0f});
  a.bytes.assign(data.begin(), data.end());
  const std::string bytes = encodeNpy(a);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  std::string expected = std::string("\x93NUMPY\x01\x00", 8) + "\x76" + std::string(1, '\0') + dict;
  expected += std::string(128 - 10 - dict.size() - 1, ' ') + "\n" + data;
  EXPECT_EQ(bytes, expected);

  a.shape = {3, 1};
  EXPECT_NE(encodeNpy(a).find("'shape': (3, 1), }"), std::string::npos);
  a.shape = {};
  a.bytes.resize(4);
  EXPECT_NE(encodeNpy(a).find("'shape': (), }"), std::string::npos);
  EXPECT_EQ(encodeNpy(a).size() % 64, 4u); // the header is padded to 64 bytes
}

TEST_F(NpyTest, WritingChecksBytesAgainstShape) {
  NpyArray a = sampleArray(DType::Int32, {4});
  a.bytes.pop_back();
  EXPECT_THROW(encodeNpy(a), InputError);
  try {
    writeNpy(path("no-such-dir/a.npy"), sampleArray(DType::Int8, {2}));
    ADD_FAILURE() << "writing into a missing directory must fail";
  } catch (const InputError &e) {
    EXPECT_NE(std::string(e.what()).find("no-such-dir/a.npy: cannot write the file: "), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
}

TEST_F(NpyTest, ReadsVersions2And3AndHeaderVariants) {
  const std::string data = floats({1.5f, -2.0f});
  struct Case {
    int major;
    std::string header;
    DType dtype;
    std::vector<int64_t> shape;
  };
  const Case cases[] = {
      {2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", DType::Float32, {2}},
      {3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }          \n", DType::Float32, {2}},
      // Keys in another order, double quotes, no trailing comma, native byte order.
      {1, "{\"shape\": (1, 2), \"descr\": \"=f4\", \"fortran_order\": False}\n", DType::Float32, {1, 2}},
      // Python 2 longs in old files.
      {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }\n", DType::Float32, {2}},
      // Fortran order is the same layout for 1-D arrays and single long axes.
      {1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\n", DType::Float32, {2}},
      {1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2, 1), }\n", DType::Float32, {1, 2, 1}},
      // Byte order means nothing for one-byte types.
      {1, "{'descr': '>u1', 'fortran_order': False, 'shape': (8,), }\n", DType::UInt8, {8}},
      {1, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 4), }\n", DType::Int8, {2, 4}},
      {1, "{'descr': '<u2', 'fortran_order': False, 'shape': (4,), }\n", DType::UInt16, {4}},
      {1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n", DType::Int64, {}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.header);
    const NpyArray a = readNpy(writeBytes("v.npy", npyBytes(c.major, c.header, data)));
    EXPECT_EQ(a.dtype, c.dtype);
    EXPECT_EQ(a.shape, c.shape);
    EXPECT_EQ(a.bytes.size(), data.size());
    EXPECT_EQ(std::string(a.bytes.begin(), a.bytes.end()), data);
  }
}

TEST_F(NpyTest, BoolBytesAreNormalised) {
  const NpyArray a =
      readNpy(writeBytes("b.npy", npyBytes(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n",
                                           std::string("\x00\x01\x07", 3))));
  EXPECT_EQ(a.dtype, DType::Bool);
  EXPECT_EQ(a.bytes, (std::vector<uint8_t>{0, 1, 1}));
}

TEST_F(NpyTest, MalformedFilesAreInputErrors) {
  const std::string f4 = floats({1.0f, 2.0f, 3.0f});
  auto header = [](const std::string &descr, const std::string &fortran, const std::string &shape) {
    return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
  };
  const std::string good = header("'<f4'", "False", "(3,)");

  expectMalformed("magic.npy", "PK\x03\x04 this is a zip file", "not a .npy file (bad magic string");
  expectMalformed("empty.npy", "", "bad magic string");
  expectMalformed("version.npy", std::string("\x93NUMPY\x01", 7),
                  "truncated: the file ends inside the format version");
  expectMalformed("preamble.npy", std::string("\x93NUMPY\x02\x00\x10\x00", 10),
                  "truncated: the file ends inside the header length");
  expectMalformed("v4.npy", npyBytes(1, good, f4).replace(6, 1, "\x04"),
                  "unsupported .npy format version 4.0");
  {
    std::string bytes = npyBytes(1, good, f4);
    bytes[8] = '\xff'; // header length 0xff.. past the end of the file
    bytes[9] = '\x7f';
    expectMalformed("header-length.npy", bytes, "truncated header: it should be 32767 bytes");
  }
  expectMalformed("huge-header.npy", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + good,
                  "header length 4294967295 is absurd");
  expectMalformed("not-dict.npy", npyBytes(1, "[1, 2, 3]\n", f4),
                  "header is not a dict (it starts with '[')");
  expectMalformed("no-shape.npy", npyBytes(1, "{'descr': '<f4', 'fortran_order': False}\n", f4),
                  "header is missing the key 'shape'");
  expectMalformed("no-descr.npy", npyBytes(1, "{'fortran_order': False, 'shape': (3,)}\n", f4),
                  "header is missing the key 'descr'");
  expectMalformed("extra-key.npy",
                  npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}\n", f4),
                  "header has an unexpected key 'x'");
  expectMalformed("complex.npy", npyBytes(1, header("'<c8'", "False", "(3,)"), f4),
                  "unsupported dtype descriptor '<c8'");
  expectMalformed("string.npy", npyBytes(1, header("'<U4'", "False", "(3,)"), f4),
                  "unsupported dtype descriptor '<U4'");
  expectMalformed("big-endian.npy", npyBytes(1, header("'>f4'", "False", "(3,)"), f4),
                  "big-endian dtype '>f4' is not supported");
  expectMalformed("structured.npy", npyBytes(1, header("[('a', '<f4')]", "False", "(3,)"), f4),
                  "structured dtypes (a list 'descr') are not supported");
  expectMalformed("descr-int.npy", npyBytes(1, header("4", "False", "(3,)"), f4),
                  "header 'descr' is an integer, not a string");
  expectMalformed("fortran-str.npy", npyBytes(1, header("'<f4'", "'no'", "(3,)"), f4),
                  "header 'fortran_order' is a string, not True or False");
  expectMalformed("fortran-2d.npy", npyBytes(1, header("'<f4'", "True", "(3, 2)"), f4 + f4),
                  "Fortran-order array of shape (3, 2) is not supported");
  expectMalformed("shape-list.npy", npyBytes(1, header("'<f4'", "False", "[3]"), f4),
                  "header 'shape' is a list, not a tuple");
  expectMalformed("shape-str.npy", npyBytes(1, header("'<f4'", "False", "('3',)"), f4),
                  "shape holds a string, not an integer");
  expectMalformed("negative.npy", npyBytes(1, header("'<f4'", "False", "(-3,)"), f4),
                  "shape has a negative dimension -3");
  expectMalformed("short-data.npy", npyBytes(1, header("'<f4'", "False", "(4,)"), f4),
                  "data is truncated: shape (4,) of <f4 needs 16 bytes, the file holds 12");
  expectMalformed("long-data.npy", npyBytes(1, good, f4 + "xy"),
                  "the file has 2 bytes after the data that shape (3,) of <f4 describes");
  expectMalformed("absurd-shape.npy",
                  npyBytes(1, header("'<f8'", "False", "(4611686018427387904, 4611686018427387904)"), f4),
                  "shape (4611686018427387904, 4611686018427387904) is absurd: its size overflows 64 bits");
  expectMalformed("absurd-bytes.npy", npyBytes(1, header("'<f8'", "False", "(4611686018427387904,)"), f4),
                  "is absurd: its size overflows 64 bits");
  expectMalformed("big-dim.npy", npyBytes(1, header("'<f4'", "False", "(99999999999999999999999,)"), f4),
                  "shape has an absurd dimension 99999999999999999999999");
  {
    std::string axes = "(";
    for (int i = 0; i < 65; ++i)
      axes += "1, ";
    expectMalformed("rank.npy", npyBytes(1, header("'<f4'", "False", axes + ")"), f4),
                    "shape has 65 axes (at most 64)");
  }
  expectMalformed("nested.npy", npyBytes(1, "{'a': ((((((((((((1,),),),),),),),),),),),)}\n", f4),
                  "values nest more than 8 deep");
  expectMalformed("unterminated.npy", npyBytes(1, "{'descr': '<f4}", f4), "unterminated string");
  expectMalformed("name.npy", npyBytes(1, header("'<f4'", "false", "(3,)"), f4), "unexpected name 'false'");
  expectMalformed("garbage-after.npy", npyBytes(1, good + "}", f4), "header has text after the dict");
  expectMalformed("binary.npy", npyBytes(1, std::string("{'descr'\x01", 9), f4), "byte 0x1");
}

TEST_F(NpyTest, MissingFilesAndDirectoriesAreInputErrors) {
  try {
    readNpy(path("missing.npy"));
    ADD_FAILURE();
  } catch (const InputError &e) {
    EXPECT_EQ(std::string(e.what()), path("missing.npy") + ": cannot open the file");
  }
  try {
    readNpy(dir_.string());
    ADD_FAILURE();
  } catch (const InputError &e) {
    EXPECT_EQ(std::string(e.what()), dir_.string() + ": is a directory, not a .npy file");
  }
}

TEST_F(NpyTest, TruncationsAndCorruptionsNeverCrash) {
  NpyArray a = sampleArray(DType::Float64, {3, 5});
  const std::string valid = encodeNpy(a);
  for (size_t n = 0; n < valid.size(); ++n) {
    EXPECT_THROW(parseNpy(std::string_view(valid).substr(0, n), "t.npy"), InputError)
        << "prefix of " << n << " bytes";
  }
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = valid;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bytes[rng() % 128] = static_cast<char>(rng() % 256); // inside the preamble and header
    try {
      const NpyArray b = parseNpy(bytes, "fuzz.npy");
      EXPECT_EQ(static_cast<int64_t>(b.bytes.size()), b.numElements() * byteSize(b.dtype));
    } catch (const InputError &) {
    }
  }
}

} // namespace
} // namespace npusim::core
