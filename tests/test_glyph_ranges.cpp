// The page's font atlas (src/web/glyph_ranges.cpp): every string the page
// shows in a language can be drawn with the glyphs baked for that language.
#include <catch2/catch.hpp>

#include <string>

#include "core/i18n.h"
#include "core/utf8.h"
#include "page/glyph_ranges.h"
#include "page/page_text.h"

using namespace fl;
using namespace fl::web;

namespace {

// The first character of `text` that a page in `lang` cannot draw, as "U+XXXX in <text>"; empty if none.
std::string first_unbaked(Lang lang, std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const char32_t c = next_code_point(text, i);
    if (!Baked(lang, c)) return "U+" + std::to_string(static_cast<unsigned>(c)) + " in " + std::string(text);
  }
  return "";
}

}  // namespace

TEST_CASE("every string of the page and the core is drawn with the glyphs baked for its language", "[page][fonts]") {
  for (Lang lang : {Lang::Zh, Lang::En}) {
    for (int id = 0; id < static_cast<int>(Text::Count); ++id) {
      INFO("core text " << id << " in " << lang_key(lang));
      CHECK(first_unbaked(lang, tr(static_cast<Text>(id), lang)) == "");
    }
    for (int id = 0; id < static_cast<int>(Ui::Count); ++id) {
      INFO("page text " << id << " in " << lang_key(lang));
      CHECK(first_unbaked(lang, tr(static_cast<Ui>(id), lang)) == "");
    }
  }
}

TEST_CASE("an English page bakes no Chinese glyph but its language switch's", "[page][fonts]") {
  CHECK(Baked(Lang::Zh, U'融'));
  CHECK_FALSE(Baked(Lang::En, U'融'));
  CHECK(Baked(Lang::En, U'中'));  // "中文", the switch to Chinese
  CHECK(Baked(Lang::En, U'µ'));
  CHECK(Baked(Lang::En, U'≤'));
  CHECK(BakedGlyphs(Lang::En).size() < BakedGlyphs(Lang::Zh).size() + 3);
}
