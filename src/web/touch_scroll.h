// [SECTION] A finger's drag scrolls.
//
// On a touch screen a drag scrolls the window under the finger, as a web page
// does, unless the widget it started on follows the drag along that axis
// itself (a number's sideways drag, the graph's pan). Once a drag scrolls,
// the press it started with is no click.
#pragma once

namespace fl::web {

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
