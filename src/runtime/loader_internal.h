#pragma once
// Pieces of the bundle loader shared by its files (internal to the runtime module).
#include "runtime/bundle.h"
#include "runtime/json_node.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace npusim::runtime::detail {

/// The most bytes one storage may have (1 TiB): a bound that keeps a corrupt
/// element count from overflowing, not a promise that it fits in memory.
inline constexpr int64_t kMaxStorageBytes = int64_t{1} << 40;

/// {"storage", "offset", "shape", "stride"}, with the view checked to lie inside its storage.
TensorRef parseTensorRef(const json::Node &node, const std::vector<Storage> &storages);

/// A fingerprint object. `targetKey` is "arg" or "out" (null for a model
/// output, which has neither); `viewOf(target)` gives the tensor it describes
/// (null when that argument is not a tensor).
Fingerprint parseFingerprint(const json::Node &node, const char *targetKey, int64_t targetCount,
                             const std::function<const TensorRef *(int64_t)> &viewOf,
                             const std::vector<Storage> &storages);

/// One entry of "steps"; parses (and keeps in bundle.kernels) the kernel file a launch names.
Step parseStep(const json::Node &node, Bundle &bundle);
/// Throws core::InputError listing every call step whose operator has no host
/// implementation, with its step numbers ("aten.histc (steps 3, 9)").
void checkCallsImplemented(const Bundle &bundle);

std::string readFile(const std::filesystem::path &path, const std::string &what);
/// A file name without directories ("triton_poi_fused_relu_0").
bool isPlainFileName(const std::string &name);

} // namespace npusim::runtime::detail
