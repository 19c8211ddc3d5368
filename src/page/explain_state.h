// The explain views' own state (pass timeline, graph, roofline, timeline,
// sweep): which stage, node, phase and toggles they show, and their URL keys.
//
// These keys ride along with the Settings in the URL (stage, node, graphs,
// mega, arrows, phase, sweep, measure, profile, op) but live apart from Settings:
// main.cpp takes them out of the query before the Settings see it and
// appends them after.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/measured/op_profile.h"
#include "page/settings.h"

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
  int reality_profile = 0;  // reality check: index into the shipped profiles
  int reality_op = -1;      // reality check: index into kProfiledOps, -1 its default (a GEMM)
  // The graph view's camera: graph units to CSS pixels, and the offset.
  float zoom = 0, pan_x = 0, pan_y = 0;  // zoom 0: fit the whole graph next frame; -1: 1:1 from the inputs
  // What the URL keeps: the camera is not in it.
  bool operator==(const ExplainState& o) const {
    return stage == o.stage && node == o.node && graphs == o.graphs && megakernel == o.megakernel &&
           arrows == o.arrows && phase == o.phase && sweep_key == o.sweep_key &&
           sweep_bytes == o.sweep_bytes && reality_profile == o.reality_profile && reality_op == o.reality_op;
  }
};

// Applies one explain key; false if `key` is not an explain key.
bool ApplyExplainKey(ExplainState& e, const std::string& key, const std::string& value);

// Moves the explain keys out of `query` into `e`; returns the rest.
std::string TakeExplainKeys(std::string_view query, ExplainState& e);
// The explain keys worth keeping in the URL for the current view.
std::vector<std::pair<std::string, std::string>> ExplainPairs(const Settings& s, const ExplainState& e);

// The reality check's profile and op: the chosen ones, or the defaults.
size_t RealityProfileIndex(const ExplainState& e);
ProfiledOp RealityOp(const ExplainState& e);
std::string RealityProfileKey(size_t i);  // the profile's file name without folder and ".csv": "h100_llama-2-7b"

// Whether the roofline/timeline/sweep show decode for this view.
bool ExplainDecode(const Settings& s, const ExplainState& e);

// Whether the view shows decode (S matters, T does not), prefill (the
// reverse), or both (the ablation, demo 1's small layer).
enum class Phases { Prefill, Decode, Both };
Phases ShownPhases(const Settings& s, const ExplainState& e);

}  // namespace fl::web
