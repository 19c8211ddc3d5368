// Keyboard focus, as a browser page has it: Tab and Shift+Tab move a visible
// ring through every control (buttons, checkboxes, dropdowns, numbers),
// window after window; Space or Enter acts on the control with the ring.
// (Space, the arrows and Escape are ImGui's keyboard navigation.)
//
// ImGui 1.86 tabs only between text inputs, within one window, and draws its
// ring on some widgets only. Its own tabbing request is widened here (every
// item a stop, disabled and navigation-less ones skipped) and carried on to
// the next window at either end of one.
#pragma once

#include <imgui.h>

#include <string>

namespace fl::web {

// What this module carries from frame to frame (PageContext::focus).
struct FocusState {
  // A request this module made or widened: in which direction, and whether it
  // enters a window from its edge (the first item, or the last going back).
  struct Request {
    int dir = 0;  // +1 Tab, -1 Shift+Tab, 0 none
    bool from_edge = false;
  };
  // A request to make at the start of the next frame: enter `window` from its
  // edge, or go on from NavId (a skipped item) in the same window.
  struct Carry {
    Request request;
    ImGuiID window = 0;
    int hops = 0;
  };
  Request request;  // this frame's
  Carry carry;
};

// Right after ImGui::NewFrame: widens the frame's Tab request (or continues
// one carried over from the last frame) and turns Enter into activation.
void KeyboardFocusFrameBegun();
// After the UI is built, before ImGui::Render: skips a stop that is no
// control, carries on to the next window past the end of one, draws the ring.
void KeyboardFocusFrameEnding();

// Called by RecordWidget for the item just submitted: records the name of the
// widget with the ring, for tests (getExplain().focus).
void NoteWidgetForFocus(const std::string& name);

}  // namespace fl::web
