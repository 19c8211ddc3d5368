// The UI font: Noto Sans CJK SC, subset at build time to the characters the
// page uses, rasterized at the screen's pixel density so text stays crisp.
#pragma once

#include <vector>

struct ImFont;

namespace fl::web {

// ImGui's monospace font (Latin only), for code; nullptr before the first frame.
ImFont* MonoFont();

class Fonts {
 public:
  // `bytes`: the subset font (OpenType); empty falls back to ImGui's own font.
  explicit Fonts(std::vector<unsigned char> bytes) : bytes_(std::move(bytes)) {}

  // Rebuilds the atlas when the pixel ratio changed (first frame, zoom, moving
  // to another screen); true if it did, and the GPU texture must be remade.
  bool Update(float pixel_ratio);

 private:
  std::vector<unsigned char> bytes_;
  float pixel_ratio_ = 0;
};

}  // namespace fl::web
