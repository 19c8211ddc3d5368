// Reading UTF-8 text one code point at a time (display widths, font glyphs).
#pragma once

#include <string_view>

namespace fl {

// Decodes the code point starting at s[i] and advances i past it. Malformed
// input yields some code point and still advances, so a loop always ends.
inline char32_t next_code_point(std::string_view s, size_t& i) {
  const unsigned char c = static_cast<unsigned char>(s[i++]);
  const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  char32_t cp = extra ? c & (0x3F >> extra) : c;
  for (int k = 0; k < extra && i < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

}  // namespace fl
