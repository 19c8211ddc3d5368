// The sidebar's label of each configuration key (declared with the key in
// core/config_keys.cpp): the inputs show it, and error messages name a field
// by it rather than by its key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/i18n.h"

namespace fl::web {

// The label on screen for `key` ("kv_heads" -> "G: KV heads (GQA)"), or
// nullptr for a key the sidebar does not show.
const char* FieldLabel(std::string_view key, Lang lang);
// What the field means, for the label's tooltip; nullptr for an unknown key.
const char* FieldHelp(std::string_view key, Lang lang);

// A refused configuration's message with every field it names given by its
// label; `typed` (the value the user entered) is never taken for a field.
std::string LabelledMessage(Text text, const std::vector<std::string>& args, std::string_view typed, Lang lang);

}  // namespace fl::web
