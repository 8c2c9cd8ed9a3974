#pragma once
// Interchangeable parts chosen by name: DRAM models, DRAM schedulers and NoC
// models (timing), mapping strategies (library), request streams, placements
// and scheduling policies (serving). Each implementation registers a factory
// under its name in one line next to its definition, at namespace scope of
// its .cpp:
//
//   const bool kRegistered = DramModels::add<MyDram>("my_dram");
//
// The table is a function-local static filled during static initialisation
// and only read afterwards (the modules with registrations are linked whole,
// CMakeLists.txt).
#include "core/error.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::core {

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
  /// A name registered twice throws core::InputError.
  static bool addFactory(std::string_view name, Factory factory) {
    if (!table().emplace(std::string(name), factory).second)
      throw InputError("two implementations registered as '" + std::string(name) + "'");
    return true;
  }
  /// Builds the implementation registered as `name`. An unknown name throws
  /// core::InputError "CHOOSER: 'NAME' is not registered (registered: A, B)",
  /// `chooser` saying what named it (a config key, a scenario line).
  static std::unique_ptr<Interface> make(std::string_view chooser, const std::string &name, Args... args) {
    const auto it = table().find(name);
    if (it == table().end())
      throw InputError(std::string(chooser) + ": '" + name +
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

} // namespace npusim::core
