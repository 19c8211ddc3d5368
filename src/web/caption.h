// The line that names what a view shows, for an embed's strip and the title
// of every exported PNG: "Fusion Lab · 2 · Prefill · Llama-3.1-8B · T = 2048 · H100 SXM".
#pragma once

#include <string>

#include "core/presets.h"
#include "page/state.h"

namespace fl::web {

std::string ViewCaption(const State& state);

// A model preset as the page names it (the small layer by what it is).
std::string ModelLabel(const ModelPreset& m, Lang lang);

}  // namespace fl::web
