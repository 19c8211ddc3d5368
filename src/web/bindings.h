// window.fusionlab's C++ half (web/fusionlab.js wraps it into the public API).
#pragma once

#include "page/state.h"

namespace fl::web {

// Gives the JS API (and the tests' hooks, web/explain.h) the page's state to
// read and edit: the one way from a JS call to the state.
void BindApi(State& state);
State* BoundState();  // null before BindApi

}  // namespace fl::web
