#include "page/field_labels.h"

#include <vector>

#include "core/config_keys.h"

namespace fl::web {

const char* FieldLabel(std::string_view key, Lang lang) {
  const ConfigKey* k = find_config_key(key);
  return k && k->on_sidebar() ? tr(k->label, lang).data() : nullptr;
}

const char* FieldHelp(std::string_view key, Lang lang) {
  const ConfigKey* k = find_config_key(key);
  return k && k->on_sidebar() ? tr(k->help, lang).data() : nullptr;
}

std::string LabelledMessage(Text text, const std::vector<std::string>& args, std::string_view typed, Lang lang) {
  std::vector<std::string> named = args;
  for (std::string& a : named) {
    if (a == typed) continue;
    if (const char* label = FieldLabel(a, lang)) a = "“" + std::string(label) + "”";
  }
  return format(tr(text, lang), named);
}

}  // namespace fl::web
