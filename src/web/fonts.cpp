#include "web/fonts.h"

#include <imgui.h>

namespace fl::web {

namespace {

constexpr float kFontSizeCss = 15.0f;

// Latin, combining marks (x̂), Greek, punctuation, arrows, maths, CJK punctuation, CJK ideographs
// and full-width forms: only glyphs present in the subset are baked.
const ImWchar kRanges[] = {
    0x0020, 0x00FF, 0x0300, 0x03FF, 0x2000, 0x22FF, 0x3000, 0x30FF, 0x4E00, 0x9FFF, 0xFF00, 0xFFEF, 0,
};

}  // namespace

ImFont* g_mono = nullptr;

ImFont* MonoFont() { return g_mono; }

bool Fonts::Update(float pixel_ratio) {
  if (pixel_ratio == pixel_ratio_) return false;
  pixel_ratio_ = pixel_ratio;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.OversampleH = 1;  // baked at device resolution already
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  if (bytes_.empty()) {
    cfg.SizePixels = 13.0f * pixel_ratio;
    io.Fonts->AddFontDefault(&cfg);
  } else {
    cfg.FontDataOwnedByAtlas = false;  // bytes_ outlives the atlas and is reused on rebuilds
    io.Fonts->AddFontFromMemoryTTF(bytes_.data(), static_cast<int>(bytes_.size()), kFontSizeCss * pixel_ratio, &cfg,
                                   kRanges);
  }
  // A monospace font for the pseudo-kernels: ImGui's own (ProggyClean, Latin).
  ImFontConfig mono;
  mono.SizePixels = 13.0f * pixel_ratio;
  mono.OversampleH = 1;
  mono.OversampleV = 1;
  mono.PixelSnapH = true;
  g_mono = io.Fonts->AddFontDefault(&mono);
  io.Fonts->Build();
  io.FontGlobalScale = 1.0f / pixel_ratio;
  return true;
}

}  // namespace fl::web
