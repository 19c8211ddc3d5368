// Every user-visible string, in Chinese (the lecture's language) and English.
//
// The core's table is one X-macro list, core/text.inc: the CLI, demos,
// observations and the configuration keys' labels. The page's own strings
// are its table (page/page_text.h). Strings may hold {0}, {1}, ...
// placeholders, filled by format().
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fl {

enum class Lang { Zh, En };
inline constexpr Lang kLangs[] = {Lang::Zh, Lang::En};

// The language as URLs, the CLI and <html lang> spell it.
constexpr std::string_view lang_key(Lang lang) { return lang == Lang::Zh ? "zh" : "en"; }

enum class Text {
#define FL_TEXT(id, zh, en) id,
#include "core/text.inc"
#undef FL_TEXT
  Count
};

std::string_view tr(Text id, Lang lang);

// One row of a string table (this one, the page's): the string in each language.
struct Bilingual {
  std::string_view zh, en;
  constexpr std::string_view in(Lang lang) const { return lang == Lang::Zh ? zh : en; }
};

// Replaces {0}, {1}, ... in `pattern` with args.
std::string format(std::string_view pattern, const std::vector<std::string>& args);
inline std::string tr(Text id, Lang lang, const std::vector<std::string>& args) { return format(tr(id, lang), args); }

// Items as a list in a sentence: "a, b and c", "a、b、c".
std::string list_text(const std::vector<std::string>& items, Lang lang);

}  // namespace fl
