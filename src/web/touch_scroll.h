// [SECTION] A finger's drag scrolls.
//
// On a touch screen a drag scrolls the window under the finger, as a web page
// does, unless the widget it started on follows the drag along that axis
// itself (a number's sideways drag, the graph's pan). Once a drag scrolls,
// the press it started with is no click.
#pragma once

#include <imgui.h>

namespace fl::web {

// What this module carries from frame to frame (PageContext::touch).
struct TouchState {
  enum class Gesture { None, Undecided, Scrolling, Widget };
  // The finger's drag, from the press that started it.
  struct Drag {
    Gesture gesture = Gesture::None;
    ImGuiID window = 0;  // hovered when the finger came down
    ImVec2 start;
    int axis = 1;        // ImGuiAxis: 0 sideways, 1 up and down
    ImGuiID target = 0;  // the window that scrolls
    float start_scroll = 0;
  };
  Drag drag;
  bool claimed[2] = {false, false};  // this frame, by axis: a widget follows the drag itself
};

// A finger that moves less than this between down and up has tapped.
inline constexpr float kTouchSlopPx = 8;

// Called by a widget that is being dragged, every frame of its drag: it
// follows a finger's drag sideways (`x`) and/or up and down (`y`) itself.
void ClaimTouchDrag(bool x, bool y);

// Whether a finger's press is not the widget's to follow: it has not yet
// moved far enough to say whether it drags or scrolls, or it scrolls.
bool TouchDragHeld();

// Called once per frame after the widgets, with whether the press is a
// finger's: decides, and scrolls.
void UpdateTouchScroll(bool touch);

}  // namespace fl::web
