#pragma once
// Interchangeable parts of the timing simulator (DRAM models, DRAM schedulers,
// NoC models) are chosen by name in the hardware configuration: a
// core::Registry each (core/registry.h), whose implementations register in
// one line next to their definitions,
//
//   const bool kRegistered = DramModels::add<MyDram>("my_dram");
//
// The config module holds the name as a string; the timing module resolves it here.
#include "core/registry.h"

namespace npusim::timing {

/// A core::Registry whose make names the hardware config key that chose the
/// implementation.
template <class Interface, class... Args> class Registry : public core::Registry<Interface, Args...> {
public:
  /// An unknown name throws core::InputError naming the config key and every registered name.
  static std::unique_ptr<Interface> make(std::string_view configKey, const std::string &name, Args... args) {
    return core::Registry<Interface, Args...>::make("hardware config key '" + std::string(configKey) + "'",
                                                    name, std::forward<Args>(args)...);
  }
};

} // namespace npusim::timing
