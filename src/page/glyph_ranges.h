// The characters the page's font atlas bakes, by language.
//
// Baking the five hundred Chinese glyphs of the subset font takes most of the
// atlas's time when the page starts; an English page shows none of them but
// its language switch's label ("中文"), so it bakes only that and the ranges
// both languages share.
#pragma once

#include <utility>
#include <vector>

#include "core/i18n.h"

namespace fl::web {

using GlyphRange = std::pair<char32_t, char32_t>;  // first and last code point

// Latin, combining marks (x̂), Greek, punctuation, arrows, maths, technical signs (⌘).
inline constexpr GlyphRange kSharedGlyphs[] = {{0x0020, 0x00FF}, {0x0300, 0x03FF}, {0x2000, 0x23FF}};
// CJK punctuation, ideographs and full-width forms.
inline constexpr GlyphRange kChineseGlyphs[] = {{0x3000, 0x30FF}, {0x4E00, 0x9FFF}, {0xFF00, 0xFFEF}};

// The ranges a page in `lang` bakes (single characters as one-element ranges).
std::vector<GlyphRange> BakedGlyphs(Lang lang);

// Whether a page in `lang` can draw `c`.
bool Baked(Lang lang, char32_t c);

}  // namespace fl::web
