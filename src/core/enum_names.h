// Enums shown to users by name (CLI values, URL keys, JSON): the enumerator
// named `key`, and the list of names for an error message, from one array of
// enumerators and one naming function.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

template <class E, size_t N, class NameOf>
std::optional<E> enum_named(const E (&all)[N], NameOf name_of, std::string_view key) {
  for (E e : all)
    if (name_of(e) == key) return e;
  return std::nullopt;
}

// "a, b, c": every enumerator's name, in order.
template <class E, size_t N, class NameOf>
std::string enum_names(const E (&all)[N], NameOf name_of) {
  std::string out;
  for (E e : all) out.append(out.empty() ? "" : ", ").append(name_of(e));
  return out;
}

// Every enumerator's name, in order, one string each.
template <class E, size_t N, class NameOf>
std::vector<std::string> enum_name_list(const E (&all)[N], NameOf name_of) {
  std::vector<std::string> out;
  for (E e : all) out.emplace_back(name_of(e));
  return out;
}

}  // namespace fl
