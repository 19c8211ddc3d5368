#include "page/glyph_ranges.h"

#include <algorithm>
#include <iterator>

#include "core/utf8.h"
#include "page/page_text.h"

namespace fl::web {

std::vector<GlyphRange> BakedGlyphs(Lang lang) {
  std::vector<GlyphRange> ranges(std::begin(kSharedGlyphs), std::end(kSharedGlyphs));
  if (lang == Lang::Zh) {
    ranges.insert(ranges.end(), std::begin(kChineseGlyphs), std::end(kChineseGlyphs));
    return ranges;
  }
  const std::string_view label = tr(Ui::Language, lang);  // the switch to Chinese, in Chinese
  for (size_t i = 0; i < label.size();) {
    const char32_t c = next_code_point(label, i);
    ranges.emplace_back(c, c);
  }
  return ranges;
}

bool Baked(Lang lang, char32_t c) {
  const auto ranges = BakedGlyphs(lang);
  return std::any_of(ranges.begin(), ranges.end(), [c](const GlyphRange& r) { return r.first <= c && c <= r.second; });
}

}  // namespace fl::web
