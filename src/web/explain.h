// The explain views' own state (pass timeline, graph, roofline, timeline),
// their URL keys, the widget rectangles and the JS hooks the tests use.
//
// These keys ride along with the Settings in the URL (stage, node, graphs,
// mega, arrows, phase) but live here, apart from Settings: main.cpp takes
// them out of the query before the Settings see it and appends them after.
#pragma once

#include <imgui.h>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "web/chart_renderer.h"
#include "page/state.h"

namespace fl::web {

// The pipeline's stages as the strip shows them; the last, "fused", is the
// last stage's graph partitioned into kernels.
inline constexpr const char* kStageKeys[] = {"traced",   "match_attention", "decompose",       "cse",
                                             "constant_fold", "simplify",   "fold_norm_weight", "fused"};
inline constexpr int kStageCount = 8;
inline constexpr int kFusedStage = 7;

struct ExplainState {
  int stage = kFusedStage;  // index into kStageKeys
  int node = -1;            // selected node id (in the shown stage), -1 for none
  bool graphs = false;      // timeline: CUDA Graphs (hw.graph_launch per kernel)
  bool megakernel = false;  // timeline: one launch for the whole layer
  bool arrows = false;      // roofline: arrows from each op alone to its fused kernel
  int phase = -1;           // roofline/timeline/sweep: -1 the view's default, 0 prefill, 1 decode
  int sweep_key = -1;       // sweep: index into kSweepKeys, -1 the phase's own size (T or S)
  bool sweep_bytes = false; // sweep: HBM bytes instead of time
  // The graph view's camera: graph units to CSS pixels, and the offset.
  float zoom = 0, pan_x = 0, pan_y = 0;  // zoom 0: fit the whole graph next frame; -1: 1:1 from the inputs
  bool operator==(const ExplainState& o) const {
    return stage == o.stage && node == o.node && graphs == o.graphs && megakernel == o.megakernel &&
           arrows == o.arrows && phase == o.phase && sweep_key == o.sweep_key &&
           sweep_bytes == o.sweep_bytes;
  }
};

ExplainState& Explain();

// Moves the explain keys out of `query` into Explain(); returns the rest.
std::string TakeExplainKeys(std::string_view query);
// The explain keys worth keeping in the URL for the current view.
std::vector<std::pair<std::string, std::string>> ExplainPairs(const Settings& s);

// Whether the roofline/timeline/sweep show decode for this view.
bool ExplainDecode(const Settings& s);

// Whether the view shows decode (S matters, T does not), prefill (the
// reverse), or both (the ablation, demo 1's small layer).
enum class Phases { Prefill, Decode, Both };
Phases ShownPhases(const Settings& s);

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

// The renderer shared by the explain charts (graph, roofline, timeline).
ChartRenderer& ExplainRenderer();
void ResetExplainRenderer();  // after a lost WebGL context

// Binds the explain state to window.Module for tests (explainStateJson, setExplainJson).
void BindExplain(State& state);

}  // namespace fl::web
