#include "web/export.h"

#include <GLES3/gl3.h>
#include <emscripten.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "web/explain.h"
#include "web/page_context.h"
#include "web/platform.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

EM_JS(void, js_save_text, (const char* name, const char* mime, const char* text, int length), {
  const bytes = HEAPU8.slice(text, text + length);
  window.fusionlab.saveBlob(UTF8ToString(name), new Blob([bytes], {type: UTF8ToString(mime)}));
});

EM_JS(void, js_save_pixels, (const char* name, const unsigned char* rgba, int width, int height, const char* title,
                             float scale, const char* background, const char* ink), {
  window.fusionlab.savePixels(UTF8ToString(name), width, height, HEAPU8.slice(rgba, rgba + width * height * 4),
                              {text: UTF8ToString(title), scale, background: UTF8ToString(background), ink: UTF8ToString(ink)});
});

// "rgb(r, g, b)" for the canvas 2D API.
std::string css_color(ImU32 c) {
  return "rgb(" + std::to_string(c >> IM_COL32_R_SHIFT & 0xFF) + ", " + std::to_string(c >> IM_COL32_G_SHIFT & 0xFF) + ", " +
         std::to_string(c >> IM_COL32_B_SHIFT & 0xFF) + ")";
}

// The link (embed 0) or the <iframe> snippet (1) to the clipboard, with the
// page's words for "copied" and for copying by hand when it is refused.
EM_JS(void, js_copy, (int embed, const char* copied, const char* by_hand, const char* close), {
  const said = {copied: UTF8ToString(copied), byHand: UTF8ToString(by_hand), close: UTF8ToString(close)};
  (embed ? window.fusionlab.copyEmbed : window.fusionlab.copyLink)(said);
});

using PendingPng = ExportState::PendingPng;

ExportState& exports() { return Page().exports; }

}  // namespace

void SaveText(const std::string& name, const std::string& mime, const std::string& text) {
  js_save_text(name.c_str(), mime.c_str(), text.data(), static_cast<int>(text.size()));
}

void RequestFigurePng(const std::string& name, const std::string& figure) {
  exports().pending_png = {name, figure};
  KeepDrawing();  // it is saved after the next frame is drawn
}

void RecordFigure(const std::string& name) {
  RecordWidget(name);
  if (!exports().pending_png || exports().pending_png->figure != name) return;
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowSize().y;
  exports().pending_png->in_view = min.y >= top && max.y <= bottom;
  if (!exports().pending_png->in_view) ImGui::SetScrollFromPosY(min.y - top - ImGui::GetStyle().ItemSpacing.y, 0.0f);
}

void SavePendingFigurePng() {
  if (!exports().pending_png) return;
  if (!exports().pending_png->in_view && exports().pending_png->frames_waited++ < 3) {  // scrolling into view
    KeepDrawing();
    return;
  }
  const PendingPng pending = std::move(*exports().pending_png);
  exports().pending_png.reset();
  const std::vector<float>* rect = RecordedWidget(pending.figure);
  if (!rect || rect->size() != 4) return;
  const std::vector<float>& r = *rect;  // CSS pixels: x, y, width, height
  const ImGuiIO& io = ImGui::GetIO();
  const float s = io.DisplayFramebufferScale.x, margin = 3;  // less than the item spacing
  const int fb_w = static_cast<int>(io.DisplaySize.x * s), fb_h = static_cast<int>(io.DisplaySize.y * s);
  auto px = [&](float css, int limit) { return std::clamp(static_cast<int>(std::lround(css * s)), 0, limit); };
  const int x0 = px(r[0] - margin, fb_w), x1 = px(r[0] + r[2] + margin, fb_w);
  const int y0 = px(r[1] - margin, fb_h), y1 = px(r[1] + r[3] + margin, fb_h);
  const int w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) return;
  std::vector<unsigned char> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  // GL's rows run bottom to top; a PNG's top to bottom. The canvas is opaque.
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h / 2; ++y)
    std::swap_ranges(rgba.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(y)),
                     rgba.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(y + 1)),
                     rgba.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(h - 1 - y)));
  for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
  const std::string background = css_color(Colors().chart_background);
  const std::string ink = css_color(ImGui::GetColorU32(ImGuiCol_Text));
  js_save_pixels(pending.name.c_str(), rgba.data(), w, h, exports().figure_title.c_str(), s, background.c_str(), ink.c_str());
}

void CopyLink(Lang lang) { js_copy(0, Tx(Ui::LinkCopied, lang), Tx(Ui::CopyByHand, lang), Tx(Ui::Close, lang)); }

void CopyEmbed(Lang lang) {
  js_copy(1, Tx(Ui::EmbedCopied, lang), Tx(Ui::CopyByHand, lang), Tx(Ui::Close, lang));
}

std::string CsvRow(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ',';
    const std::string& c = cells[i];
    if (c.find_first_of(",\"\n") == std::string::npos) {
      out += c;
    } else {
      out += '"';
      for (char ch : c) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      out += '"';
    }
  }
  return out + "\n";
}

void HideExportButtons(bool hidden) { exports().buttons_hidden = hidden; }
void SetFigureTitle(std::string title) { exports().figure_title = std::move(title); }

void DrawExportRow(const char* id, const CsvMaker& csv, const char* figure, const JsonMaker& analysis,
                   const std::string& base_name, Lang lang) {
  if (exports().buttons_hidden) return;
  ImGui::PushID(id);
  bool first = true;
  auto button = [&](Ui label, const char* key) {
    if (!first) ImGui::SameLine();
    first = false;
    bool clicked = ImGui::SmallButton(Tx(label, lang));
    RecordWidget(std::string(id) + "." + key);
    return clicked;
  };
  if (csv && button(Ui::ExportCsv, "csv")) SaveText(base_name + ".csv", "text/csv", csv());
  if (figure && button(Ui::ExportPng, "png")) RequestFigurePng(base_name + ".png", figure);
  if (button(Ui::ExportJson, "json")) SaveText(base_name + ".json", "application/json", analysis());
  if (button(Ui::CopyLink, "link")) CopyLink(lang);
  if (button(Ui::Embed, "embed")) CopyEmbed(lang);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tx(Ui::EmbedTip, lang));
  ImGui::PopID();
}

}  // namespace fl::web
