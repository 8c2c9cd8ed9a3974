#include "outputs.h"

#include "core/output_file.h"

#include <exception>
#include <ostream>

namespace npusim::cli {

std::string traceCapNote(const std::string &path, int64_t kept, int64_t dropped) {
  return "--trace " + path + ": kept the first " + std::to_string(kept) +
         " instruction events and left out " + std::to_string(dropped) +
         " (counted in otherData.droppedInstructionEvents; the launch track is whole, and so is "
         "the DRAM track unless otherData.droppedBandwidthSamples says otherwise)";
}

void OutputFiles::add(const ParsedOptions &options, const std::string &option) {
  if (const std::optional<std::string> path = options.get(option))
    outputs_.push_back({option, *path});
}

void OutputFiles::addPath(const std::string &what, const std::string &path) {
  outputs_.push_back({what, path});
}

bool OutputFiles::check(const std::string &prefix, std::ostream &err) const {
  bool ok = true;
  for (const Output &o : outputs_) {
    try {
      core::checkOutputPath(o.path, o.path.empty() ? o.what : o.what + " " + o.path);
    } catch (const std::exception &e) {
      err << prefix << ": error: " << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

std::string OutputFiles::path(const std::string &option) const {
  for (const Output &o : outputs_)
    if (o.what == option)
      return o.path;
  return "";
}

void OutputFiles::write(const std::string &option, const std::function<void(const std::string &path)> &write,
                        const std::string &prefix, std::ostream &err) {
  const std::string target = path(option);
  if (target.empty())
    return;
  try {
    write(target);
  } catch (const std::exception &e) {
    err << prefix << ": error: " << e.what() << "\n";
    failed_ = true;
  }
}

} // namespace npusim::cli
