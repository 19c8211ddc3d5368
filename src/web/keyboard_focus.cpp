#include "web/keyboard_focus.h"

#define IMGUI_DEFINE_MATH_OPERATORS
#include <imgui.h>
#include <imgui_internal.h>  // ImGui's navigation request, windows, NavId

#include <algorithm>
#include <utility>
#include <vector>

#include "web/explain.h"
#include "web/page_context.h"
#include "web/platform.h"

namespace fl::web {

namespace {

// Items that ImGui lets a FocusApi request stop on but a page would not.
constexpr ImGuiItemFlags kNotAStop = ImGuiItemFlags_Disabled | ImGuiItemFlags_NoNav | ImGuiItemFlags_NoTabStop;
// Skips in a row before giving up (a window of scrollbars only, say).
constexpr int kMaxHops = 64;

using Request = FocusState::Request;
using Carry = FocusState::Carry;

FocusState& focus() { return Page().focus; }

// The windows Tab passes through, in the order they were begun this frame.
std::vector<ImGuiWindow*> tab_windows() {
  std::vector<ImGuiWindow*> out;
  for (ImGuiWindow* w : GImGui->Windows)
    if (w->Active && !w->Hidden && !w->IsFallbackWindow && !(w->Flags & ImGuiWindowFlags_NoNavInputs) &&
        !(w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)))
      out.push_back(w);
  std::sort(out.begin(), out.end(),
            [](const ImGuiWindow* a, const ImGuiWindow* b) { return a->BeginOrderWithinContext < b->BeginOrderWithinContext; });
  return out;
}

ImGuiWindow* window_after(ImGuiWindow* from, int dir) {
  const std::vector<ImGuiWindow*> windows = tab_windows();
  if (windows.empty()) return nullptr;
  const auto at = std::find(windows.begin(), windows.end(), from);
  const int n = static_cast<int>(windows.size());
  const int i = at == windows.end() ? (dir > 0 ? -1 : 0) : static_cast<int>(at - windows.begin());
  return windows[static_cast<size_t>(((i + dir) % n + n) % n)];
}

void submit(int dir, bool from_edge) {
  ImGuiContext& g = *GImGui;
  ImGui::NavMoveRequestSubmit(ImGuiDir_None, dir < 0 ? ImGuiDir_Up : ImGuiDir_Down,
                              ImGuiNavMoveFlags_Tabbing | ImGuiNavMoveFlags_FocusApi,
                              ImGuiScrollFlags_KeepVisibleEdgeX | ImGuiScrollFlags_KeepVisibleEdgeY);
  // From an edge, no item is the reference: forward takes the first item,
  // backward keeps storing to the last.
  g.NavTabbingDir = from_edge && dir > 0 ? 0 : dir;
  g.NavTabbingResultFirst.Clear();
  g.NavTabbingCounter = -1;
  focus().request = {dir, from_edge};
}

void continue_carry() {
  ImGuiContext& g = *GImGui;
  const Carry carry = std::exchange(focus().carry, {});
  ImGuiWindow* window = ImGui::FindWindowByID(carry.window);
  if (!window || !window->WasActive) return;
  g.NavWindow = window;
  if (carry.request.from_edge) ImGui::SetNavID(0, ImGuiNavLayer_Main, 0, ImRect());
  submit(carry.request.dir, carry.request.from_edge);
  focus().carry.hops = carry.hops;  // kept until a stop is accepted
}

// The item ImGui will move to when it applies this frame's request (as
// NavMoveRequestApplyResult chooses), or null.
ImGuiNavItemData* chosen_result() {
  ImGuiContext& g = *GImGui;
  ImGuiNavItemData* r = g.NavMoveResultLocal.ID ? &g.NavMoveResultLocal
                        : g.NavMoveResultOther.ID ? &g.NavMoveResultOther
                                                  : nullptr;
  if ((g.NavTabbingCounter == 1 || g.NavTabbingDir == 0) && g.NavTabbingResultFirst.ID) r = &g.NavTabbingResultFirst;
  return r;
}

// Whether the request ran past the end of its window instead of finding the
// next stop in it: forward, the reference item was the last (or gone);
// backward, nothing came before it.
bool ran_past_window_end() {
  const ImGuiContext& g = *GImGui;
  if (focus().request.from_edge) return false;
  if (focus().request.dir > 0) return g.NavTabbingDir != 0 && g.NavTabbingCounter != 0;
  return g.NavMoveScoringItems;
}

void cancel_request() {
  ImGuiContext& g = *GImGui;
  g.NavMoveSubmitted = g.NavMoveScoringItems = false;
  g.NavAnyRequest = g.NavInitRequest;
}

// A child window's own stop in its parent: its whole area, no control.
bool is_child_window(ImGuiID id) {
  for (const ImGuiWindow* w : GImGui->Windows)
    if (w->ChildId == id && (w->Flags & ImGuiWindowFlags_ChildWindow)) return true;
  return false;
}

// Whether the ring is on a control: while the frame is built (the window
// begun this frame), or at its start (the window shown last frame).
bool ring_shown(bool frame_begun = false) {
  const ImGuiContext& g = *GImGui;
  return g.NavId != 0 && !g.NavDisableHighlight && g.NavWindow &&
         (frame_begun ? g.NavWindow->WasActive : g.NavWindow->Active);
}

}  // namespace

