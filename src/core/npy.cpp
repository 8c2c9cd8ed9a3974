#include "core/npy.h"

#include "core/output_file.h"

#include "core/error.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace npusim::core {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
/// numpy's own headers are a few hundred bytes; anything past this is not a header.
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;
/// numpy allows 64 axes.
constexpr size_t kMaxRank = 64;
/// numpy aligns the data to 64 bytes.
constexpr size_t kAlignment = 64;
constexpr int kMaxNesting = 8;

[[noreturn]] void fail(const std::string &name, const std::string &what) {
  throw InputError(name + ": " + what);
}

/// A value of the header's Python literal: only what a .npy header may hold.
struct HeaderValue {
  enum class Kind { String, Bool, None, Int, Tuple, List, Dict };
  Kind kind = Kind::None;
  std::string text;               // String; Int: the digits as written
  bool boolValue = false;         // Bool
  bool negative = false;          // Int
  uint64_t magnitude = 0;         // Int
  bool overflow = false;          // Int: more than 64 bits
  std::vector<HeaderValue> items; // Tuple, List; Dict: the values
  std::vector<std::string> keys;  // Dict: the keys (strings)
};

const char *describe(HeaderValue::Kind kind) {
  switch (kind) {
  case HeaderValue::Kind::String: return "a string";
  case HeaderValue::Kind::Bool: return "a bool";
  case HeaderValue::Kind::None: return "None";
  case HeaderValue::Kind::Int: return "an integer";
  case HeaderValue::Kind::Tuple: return "a tuple";
  case HeaderValue::Kind::List: return "a list";
  case HeaderValue::Kind::Dict: return "a dict";
  }
  return "a value";
}

/// Recursive descent over the Python literal subset numpy writes into headers.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &name) : text_(text), name_(name) {}

  HeaderValue parseTop() {
    skipSpace();
    if (peek() != '{')
      error("header is not a dict (it starts with " + quoteChar() + ")");
    HeaderValue v = parseValue(0);
    skipSpace();
    if (pos_ != text_.size())
      error("header has text after the dict at byte " + std::to_string(pos_));
    return v;
  }

