// The page's own strings in Chinese and English: its controls, captions,
// column headers and notes (page/page_text.inc). What the core computes is
// said by the core's table (core/i18n.h), which includes nothing of the page.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/i18n.h"

namespace fl {

enum class Ui {
#define FL_TEXT(id, zh, en) id,
#include "page/page_text.inc"
#undef FL_TEXT
  Count
};

std::string_view tr(Ui id, Lang lang);
inline std::string tr(Ui id, Lang lang, const std::vector<std::string>& args) { return format(tr(id, lang), args); }

}  // namespace fl
