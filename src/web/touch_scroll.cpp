#include "web/touch_scroll.h"

#define IMGUI_DEFINE_MATH_OPERATORS
#include <imgui.h>
#include <imgui_internal.h>  // the hovered window, ClearActiveID, SetScrollX/Y of a window

#include <cmath>

namespace fl::web {

namespace {

enum class Gesture { None, Undecided, Scrolling, Widget };

struct TouchDrag {
  Gesture gesture = Gesture::None;
  ImGuiID window = 0;  // hovered when the finger came down
  ImVec2 start;
  ImGuiAxis axis = ImGuiAxis_Y;
  ImGuiID target = 0;  // the window that scrolls
  float start_scroll = 0;
};
TouchDrag g_touch;
bool g_claimed[2] = {false, false};

// The window under the finger, or the nearest window around it, that can
// scroll along `axis`.
ImGuiWindow* scrollable(ImGuiID hovered, ImGuiAxis axis) {
  for (ImGuiWindow* w = ImGui::FindWindowByID(hovered); w;
       w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr)
    if (w->ScrollMax[axis] > 0) return w;
  return nullptr;
}

void decide(ImVec2 moved) {
  g_touch.axis = std::fabs(moved.x) > std::fabs(moved.y) ? ImGuiAxis_X : ImGuiAxis_Y;
  if (g_claimed[g_touch.axis]) {
    g_touch.gesture = Gesture::Widget;
    return;
  }
  // A scroll, even where nothing can scroll that way: the press is no click.
  g_touch.gesture = Gesture::Scrolling;
  ImGui::ClearActiveID();
  if (ImGuiWindow* target = scrollable(g_touch.window, g_touch.axis)) {
    g_touch.target = target->ID;
    g_touch.start_scroll = target->Scroll[g_touch.axis];
  }
}

}  // namespace

void ClaimTouchDrag(bool x, bool y) {
  g_claimed[ImGuiAxis_X] = g_claimed[ImGuiAxis_X] || x;
  g_claimed[ImGuiAxis_Y] = g_claimed[ImGuiAxis_Y] || y;
}

bool TouchDragHeld() { return g_touch.gesture == Gesture::Undecided || g_touch.gesture == Gesture::Scrolling; }

void UpdateTouchScroll(bool touch) {
  const ImGuiContext& g = *GImGui;
  if (g.IO.MouseClicked[0]) {
    g_touch = {};
    if (touch && g.HoveredWindow) g_touch = {Gesture::Undecided, g.HoveredWindow->ID, g.IO.MousePos};
  }
  if (g_touch.gesture != Gesture::None && !g.IO.MouseDown[0]) g_touch = {};
  const ImVec2 moved = g.IO.MousePos - g_touch.start;
  if (g_touch.gesture == Gesture::Undecided && std::fmax(std::fabs(moved.x), std::fabs(moved.y)) >= kTouchSlopPx)
    decide(moved);
  if (g_touch.gesture == Gesture::Scrolling && g_touch.target) {
    if (ImGuiWindow* target = ImGui::FindWindowByID(g_touch.target)) {
      const float scroll = g_touch.start_scroll - (g_touch.axis == ImGuiAxis_X ? moved.x : moved.y);
      if (g_touch.axis == ImGuiAxis_X) ImGui::SetScrollX(target, scroll);
      else ImGui::SetScrollY(target, scroll);
    }
  }
  g_claimed[ImGuiAxis_X] = g_claimed[ImGuiAxis_Y] = false;
}

}  // namespace fl::web