private:
  std::string_view text_;
  const std::string &name_;
  size_t pos_ = 0;

  [[noreturn]] void error(const std::string &what) const { fail(name_, what); }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool atEnd() const { return pos_ >= text_.size(); }

  std::string quoteChar() const {
    if (atEnd())
      return "the end of the header";
    const auto c = static_cast<unsigned char>(text_[pos_]);
    if (c >= 0x20 && c < 0x7f)
      return std::string("'") + static_cast<char>(c) + "'";
    std::ostringstream os;
    os << "byte 0x" << std::hex << static_cast<int>(c);
    return os.str();
  }

  void skipSpace() {
    while (!atEnd() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  void expect(char c, const char *context) {
    skipSpace();
    if (peek() != c)
      error(std::string("malformed header: expected '") + c + "' " + context + ", found " + quoteChar());
    ++pos_;
  }

  HeaderValue parseValue(int depth) {
    if (depth > kMaxNesting)
      error("malformed header: values nest more than " + std::to_string(kMaxNesting) + " deep");
    skipSpace();
    const char c = peek();
    if (c == '{')
      return parseDict(depth);
    if (c == '(' || c == '[')
      return parseSequence(depth);
    if (c == '\'' || c == '"')
      return parseString();
    if (c == '-' || c == '+' || (c >= '0' && c <= '9'))
      return parseInt();
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
      return parseName();
    error("malformed header: unexpected " + quoteChar() + " at byte " + std::to_string(pos_));
  }

  HeaderValue parseDict(int depth) {
    HeaderValue v;
    v.kind = HeaderValue::Kind::Dict;
    ++pos_; // '{'
    for (;;) {
      skipSpace();
      if (peek() == '}') {
        ++pos_;
        return v;
      }
      HeaderValue key = parseValue(depth + 1);
      if (key.kind != HeaderValue::Kind::String)
        error(std::string("malformed header: a dict key is ") + describe(key.kind) + ", not a string");
      expect(':', "after a dict key");
      v.keys.push_back(key.text);
      v.items.push_back(parseValue(depth + 1));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}')
        error("malformed header: expected ',' or '}' in the dict, found " + quoteChar());
    }
  }

  HeaderValue parseSequence(int depth) {
    HeaderValue v;
    const char open = text_[pos_++];
    const char close = open == '(' ? ')' : ']';
    v.kind = open == '(' ? HeaderValue::Kind::Tuple : HeaderValue::Kind::List;
    for (;;) {
      skipSpace();
      if (peek() == close) {
        ++pos_;
        return v;
      }
      v.items.push_back(parseValue(depth + 1));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != close)
        error(std::string("malformed header: expected ',' or '") + close + "', found " + quoteChar());
    }
  }

  HeaderValue parseString() {
    HeaderValue v;
    v.kind = HeaderValue::Kind::String;
    const char quote = text_[pos_++];
    for (;;) {
      if (atEnd())
        error("malformed header: unterminated string");
      const char c = text_[pos_++];
      if (c == quote)
        return v;
      if (c == '\\') {
        if (atEnd())
          error("malformed header: unterminated string");
        v.text += text_[pos_++];
        continue;
      }
      v.text += c;
    }
  }

  HeaderValue parseInt() {
    HeaderValue v;
    v.kind = HeaderValue::Kind::Int;
    if (peek() == '-' || peek() == '+')
      v.negative = text_[pos_++] == '-';
    if (!(peek() >= '0' && peek() <= '9'))
      error("malformed header: expected digits, found " + quoteChar());
    while (peek() >= '0' && peek() <= '9') {
      const auto digit = static_cast<uint64_t>(text_[pos_] - '0');
      v.text += text_[pos_++];
      if (v.magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10)
        v.overflow = true;
      else
        v.magnitude = v.magnitude * 10 + digit;
    }
    if (peek() == 'L' || peek() == 'l') // Python 2 longs, in old version 1.0 files
      ++pos_;
    return v;
  }

  HeaderValue parseName() {
    const size_t start = pos_;
    while ((peek() >= 'A' && peek() <= 'Z') || (peek() >= 'a' && peek() <= 'z') ||
           (peek() >= '0' && peek() <= '9') || peek() == '_')
      ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    HeaderValue v;
    if (word == "True" || word == "False") {
      v.kind = HeaderValue::Kind::Bool;
      v.boolValue = word == "True";
    } else if (word == "None") {
      v.kind = HeaderValue::Kind::None;
    } else {
      error("malformed header: unexpected name '" + std::string(word) + "'");
    }
    return v;
  }
};

struct DescrEntry {
  char kind;
  int bytes;
  DType dtype;
};

constexpr std::array<DescrEntry, 12> kDescrs = {{
    {'b', 1, DType::Bool},
    {'i', 1, DType::Int8},
    {'i', 2, DType::Int16},
    {'i', 4, DType::Int32},
    {'i', 8, DType::Int64},
    {'u', 1, DType::UInt8},
    {'u', 2, DType::UInt16},
    {'u', 4, DType::UInt32},
    {'u', 8, DType::UInt64},
    {'f', 2, DType::Float16},
    {'f', 4, DType::Float32},
    {'f', 8, DType::Float64},
}};

DType parseDescr(const std::string &descr, const std::string &name) {
  std::string_view body = descr;
  char order = '=';
  if (!body.empty() && (body[0] == '<' || body[0] == '>' || body[0] == '=' || body[0] == '|')) {
    order = body[0];
    body.remove_prefix(1);
  }
  if (body.size() == 2 && body[1] >= '1' && body[1] <= '9') {
    const int bytes = body[1] - '0';
    for (const DescrEntry &e : kDescrs) {
      if (e.kind != body[0] || e.bytes != bytes)
        continue;
      if (order == '>' && bytes > 1)
        fail(name, "big-endian dtype '" + descr + "' is not supported; save the array as '<" +
                       std::string(body) + "' (arr.astype('<" + std::string(body) + "'))");
      return e.dtype;
    }
  }
  fail(name, "unsupported dtype descriptor '" + descr +
                 "' (supported: |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 <f2 <f4 <f8)");
}

