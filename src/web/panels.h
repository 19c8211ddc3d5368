// The page's panels, one file each. Each reads and edits only the State.
#pragma once

#include "web/state.h"

namespace fl::web {

void DrawConfigPanel(State& state);    // sidebar: language, model, T, S, hardware
void DrawEmbedStrip(State& state);     // embed mode: one slim line instead of the sidebar
void DrawKernelsPanel(State& state);   // demo 1: the small layer's partition
void DrawPhasePanel(State& state);     // demos 2 and 3: four partitions, prefill or decode
void DrawAblationPanel(State& state);  // demo 4: the PyTorch 2 paper's ablation

// The view's tab label.
Text ViewTitle(View v);

}  // namespace fl::web
