#include "core/text_input.h"

#include "core/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace npusim::core {

namespace {

/// The length of the well-formed UTF-8 sequence at text[at], or 0 (RFC 3629's table).
size_t sequenceLength(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b0 = byte(at);
  if (b0 < 0x80)
    return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF; // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF)
    length = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0)
      low = 0xA0; // no overlong forms
    if (b0 == 0xED)
      high = 0x9F; // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0)
      low = 0x90;
    if (b0 == 0xF4)
      high = 0x8F; // nothing past U+10FFFF
  } else
    return 0;
  if (at + length > text.size())
    return 0;
  if (byte(at + 1) < low || byte(at + 1) > high)
    return 0;
  for (size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF)
      return 0;
  return length;
}

/// The offset of the first byte that starts no well-formed sequence, or npos.
size_t firstInvalid(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const size_t n = sequenceLength(text, at);
    if (n == 0)
      return at;
    at += n;
  }
  return std::string_view::npos;
}

/// "FILE:LINE" and the column (from 1) of the byte at `at`.
std::pair<std::string, size_t> lineAndColumn(std::string_view text, size_t at, const std::string &file) {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  return {file + ":" + std::to_string(line), at - lineStart + 1};
}

/// The code point of the well-formed sequence of `length` bytes at text[at].
char32_t codePoint(std::string_view text, size_t at, size_t length) {
  const auto byte = [&](size_t i) { return static_cast<char32_t>(static_cast<unsigned char>(text[at + i])); };
  if (length == 1)
    return byte(0);
  char32_t value = byte(0) & (0x7Fu >> length);
  for (size_t i = 1; i < length; ++i)
    value = (value << 6) | (byte(i) & 0x3Fu);
  return value;
}

/// YAML 1.2's c-printable (section 5.1): tab, line feed, carriage return and
/// the printable characters; the C0 and C1 controls (but NEL), DEL, the
/// surrogates and U+FFFE/U+FFFF are not.
bool isYamlPrintable(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
         (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

} // namespace

bool isValidUtf8(std::string_view text) {
  return firstInvalid(text) == std::string_view::npos;
}

void checkUtf8(std::string_view text, const std::string &file) {
  const size_t bad = firstInvalid(text);
  if (bad == std::string_view::npos)
    return;
  const auto [where, column] = lineAndColumn(text, bad, file);
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
  throw InputError(where + ": invalid UTF-8 (byte " + byte + " at column " + std::to_string(column) +
                   "); the file must be UTF-8 text");
}

void checkYamlCharacters(std::string_view text, const std::string &file) {
  checkUtf8(text, file);
  for (size_t at = 0; at < text.size();) {
    const size_t length = sequenceLength(text, at);
    const char32_t c = codePoint(text, at, length);
    if (!isYamlPrintable(c)) {
      const auto [where, column] = lineAndColumn(text, at, file);
      char name[16];
      std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(c));
      throw InputError(where + ": character " + name + " at column " + std::to_string(column) +
                       " is a control character, which YAML text may not hold");
    }
    at += length;
  }
}

std::string readTextFile(const std::string &path, const std::string &what, size_t maxBytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw InputError(path + ": cannot read the " + what + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    throw InputError(path + ": cannot read the " + what + ": " + std::strerror(errno));
  if (S_ISDIR(status.st_mode))
    throw InputError(path + ": is a directory, not a " + what);
  // Regular files are checked by size first; others (a pipe) while reading.
  const auto limitError = [&](size_t bytes, bool atLeast) {
    return InputError(path + ": the " + what + " is " + (atLeast ? "over " : "") + std::to_string(bytes) +
                      " bytes, more than the limit of " + std::to_string(maxBytes));
  };
  if (S_ISREG(status.st_mode) && static_cast<size_t>(status.st_size) > maxBytes)
    throw limitError(static_cast<size_t>(status.st_size), false);
  std::string text;
  char chunk[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      throw InputError(path + ": cannot read the " + what + ": " + std::strerror(errno));
    if (n == 0)
      break;
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > maxBytes)
      throw limitError(maxBytes, true);
  }
  return text;
}

} // namespace npusim::core
