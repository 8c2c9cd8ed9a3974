#pragma once
// Text files npusim reads (configurations, sweep files, scenarios): a regular
// file of bounded size, in UTF-8. Each error names the file and, for a bad
// byte, its line.
#include <cstddef>
#include <string>
#include <string_view>

namespace npusim::core {

/// Input text files are at most this large: more than any configuration,
/// sweep or scenario needs, little enough to parse in a fraction of a second.
inline constexpr size_t kMaxTextFileBytes = size_t{1} << 20;

/// The content of the file at `path`. Throws InputError "PATH: cannot read the
/// WHAT: REASON" for a missing or unreadable file, "PATH: is a directory, not
/// a WHAT" and "PATH: the WHAT is N bytes, more than the limit of M". `what`:
/// "configuration file", "sweep file", ...
std::string readTextFile(const std::string &path, const std::string &what,
                         size_t maxBytes = kMaxTextFileBytes);

/// Throws InputError "FILE:LINE: invalid UTF-8 (byte 0xNN at column C)" for
/// the first byte of `text` that is not part of a well-formed UTF-8 sequence
/// (overlong forms, surrogates and code points past U+10FFFF included).
void checkUtf8(std::string_view text, const std::string &file);

/// checkUtf8, then throws InputError "FILE:LINE: character U+NNNN at column
/// C is a control character, which YAML text may not hold" for the first
/// character outside YAML 1.2's printable set (tab, line feed and carriage
/// return are allowed; NUL, the other C0 and C1 controls, DEL and U+FFFE/FFFF
/// are not). yaml-cpp ends a scalar at a NUL, so such text would load as
/// something other than what it says.
void checkYamlCharacters(std::string_view text, const std::string &file);

/// Whether `text` is well-formed UTF-8.
bool isValidUtf8(std::string_view text);

} // namespace npusim::core
