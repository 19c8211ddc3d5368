// What the page records for its tests and benchmarks (the widget rectangles,
// numbers drawn as text, frame times) and the JS hooks that read them and set
// the explain views' state (page/explain_state.h).
#pragma once

#include <imgui.h>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "web/chart_renderer.h"
#include "page/explain_state.h"
#include "page/state.h"

namespace fl::web {

// A widget's screen rectangle (CSS pixels), recorded so tests can click it.
void RecordWidget(const std::string& name);
void ForgetWidget(const std::string& name);  // a widget no longer drawn
void RecordRect(const std::string& name, ImVec2 min, ImVec2 size);
// The sidebar input being typed into ("" for none), recorded each frame: getExplain().active_input.
void RecordActiveInput(const std::string& key);
// A number a view last drew as text (getExplain().shown[name]), so tests can read what the canvas says.
void RecordShown(const std::string& name, double value);
// The rectangle last recorded under `name` (x, y, width, height), or null.
const std::vector<float>* RecordedWidget(const std::string& name);

// The main thread's time for one frame and, within it, for building the UI
// (panels, layout, chart geometry; without ImGui's GL submission, where the
// browser may wait for the GPU): getExplain() reports the medians of the last
// 120 frames as frame_cpu_ms and ui_ms, for tests/e2e/frametime.mjs (and
// the last recompute's time as recompute_ms, for tests/e2e/bench.mjs).
void RecordFrameTime(double ms);
void RecordUiTime(double ms);


}  // namespace fl::web
