#include "web/number_field.h"

#define IMGUI_DEFINE_MATH_OPERATORS
#include <imgui.h>
#include <imgui_internal.h>  // ItemAdd, SetActiveID: a widget of our own

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "page/number_drag.h"
#include "web/page_context.h"
#include "web/platform.h"
#include "web/touch_scroll.h"

namespace fl::web {

namespace {

constexpr double kPauseS = 1.0;        // typing: applied after this pause
constexpr float kDragThresholdPx = 3;  // a press that moves less is a click: type

NumberFieldState& field() { return Page().number_field; }

double parse_or(const std::string& text, double fallback) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && std::isfinite(v) ? v : fallback;
}

struct StepContext {
  const NumberRange* range;
  const NearestAccepted* nearest;
  double fallback;
  std::string stepped;  // set when ↑/↓ replaced the text
};

int step_callback(ImGuiInputTextCallbackData* data) {
  auto& ctx = *static_cast<StepContext*>(data->UserData);
  const int direction = data->EventKey == ImGuiKey_UpArrow ? +1 : -1;
  const double from = parse_or(std::string(data->Buf, static_cast<size_t>(data->BufTextLen)), ctx.fallback);
  const double to = (*ctx.nearest)(SteppedValue(*ctx.range, from, direction), direction);
  ctx.stepped = NumberText(*ctx.range, to);
  data->DeleteChars(0, data->BufTextLen);
  data->InsertChars(0, ctx.stepped.c_str());
  data->SelectAll();
  return 0;
}

// Typing mode: an InputText whose text is applied when complete.
std::optional<std::string> typed(const char* key, const NumberRange& range, const std::string& value,
                                 const NearestAccepted& nearest) {
  if (field().typing.focus_pending) ImGui::SetKeyboardFocusHere();
  field().typing.focus_pending = false;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s", value.c_str());
  StepContext ctx{&range, &nearest, parse_or(value, range.lo), {}};
  // While active, ImGui reports its text as changed on every frame that our
  // buffer (the applied value) differs from it: a keystroke is a new text.
  const bool changed = ImGui::InputText((std::string("##") + key).c_str(), buf, sizeof buf,
                                        ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_AutoSelectAll |
                                            ImGuiInputTextFlags_CallbackHistory,
                                        step_callback, &ctx);
  std::optional<std::string> out;
  if (!ctx.stepped.empty()) {
    field().typing.key = key, field().typing.text = ctx.stepped, field().typing.edited_at = 1e300;  // applied now
    if (ctx.stepped != value) out = ctx.stepped;
  } else if (changed && (field().typing.key != key || field().typing.text != buf)) {
    field().typing.key = key, field().typing.text = buf, field().typing.edited_at = ImGui::GetTime();
  }
  const bool done = ImGui::IsItemDeactivated();
  if (field().typing.key == key && !out) {
    const bool paused = ImGui::IsItemActive() && ImGui::GetTime() - field().typing.edited_at >= kPauseS;
    if ((done || paused) && field().typing.text != value) out = field().typing.text;
    if (paused) field().typing.edited_at = 1e300;  // applied: wait for the next keystroke
  }
  if (done) field().typing = {};
  return out;
}

}  // namespace

FingerOnField LastFingerOnField() { return field().finger; }