/// A shape as numpy writes it in headers and messages: a Python tuple, "(3,)".
std::string pythonTuple(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

uint32_t readLittleEndian(std::string_view bytes) {
  uint32_t v = 0;
  for (size_t i = bytes.size(); i-- > 0;)
    v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

/// Fields of the header dict, checked.
struct Header {
  DType dtype = DType::Float32;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

Header interpretHeader(const HeaderValue &dict, const std::string &name) {
  const HeaderValue *descr = nullptr;
  const HeaderValue *fortran = nullptr;
  const HeaderValue *shape = nullptr;
  for (size_t i = 0; i < dict.keys.size(); ++i) {
    const std::string &key = dict.keys[i];
    const HeaderValue **slot = key == "descr"           ? &descr
                               : key == "fortran_order" ? &fortran
                               : key == "shape"         ? &shape
                                                        : nullptr;
    if (!slot)
      fail(name,
           "header has an unexpected key '" + key + "' (a .npy header holds descr, fortran_order and shape)");
    if (*slot)
      fail(name, "header repeats the key '" + key + "'");
    *slot = &dict.items[i];
  }
  for (const auto &[value, key] :
       {std::pair{descr, "descr"}, std::pair{fortran, "fortran_order"}, std::pair{shape, "shape"}})
    if (!value)
      fail(name, std::string("header is missing the key '") + key + "'");

  Header h;
  if (descr->kind == HeaderValue::Kind::List)
    fail(name, "structured dtypes (a list 'descr') are not supported");
  if (descr->kind != HeaderValue::Kind::String)
    fail(name, std::string("header 'descr' is ") + describe(descr->kind) + ", not a string");
  h.dtype = parseDescr(descr->text, name);

  if (fortran->kind != HeaderValue::Kind::Bool)
    fail(name, std::string("header 'fortran_order' is ") + describe(fortran->kind) + ", not True or False");
  h.fortranOrder = fortran->boolValue;

  if (shape->kind != HeaderValue::Kind::Tuple)
    fail(name, std::string("header 'shape' is ") + describe(shape->kind) + ", not a tuple");
  if (shape->items.size() > kMaxRank)
    fail(name, "shape has " + std::to_string(shape->items.size()) + " axes (at most " +
                   std::to_string(kMaxRank) + ")");
  for (const HeaderValue &dim : shape->items) {
    if (dim.kind != HeaderValue::Kind::Int)
      fail(name, std::string("shape holds ") + describe(dim.kind) + ", not an integer");
    if (dim.negative && dim.magnitude != 0)
      fail(name, "shape has a negative dimension -" + dim.text);
    if (dim.overflow || dim.magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(name, "shape has an absurd dimension " + dim.text);
    h.shape.push_back(static_cast<int64_t>(dim.magnitude));
  }
  int longAxes = 0;
  for (int64_t d : h.shape)
    longAxes += d > 1 ? 1 : 0;
  if (h.fortranOrder && longAxes > 1)
    fail(name, "Fortran-order array of shape " + pythonTuple(h.shape) +
                   " is not supported; save it in C order (np.ascontiguousarray)");
  return h;
}

} // namespace

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

NpyArray parseNpy(std::string_view data, const std::string &name) {
  if (data.size() < kMagic.size() || data.substr(0, kMagic.size()) != kMagic)
    fail(name, "not a .npy file (bad magic string; expected \\x93NUMPY)");
  if (data.size() < 8)
    fail(name, "truncated: the file ends inside the format version");
  const int major = static_cast<unsigned char>(data[6]);
  const int minor = static_cast<unsigned char>(data[7]);
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (supported: 1.0, 2.0, 3.0)");
  const size_t lengthBytes = major == 1 ? 2 : 4;
  const size_t preamble = 8 + lengthBytes;
  if (data.size() < preamble)
    fail(name, "truncated: the file ends inside the header length");
  const size_t headerLength = readLittleEndian(data.substr(8, lengthBytes));
  if (headerLength > kMaxHeaderBytes)
    fail(name, "header length " + std::to_string(headerLength) + " is absurd (more than " +
                   std::to_string(kMaxHeaderBytes) + " bytes)");
  if (data.size() - preamble < headerLength)
    fail(name, "truncated header: it should be " + std::to_string(headerLength) + " bytes, the file holds " +
                   std::to_string(data.size() - preamble) + " after the preamble");
  const std::string_view headerText = data.substr(preamble, headerLength);
  const Header header = interpretHeader(HeaderParser(headerText, name).parseTop(), name);

  // Element count and byte size, with overflow checks, against what the file holds.
  const auto elementBytes = static_cast<uint64_t>(byteSize(header.dtype));
  const uint64_t available = data.size() - preamble - headerLength;
  uint64_t count = 1;
  bool tooBig = false;
  bool hasZero = false;
  for (int64_t d : header.shape) {
    hasZero = hasZero || d == 0;
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d))
      tooBig = true;
    else
      count *= static_cast<uint64_t>(d);
  }
  if (hasZero) {
    count = 0;
    tooBig = false;
  }
  if (tooBig || count > std::numeric_limits<uint64_t>::max() / elementBytes)
    fail(name, "shape " + pythonTuple(header.shape) + " is absurd: its size overflows 64 bits");
  const uint64_t needed = count * elementBytes;
  if (needed > available)
    fail(name, "data is truncated: shape " + pythonTuple(header.shape) + " of " +
                   std::string(numpyDescriptor(header.dtype)) + " needs " + std::to_string(needed) +
                   " bytes, the file holds " + std::to_string(available));
  if (needed < available)
    fail(name, "the file has " + std::to_string(available - needed) + " bytes after the data that shape " +
                   pythonTuple(header.shape) + " of " + std::string(numpyDescriptor(header.dtype)) +
                   " describes");

  NpyArray array;
  array.dtype = header.dtype;
  array.shape = header.shape;
  const std::string_view payload = data.substr(preamble + headerLength);
  array.bytes.assign(payload.begin(), payload.end());
  if (array.dtype == DType::Bool)
    for (uint8_t &b : array.bytes)
      b = b != 0 ? 1 : 0;
  return array;
}

NpyArray readNpy(const std::string &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    fail(path, "is a directory, not a .npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path, "cannot open the file");
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad())
    fail(path, "cannot read the file");
  return parseNpy(contents.str(), path);
}

std::string encodeNpy(const NpyArray &array) {
  uint64_t count = 1;
  for (int64_t d : array.shape) {
    if (d < 0)
      throw InputError("cannot encode an array with a negative dimension " + std::to_string(d));
    count *= static_cast<uint64_t>(d);
  }
  if (count * static_cast<uint64_t>(byteSize(array.dtype)) != array.bytes.size())
    throw InputError("cannot encode an array of shape " + pythonTuple(array.shape) + " and dtype " +
                     std::string(numpyDescriptor(array.dtype)) + " from " +
                     std::to_string(array.bytes.size()) + " bytes");
  std::string dict = "{'descr': '" + std::string(numpyDescriptor(array.dtype)) +
                     "', 'fortran_order': False, 'shape': " + pythonTuple(array.shape) + ", }";
  // Version 1.0 has a 2-byte header length; longer headers need 2.0.
  bool version2 = false;
  size_t preamble = 10;
  size_t total = preamble + dict.size() + 1;
  size_t padded = (total + kAlignment - 1) / kAlignment * kAlignment;
  if (padded - preamble > 0xffff) {
    version2 = true;
    preamble = 12;
    total = preamble + dict.size() + 1;
    padded = (total + kAlignment - 1) / kAlignment * kAlignment;
  }
  const size_t headerLength = padded - preamble;
  std::string out(kMagic);
  out += static_cast<char>(version2 ? 2 : 1);
  out += '\0';
  for (size_t i = 0; i < (version2 ? 4u : 2u); ++i)
    out += static_cast<char>((headerLength >> (8 * i)) & 0xff);
  out += dict;
  out.append(headerLength - dict.size() - 1, ' ');
  out += '\n';
  out.append(reinterpret_cast<const char *>(array.bytes.data()), array.bytes.size());
  return out;
}

void writeNpy(const std::string &path, const NpyArray &array) {
  writeFileAtomically(path, encodeNpy(array), path);
}

} // namespace npusim::core
