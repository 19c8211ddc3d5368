// The page's layout: the sidebar and one tab per demo; below kDrawerWidth
// (a phone, a narrow window) the sidebar is a drawer behind a button and the
// views a dropdown; in embed mode a slim strip and the one view named in the URL.
#pragma once

#include "page/state.h"

namespace fl::web {

inline constexpr float kDrawerWidth = 900;  // CSS px (over the page's scale)

struct AppUi {
  View tab_shown = View::Kernels;  // the tab the tab bar showed last frame
  bool first_frame = true;
  bool drawer_open = false;        // narrow layout: the settings drawer
  // How far the view's content ran past its frame this frame, in layout
  // units (0 when it fit): an embed shrinks its scale by it.
  float view_overflow_x = 0, view_overflow_y = 0;
};

void DrawApp(State& state, AppUi& ui);

}  // namespace fl::web
