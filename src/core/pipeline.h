// The standard pass pipeline, used by the CLI, the page and the tests:
//   [match_attention] → decompose → cse → constant_fold → simplify → fold_norm_weight
// Every stage's graph is kept, so a view can show the graph pass by pass.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "core/graph.h"

namespace fl {

enum class Stage { Traced, MatchAttention, Decompose, Cse, ConstantFold, Simplify, FoldNormWeight };
inline constexpr Stage kStages[] = {Stage::Traced,       Stage::MatchAttention, Stage::Decompose,     Stage::Cse,
                                    Stage::ConstantFold, Stage::Simplify,       Stage::FoldNormWeight};
inline constexpr Stage kLastStage = Stage::FoldNormWeight;
std::string_view stage_name(Stage s);

struct StageResult {
  Stage stage;
  Graph graph;
  int rewrites = 0;
};

struct PipelineOptions {
  bool match_attention = true;
  Stage stop_after = kLastStage;
  bool verify_each = false;  // run verify() after every pass (tests)
};

// The traced graph first, then one entry per pass that ran.
std::vector<StageResult> run_pipeline(const Graph& traced, const PipelineOptions& opt = {});

// The same stages, each handed to `visit` with the one before it (nullptr
// for the traced graph) and let go after: only two graphs are alive at once
// (a whole model's stages together are tens of megabytes).
void for_each_stage(const Graph& traced, const PipelineOptions& opt,
                    const std::function<void(const StageResult* before, const StageResult& stage)>& visit);

// The final graph of the standard pipeline.
Graph optimize(const Graph& traced, bool attention = true, bool fold_weights = true);

// The rest of the pipeline without attention matching, on a graph that was
// already decomposed (the "decomposed, not fused" partition's graph).
Graph optimize_decomposed(const Graph& decomposed);

}  // namespace fl
