#pragma once
// A JSON value with its path, for the bundle loader (internal to the runtime
// module; the JSON library stays out of the public headers). Every accessor
// checks the type and throws core::InputError "FILE: PATH: message".
#include "core/error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace npusim::runtime::json {

using Json = nlohmann::json;

class Node {
public:
  Node(const Json &value, std::string path, const std::string &file)
      : value_(&value), path_(std::move(path)), file_(&file) {}

  const Json &raw() const { return *value_; }
  const std::string &path() const { return path_; }
  const std::string &file() const { return *file_; }

  [[noreturn]] void fail(const std::string &message) const {
    throw core::InputError(*file_ + ": " + (path_.empty() ? std::string("(top level)") : path_) + ": " +
                           message);
  }

  bool isNull() const { return value_->is_null(); }
  bool isObject() const { return value_->is_object(); }
  bool isArray() const { return value_->is_array(); }

  /// The object's member `key`, which must be present.
  Node at(std::string_view key) const {
    expectObject();
    auto it = value_->find(key);
    if (it == value_->end())
      fail("missing key '" + std::string(key) + "'");
    return Node(*it, child(key), *file_);
  }
  /// The member when present.
  std::optional<Node> find(std::string_view key) const {
    expectObject();
    auto it = value_->find(key);
    if (it == value_->end())
      return std::nullopt;
    return Node(*it, child(key), *file_);
  }
  /// Rejects members other than `allowed` (unknown keys are errors in version 1).
  void allowKeys(std::initializer_list<std::string_view> allowed) const {
    expectObject();
    for (auto it = value_->begin(); it != value_->end(); ++it) {
      bool known = false;
      for (std::string_view a : allowed)
        known = known || it.key() == a;
      if (!known)
        Node(it.value(), child(it.key()), *file_)
            .fail("unknown key '" + it.key() + "' (a version 1 reader accepts no unknown keys)");
    }
  }

  size_t size() const {
    expectArray();
    return value_->size();
  }
  Node operator[](size_t i) const {
    expectArray();
    return Node((*value_)[i], path_ + "[" + std::to_string(i) + "]", *file_);
  }

  void expectObject() const {
    if (!value_->is_object())
      fail("expected an object, got " + describe());
  }
  void expectArray() const {
    if (!value_->is_array())
      fail("expected an array, got " + describe());
  }

  bool isInteger() const { return value_->is_number_integer(); }
  int64_t integer() const {
    if (value_->is_number_unsigned()) {
      const uint64_t u = value_->get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        fail("integer " + std::to_string(u) + " is out of range");
      return static_cast<int64_t>(u);
    }
    if (!value_->is_number_integer())
      fail("expected an integer, got " + describe());
    return value_->get<int64_t>();
  }
  uint64_t unsignedInteger() const {
    if (value_->is_number_unsigned())
      return value_->get<uint64_t>();
    if (value_->is_number_integer())
      fail("expected a non-negative integer, got " + value_->dump());
    fail("expected a non-negative integer, got " + describe());
  }
  int64_t integerAtLeast(int64_t minimum) const {
    const int64_t v = integer();
    if (v < minimum)
      fail("expected an integer >= " + std::to_string(minimum) + ", got " + std::to_string(v));
    return v;
  }
  /// A float: a JSON number, or "nan", "inf", "-inf".
  bool isFloat() const {
    if (value_->is_number())
      return true;
    if (value_->is_string()) {
      const auto &s = value_->get_ref<const std::string &>();
      return s == "nan" || s == "inf" || s == "-inf";
    }
    return false;
  }
  double number() const {
    if (value_->is_number())
      return value_->get<double>();
    if (value_->is_string()) {
      const auto &s = value_->get_ref<const std::string &>();
      if (s == "nan")
        return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf")
        return std::numeric_limits<double>::infinity();
      if (s == "-inf")
        return -std::numeric_limits<double>::infinity();
    }
    fail("expected a number (or \"nan\", \"inf\", \"-inf\"), got " + describe());
  }
  bool boolean() const {
    if (!value_->is_boolean())
      fail("expected true or false, got " + describe());
    return value_->get<bool>();
  }
  const std::string &string() const {
    if (!value_->is_string())
      fail("expected a string, got " + describe());
    return value_->get_ref<const std::string &>();
  }

  std::string describe() const {
    switch (value_->type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "the string " + value_->dump();
    case Json::value_t::boolean: return value_->get<bool>() ? "true" : "false";
    case Json::value_t::number_float: return "the number " + value_->dump();
    default: return "the number " + value_->dump();
    }
  }

private:
  std::string child(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  const Json *value_;
  std::string path_;
  const std::string *file_;
};

} // namespace npusim::runtime::json
