// The UI font: Noto Sans CJK SC, subset at build time to the characters the
// page uses, rasterized at the screen's pixel density so text stays crisp.
#pragma once

#include <vector>

#include "core/i18n.h"

struct ImFont;

namespace fl::web {

// ImGui's monospace font (Latin only), for code; nullptr before the first frame.
ImFont* MonoFont();

class Fonts {
 public:
  // `bytes`: the subset font (OpenType); empty falls back to ImGui's own font.
  explicit Fonts(std::vector<unsigned char> bytes) : bytes_(std::move(bytes)) {}

  // Rebuilds the atlas when the pixel ratio (first frame, zoom, moving to
  // another screen) or the language changed (the glyphs it bakes:
  // glyph_ranges.h); true if it did, and the GPU texture must be remade.
  bool Update(float pixel_ratio, Lang lang);

 private:
  std::vector<unsigned char> bytes_;
  std::vector<unsigned short> ranges_;  // ImWchar pairs, 0-terminated
  float pixel_ratio_ = 0;
  Lang lang_ = Lang::Zh;
};

}  // namespace fl::web
