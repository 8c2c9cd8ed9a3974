#pragma once
// Interchangeable parts of the timing simulator (DRAM models, DRAM schedulers,
// NoC models) are chosen by name in the hardware configuration. Each
// implementation registers a factory under its name in one line next to its
// definition, at namespace scope of its .cpp:
//
//   const bool kRegistered = DramModels::add<MyDram>("my_dram");
//
// The table is a function-local static filled during static initialisation and
// only read afterwards. The config module holds the name as a string; the
// timing module resolves it here.
#include "core/error.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::timing {

/// Factories of `Interface` implementations, each built from `Args...`.
template <class Interface, class... Args> class Registry {
public:
  using Factory = std::unique_ptr<Interface> (*)(Args...);

  /// Registers `Implementation`, constructed from `Args...`, under `name`.
  /// Returns true, so that the registration can initialise a namespace-scope constant.
  template <class Implementation> static bool add(std::string_view name) {
    return addFactory(name, [](Args... args) -> std::unique_ptr<Interface> {
      return std::make_unique<Implementation>(std::forward<Args>(args)...);
    });
  }
  static bool addFactory(std::string_view name, Factory factory) {
    if (!table().emplace(std::string(name), factory).second)
      throw core::InputError("timing: two implementations registered as '" + std::string(name) + "'");
    return true;
  }
  /// Builds the implementation registered as `name`. An unknown name throws
  /// core::InputError naming the config key that chose it and every registered name.
  static std::unique_ptr<Interface> make(std::string_view configKey, const std::string &name, Args... args) {
    const auto it = table().find(name);
    if (it == table().end())
      throw core::InputError("hardware config key '" + std::string(configKey) + "': '" + name +
                             "' is not registered (registered: " + namesText() + ")");
    return it->second(std::forward<Args>(args)...);
  }
  /// The registered names, sorted.
  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto &[name, factory] : table())
      out.push_back(name);
    return out;
  }

private:
  static std::map<std::string, Factory, std::less<>> &table() {
    static std::map<std::string, Factory, std::less<>> factories;
    return factories;
  }
  static std::string namesText() {
    std::string text;
    for (const std::string &name : names())
      text += (text.empty() ? "" : ", ") + name;
    return text;
  }
};

} // namespace npusim::timing
