// The DRAM address mapping string (docs/dram.md, "Address mapping"): read once
// here for the key table's check and for the mapper that decodes addresses.
#include "config/hardware.h"

namespace npusim::config {

std::vector<AddressField> parseAddressMapping(std::string_view mapping, std::string *why) {
  auto fail = [&](std::string reason) {
    if (why)
      *why = std::move(reason);
    return std::vector<AddressField>{};
  };
  if (mapping.size() % 2 != 0 || mapping.size() < 10 || mapping.size() > 12)
    return fail("must order Ro, Ba, Ra, Co and Ch, each once, optionally with a separate Bg (e.g. RoBaRaCoCh)");
  struct Token {
    std::string_view name;
    AddressField field;
  };
  static constexpr Token kTokens[] = {{"Ro", AddressField::Row},     {"Ba", AddressField::Bank},
                                      {"Bg", AddressField::BankGroup}, {"Ra", AddressField::Rank},
                                      {"Co", AddressField::Column},  {"Ch", AddressField::Channel}};
  std::vector<AddressField> fields;
  bool seen[6] = {};
  for (size_t at = 0; at < mapping.size(); at += 2) {
    const std::string_view token = mapping.substr(at, 2);
    const Token *match = nullptr;
    for (const Token &t : kTokens)
      if (t.name == token)
        match = &t;
    if (!match)
      return fail("unknown field '" + std::string(token) + "': the fields are Ro, Ba, Bg, Ra, Co, Ch");
    const auto index = static_cast<size_t>(match->field);
    if (seen[index])
      return fail("field '" + std::string(token) + "' appears twice: Ro, Ba, Ra, Co and Ch each once");
    seen[index] = true;
    fields.push_back(match->field);
  }
  for (AddressField required :
       {AddressField::Row, AddressField::Bank, AddressField::Rank, AddressField::Column, AddressField::Channel})
    if (!seen[static_cast<size_t>(required)])
      return fail("must order Ro, Ba, Ra, Co and Ch, each once (e.g. RoBaRaCoCh)");
  return fields;
}

} // namespace npusim::config