void KeyboardFocusFrameBegun() {
  ImGuiContext& g = *GImGui;
  Page().record.focused_widget.clear();
  focus().request = {};
  if (focus().carry.request.dir != 0) {
    continue_carry();
    KeepDrawing();
  } else if (g.NavMoveSubmitted && (g.NavMoveFlags & ImGuiNavMoveFlags_Tabbing) &&
             !(g.NavMoveFlags & ImGuiNavMoveFlags_FocusApi)) {
    // ImGui's request from the Tab key: every item a stop, and going on from
    // the control with the ring (ImGui restarts at the first when no text is
    // being typed).
    g.NavMoveFlags |= ImGuiNavMoveFlags_FocusApi;
    if (g.NavTabbingDir == 0 && g.NavId != 0) g.NavTabbingDir = +1;
    focus().request = {g.NavTabbingDir < 0 ? -1 : +1, g.NavTabbingDir == 0};
    focus().carry.hops = 0;
    KeepDrawing();
  }

  // Space (ImGui's Activate) presses the control with the ring; Enter, a
  // page's other key for it, is ImGui's "Input" that buttons ignore.
  const bool typing = g.IO.WantTextInput || g.ActiveId != 0;
  if (ring_shown(/*frame_begun=*/true) && !typing &&
      (ImGui::IsKeyPressedMap(ImGuiKey_Enter, false) || ImGui::IsKeyPressedMap(ImGuiKey_KeyPadEnter, false))) {
    g.NavActivateId = g.NavActivateDownId = g.NavActivatePressedId = g.NavActivateInputId = g.NavId;
    g.NavActivateFlags = ImGuiActivateFlags_PreferInput;  // a number starts typing
    KeepDrawing();
  }
}

void KeyboardFocusFrameEnding() {
  ImGuiContext& g = *GImGui;
  if (focus().request.dir != 0 && g.NavMoveSubmitted && (g.NavMoveFlags & ImGuiNavMoveFlags_Tabbing)) {
    const bool in_popup = g.NavWindow && (g.NavWindow->Flags & ImGuiWindowFlags_Popup);
    ImGuiNavItemData* result = chosen_result();
    if (focus().carry.hops < kMaxHops) {
      if (!in_popup && (ran_past_window_end() || !result)) {
        // On to the next window's first control (the previous one's last).
        cancel_request();
        if (ImGuiWindow* next = window_after(g.NavWindow, focus().request.dir))
          focus().carry = {{focus().request.dir, true}, next->ID, focus().carry.hops + 1};
      } else if (result && ((result->InFlags & kNotAStop) || is_child_window(result->ID))) {
        // Not a control a page would stop on: go on from it.
        cancel_request();
        g.NavWindow = result->Window;
        ImGui::SetNavID(result->ID, ImGuiNavLayer_Main, result->FocusScopeId, result->RectRel);
        focus().carry = {{focus().request.dir, false}, result->Window->ID, focus().carry.hops + 1};
      }
    }
  }

  // The ring itself, for every control (ImGui draws its own on some widgets only).
  if (!ring_shown()) {
    ForgetWidget("focus.ring");
    return;
  }
  ImGuiWindow* window = g.NavWindow;
  constexpr float kThickness = 2, kGap = 3;
  ImRect ring = ImGui::WindowRectRelToAbs(window, window->NavRectRel[g.NavLayer]);
  ring.Expand(kGap + kThickness / 2);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->PushClipRect(window->ClipRect.Min - ImVec2(kGap + kThickness, kGap + kThickness),
                     window->ClipRect.Max + ImVec2(kGap + kThickness, kGap + kThickness), false);
  draw->AddRect(ring.Min, ring.Max, ImGui::GetColorU32(ImGuiCol_NavHighlight), g.Style.FrameRounding, 0, kThickness);
  draw->PopClipRect();
  RecordRect("focus.ring", ring.Min, ring.GetSize());
}

void NoteWidgetForFocus(const std::string& name) {
  const ImGuiContext& g = *GImGui;
  if (ring_shown() && g.LastItemData.ID == g.NavId) Page().record.focused_widget = name;
}


}  // namespace fl::web
