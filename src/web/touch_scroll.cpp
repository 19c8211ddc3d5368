#include "web/touch_scroll.h"

#define IMGUI_DEFINE_MATH_OPERATORS
#include <imgui.h>
#include <imgui_internal.h>  // the hovered window, ClearActiveID, SetScrollX/Y of a window

#include <cmath>

#include "web/page_context.h"

namespace fl::web {

namespace {

using Gesture = TouchState::Gesture;

// The window under the finger, or the nearest window around it, that can
// scroll along `axis`.
ImGuiWindow* scrollable(ImGuiID hovered, ImGuiAxis axis) {
  for (ImGuiWindow* w = ImGui::FindWindowByID(hovered); w;
       w = (w->Flags & ImGuiWindowFlags_ChildWindow) ? w->ParentWindow : nullptr)
    if (w->ScrollMax[axis] > 0) return w;
  return nullptr;
}

void decide(TouchState& t, ImVec2 moved) {
  TouchState::Drag& d = t.drag;
  d.axis = std::fabs(moved.x) > std::fabs(moved.y) ? ImGuiAxis_X : ImGuiAxis_Y;
  if (t.claimed[d.axis]) {
    d.gesture = Gesture::Widget;
    return;
  }
  // A scroll, even where nothing can scroll that way: the press is no click.
  d.gesture = Gesture::Scrolling;
  ImGui::ClearActiveID();
  if (ImGuiWindow* target = scrollable(d.window, static_cast<ImGuiAxis>(d.axis))) {
    d.target = target->ID;
    d.start_scroll = target->Scroll[d.axis];
  }
}

}  // namespace

void ClaimTouchDrag(bool x, bool y) {
  bool* claimed = Page().touch.claimed;
  claimed[ImGuiAxis_X] = claimed[ImGuiAxis_X] || x;
  claimed[ImGuiAxis_Y] = claimed[ImGuiAxis_Y] || y;
}

bool TouchDragHeld() {
  const Gesture gesture = Page().touch.drag.gesture;
  return gesture == Gesture::Undecided || gesture == Gesture::Scrolling;
}

void UpdateTouchScroll(bool touch) {
  const ImGuiContext& g = *GImGui;
  TouchState& t = Page().touch;
  TouchState::Drag& d = t.drag;
  if (g.IO.MouseClicked[0]) {
    d = {};
    if (touch && g.HoveredWindow) d = {Gesture::Undecided, g.HoveredWindow->ID, g.IO.MousePos};
  }
  if (d.gesture != Gesture::None && !g.IO.MouseDown[0]) d = {};
  const ImVec2 moved = g.IO.MousePos - d.start;
  if (d.gesture == Gesture::Undecided && std::fmax(std::fabs(moved.x), std::fabs(moved.y)) >= kTouchSlopPx)
    decide(t, moved);
  if (d.gesture == Gesture::Scrolling && d.target) {
    if (ImGuiWindow* target = ImGui::FindWindowByID(d.target)) {
      const float scroll = d.start_scroll - (d.axis == ImGuiAxis_X ? moved.x : moved.y);
      if (d.axis == ImGuiAxis_X) ImGui::SetScrollX(target, scroll);
      else ImGui::SetScrollY(target, scroll);
    }
  }
  t.claimed[ImGuiAxis_X] = t.claimed[ImGuiAxis_Y] = false;
}

}  // namespace fl::web
