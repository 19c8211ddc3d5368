// The page's layout: the sidebar and one tab per demo, or in embed mode a
// slim strip and the one view named in the URL.
#pragma once

#include "web/state.h"

namespace fl::web {

struct AppUi {
  View tab_shown = View::Kernels;  // the tab the tab bar showed last frame
  bool first_frame = true;
};

void DrawApp(State& state, AppUi& ui);

}  // namespace fl::web
