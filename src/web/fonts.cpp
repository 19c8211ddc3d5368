#include "web/fonts.h"

#include <imgui.h>

#include "page/glyph_ranges.h"

namespace fl::web {

namespace {

constexpr float kFontSizeCss = 15.0f;

}  // namespace

// The atlas's fonts, in the order Update adds them: the page's, then the monospace one.
constexpr int kMonoFontIndex = 1;

ImFont* MonoFont() {
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return atlas->Fonts.Size > kMonoFontIndex ? atlas->Fonts[kMonoFontIndex] : nullptr;
}

bool Fonts::Update(float pixel_ratio, Lang lang) {
  if (pixel_ratio == pixel_ratio_ && lang == lang_) return false;
  pixel_ratio_ = pixel_ratio;
  lang_ = lang;
  // Only glyphs present in the subset are baked; ImGui keeps a pointer to the ranges.
  ranges_.clear();
  for (const auto& [first, last] : BakedGlyphs(lang)) {
    ranges_.push_back(static_cast<ImWchar>(first));
    ranges_.push_back(static_cast<ImWchar>(last));
  }
  ranges_.push_back(0);
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
                                   ranges_.data());
  }
  // A monospace font for the pseudo-kernels: ImGui's own (ProggyClean, Latin).
  ImFontConfig mono;
  mono.SizePixels = 13.0f * pixel_ratio;
  mono.OversampleH = 1;
  mono.OversampleV = 1;
  mono.PixelSnapH = true;
  io.Fonts->AddFontDefault(&mono);
  io.Fonts->Build();
  io.FontGlobalScale = 1.0f / pixel_ratio;
  return true;
}

}  // namespace fl::web
