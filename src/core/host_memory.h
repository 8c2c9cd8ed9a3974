#pragma once
// How much memory this process may use, for checks made before a large
// allocation (an error naming the input that asks for it, instead of an
// out-of-memory kill or std::bad_alloc after minutes of work).
#include <cstdint>
#include <string>

namespace npusim::core {

/// The least of the machine's physical memory, the address-space limit
/// (ulimit -v) and the cgroup's memory.max, in bytes.
uint64_t hostMemoryBytes();

/// "12.3 GiB", "512 MiB".
std::string bytesText(uint64_t bytes);

} // namespace npusim::core
