// What a screen reader gets of the canvas: an accessible name (the view's
// caption) and the view's main tables as visually hidden DOM tables, kept in
// step with what is drawn.
#pragma once

#include <string>
#include <vector>

#include "page/state.h"

namespace fl::web {

struct TextTable {
  std::string caption;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

// The current view's main tables, as text.
std::vector<TextTable> ViewTables(const State& state);

// Each frame: gives the canvas its name and the DOM its tables when the view,
// its results or the language changed since the last call.
void SyncAccessibility(State& state);

}  // namespace fl::web
