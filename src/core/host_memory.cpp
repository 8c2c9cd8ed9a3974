#include "core/host_memory.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace npusim::core {

uint64_t hostMemoryBytes() {
  uint64_t bytes = UINT64_MAX;
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min<uint64_t>(bytes, limit.rlim_cur);
  // cgroup v2: "max" or a number of bytes.
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::string text;
  if (cgroup >> text && text != "max") {
    try {
      bytes = std::min<uint64_t>(bytes, std::stoull(text));
    } catch (const std::exception &) {
    }
  }
  return bytes;
}

std::string bytesText(uint64_t bytes) {
  char text[32];
  if (bytes >= (uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / double(uint64_t{1} << 30));
  else
    std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / double(uint64_t{1} << 20));
  return text;
}

} // namespace npusim::core