bool ResetButton(const char* id) {
  const float side = ImGui::GetFrameHeight();
  const bool pressed = ImGui::InvisibleButton(id, ImVec2(side, side));
  const ImRect bb(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  const ImU32 bg = ImGui::GetColorU32(ImGui::IsItemActive() ? ImGuiCol_ButtonActive
                                      : ImGui::IsItemHovered() ? ImGuiCol_ButtonHovered
                                                               : ImGuiCol_Button);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(bb.Min, bb.Max, bg, GImGui->Style.FrameRounding);
  // Three quarters of a circle, open at the top right, and an arrowhead
  // at its right end pointing up: counter-clockwise, back.
  const ImVec2 c = bb.GetCenter();
  const float r = side * 0.26f, pi = 3.14159265f, a = side * 0.15f;
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
  draw->PathArcTo(c, r, 0.0f, 1.5f * pi, 16);
  draw->PathStroke(ink, false, std::max(1.0f, side * 0.08f));
  draw->AddTriangleFilled(ImVec2(c.x + r, c.y - a * 1.2f), ImVec2(c.x + r - a, c.y + a * 0.2f),
                          ImVec2(c.x + r + a, c.y + a * 0.2f), ink);
  return pressed;
}

std::optional<std::string> NumberField(const char* key, const NumberRange& range, const std::string& value,
                                       const NearestAccepted& nearest) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return std::nullopt;
  ImGuiContext& g = *GImGui;
  field().finger = FingerOnField::None;
  const ImGuiID id = window->GetID((std::string("##") + key).c_str());
  if (field().typing.id == id) return typed(key, range, value, nearest);

  const ImGuiStyle& style = g.Style;
  const ImRect bb(window->DC.CursorPos, window->DC.CursorPos + ImVec2(ImGui::CalcItemWidth(), ImGui::GetFrameHeight()));
  ImGui::ItemSize(bb, style.FramePadding.y);
  if (!ImGui::ItemAdd(bb, id, nullptr, ImGuiItemFlags_Inputable)) return std::nullopt;
  const bool hovered = ImGui::ItemHoverable(bb, id);
  const bool disabled = (g.CurrentItemFlags & ImGuiItemFlags_Disabled) != 0;
  // Reached by Tab, or Enter/Space with the focus ring on it (see keyboard_focus.h).
  const bool by_keyboard = g.NavActivateInputId == id || g.NavActivateId == id;
  const bool type_now = by_keyboard || (hovered && (g.IO.MouseClickedCount[0] == 2 || (g.IO.MouseClicked[0] && g.IO.KeyCtrl)));
  if (!disabled && type_now) {
    field().typing = {id, true, {}, {}, 0};
  } else if (!disabled && hovered && g.IO.MouseClicked[0]) {
    ImGui::SetActiveID(id, window);
    ImGui::SetFocusID(id, window);
    ImGui::FocusWindow(window);
    field().drag = {id, parse_or(value, range.lo), false};
    if (PressIsTouch()) field().finger = FingerOnField::Down;
  }

  std::optional<std::string> out;
  if (g.ActiveId == id && field().drag.id == id) {
    const float dx = g.IO.MousePos.x - g.IO.MouseClickedPos[0].x;
    if (g.IO.MouseDown[0]) ClaimTouchDrag(true, false);  // a finger's sideways drag changes the number; up or down scrolls
    // Also on the frame of the release: a move and the release read in one
    // (slow) frame still land the number where the hand let go.
    const bool at_hand = ImGui::IsMousePosValid();
    field().drag.moved = field().drag.moved || (at_hand && std::fabs(dx) >= kDragThresholdPx && !TouchDragHeld());
    if (field().drag.moved && at_hand) {
      const double wanted = DraggedValue(range, field().drag.start, dx, g.IO.KeyShift);
      const std::string text = NumberText(range, nearest(wanted, wanted >= field().drag.start ? +1 : -1));
      if (text != value) out = text;
    }
    if (!g.IO.MouseDown[0]) {
      ImGui::ClearActiveID();
      // A click, not a drag: type here, or in the page's own text box for a finger (its soft keyboard).
      if (!field().drag.moved && PressIsTouch()) field().finger = FingerOnField::Tapped;
      else if (!field().drag.moved) field().typing = {id, true, {}, {}, 0};
      field().drag = {};
    }
  }
  if ((hovered && !disabled) || g.ActiveId == id) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);

  const ImU32 frame = ImGui::GetColorU32(g.ActiveId == id ? ImGuiCol_FrameBgActive
                                         : hovered      ? ImGuiCol_FrameBgHovered
                                                        : ImGuiCol_FrameBg);
  ImGui::RenderNavHighlight(bb, id);
  ImGui::RenderFrame(bb.Min, bb.Max, frame, true, style.FrameRounding);
  ImGui::RenderTextClipped(bb.Min + style.FramePadding, bb.Max - style.FramePadding, value.c_str(), nullptr, nullptr,
                           ImVec2(0, 0.5f));
  return out;
}

}  // namespace fl::web
