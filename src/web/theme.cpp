#include "web/theme.h"

#include <functional>

#include "web/page_context.h"

namespace fl::web {

namespace {

const Palette kLight{
    IM_COL32(255, 255, 255, 255), IM_COL32(226, 229, 235, 255), IM_COL32(120, 126, 138, 255),
    IM_COL32(205, 208, 214, 255), IM_COL32(20, 20, 20, 255),    IM_COL32(70, 76, 90, 150),
    IM_COL32(0, 0, 0, 18),
    ImVec4(0.40f, 0.42f, 0.47f, 1.0f), ImVec4(0.80f, 0.10f, 0.10f, 1.0f),
    ImVec4(0.20f, 0.40f, 0.64f, 1.0f), ImVec4(0.71f, 0.39f, 0.12f, 1.0f),
    ImVec4(0.96f, 0.97f, 0.98f, 1.0f), ImVec4(1.0f, 0.80f, 0.80f, 1.0f),
};

const Palette kDark{
    IM_COL32(24, 26, 31, 255),    IM_COL32(52, 56, 66, 255),  IM_COL32(150, 156, 168, 255),
    IM_COL32(78, 82, 92, 255),    IM_COL32(240, 240, 245, 255), IM_COL32(200, 206, 218, 150),
    IM_COL32(255, 255, 255, 20),
    ImVec4(0.66f, 0.69f, 0.75f, 1.0f), ImVec4(1.0f, 0.45f, 0.45f, 1.0f),
    ImVec4(0.50f, 0.70f, 0.95f, 1.0f), ImVec4(0.95f, 0.65f, 0.35f, 1.0f),
    ImVec4(0.09f, 0.10f, 0.12f, 1.0f), ImVec4(0.45f, 0.15f, 0.15f, 1.0f),
};

}  // namespace

const Palette& Colors() { return Page().theme == Theme::Dark ? kDark : kLight; }

void ApplyTheme(Theme theme) {
  const bool dark = theme == Theme::Dark;
  Page().theme = theme;
  ImGuiStyle style;
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.TabRounding = 3;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  // Every frame outlined: an unchecked radio button, checkbox or empty input
  // stays visible against the panel (contrast above 3:1 in both themes).
  style.FrameBorderSize = 1;
  style.FramePadding = ImVec2(6, 3);
  style.ItemSpacing = ImVec2(8, 5);
  style.CellPadding = ImVec2(4, 2);
  style.ScrollbarSize = 12;
  ImVec4* c = style.Colors;
  if (dark) {
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.55f, 0.58f, 0.64f, 1.0f);
    c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.18f, 0.22f, 1.0f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.20f, 0.24f, 0.31f, 1.0f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(1.0f, 1.0f, 1.0f, 0.04f);
    c[ImGuiCol_Header] = ImVec4(0.85f, 0.65f, 0.15f, 0.40f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.85f, 0.65f, 0.15f, 0.25f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.85f, 0.65f, 0.15f, 0.55f);
    c[ImGuiCol_NavHighlight] = ImVec4(0.40f, 0.70f, 1.00f, 1.0f);  // the Tab focus ring: 7.4:1 on the panel
  } else {
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = ImVec4(0.965f, 0.970f, 0.980f, 1.0f);
    c[ImGuiCol_Border] = ImVec4(0.50f, 0.52f, 0.57f, 1.0f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.87f, 0.90f, 0.95f, 1.0f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(0.0f, 0.0f, 0.0f, 0.035f);
    c[ImGuiCol_Header] = ImVec4(0.99f, 0.85f, 0.35f, 0.55f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.99f, 0.85f, 0.35f, 0.35f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.99f, 0.80f, 0.20f, 0.70f);
    c[ImGuiCol_NavHighlight] = ImVec4(0.10f, 0.40f, 0.85f, 1.0f);  // the Tab focus ring: 5.0:1 on the panel
  }
  ImGui::GetStyle() = style;
}

ImU32 KindColor(KernelKind kind) {
  switch (kind) {
    case KernelKind::MatMul: return IM_COL32(52, 101, 164, 255);
    case KernelKind::Rowwise: return IM_COL32(230, 126, 34, 255);
    case KernelKind::Pointwise: return IM_COL32(39, 160, 90, 255);
    case KernelKind::Attention: return IM_COL32(142, 68, 173, 255);
    case KernelKind::KVWrite: return IM_COL32(127, 140, 141, 255);
    case KernelKind::Embedding: return IM_COL32(22, 160, 133, 255);
  }
  return IM_COL32(192, 57, 43, 255);
}

ImU32 Lighter(ImU32 color) {
  auto mix = [](ImU32 c, int shift) { return ((((c >> shift) & 0xFF) * 45 + 255 * 55) / 100) << shift; };
  return mix(color, IM_COL32_R_SHIFT) | mix(color, IM_COL32_G_SHIFT) | mix(color, IM_COL32_B_SHIFT) |
         (color & IM_COL32_A_MASK);
}

}  // namespace fl::web
