// window.fusionlab's C++ half (web/fusionlab.js wraps it into the public API).
#pragma once

#include "page/state.h"

namespace fl::web {

// Gives the JS API the page's state to read and edit.
void BindApi(State& state);

}  // namespace fl::web
