#include "core/i18n.h"

namespace fl {

namespace {
constexpr Bilingual kTable[] = {
#define FL_TEXT(id, zh, en) {zh, en},
#include "core/text.inc"
#undef FL_TEXT
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == static_cast<size_t>(Text::Count));
}  // namespace

std::string_view tr(Text id, Lang lang) {
  return kTable[static_cast<size_t>(id)].in(lang);
}

std::string list_text(const std::vector<std::string>& items, Lang lang) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out.append(i == 0 ? "" : lang == Lang::Zh ? "、" : i + 1 == items.size() ? tr(Text::ListAnd, lang) : ", ").append(items[i]);
  return out;
}

std::string format(std::string_view pattern, const std::vector<std::string>& args) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}' && pattern[i + 1] >= '0' &&
        pattern[i + 1] <= '9') {
      size_t k = static_cast<size_t>(pattern[i + 1] - '0');
      if (k < args.size()) out += args[k];
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace fl
