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

#include <string>

namespace fl::web {

// Right after ImGui::NewFrame: widens the frame's Tab request (or continues
// one carried over from the last frame) and turns Enter into activation.
void KeyboardFocusFrameBegun();
// After the UI is built, before ImGui::Render: skips a stop that is no
// control, carries on to the next window past the end of one, draws the ring.
void KeyboardFocusFrameEnding();

// Called by RecordWidget for the item just submitted: the name of the
// recorded widget with the ring, for tests (getExplain().focus).
void NoteWidgetForFocus(const std::string& name);
const std::string& FocusedWidget();  // "" when none or not a recorded widget

}  // namespace fl::web
