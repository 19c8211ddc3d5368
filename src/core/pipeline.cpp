#include "core/pipeline.h"

#include "core/passes/passes.h"

namespace fl {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Traced: return "traced";
    case Stage::MatchAttention: return "match_attention";
    case Stage::Decompose: return "decompose";
    case Stage::Cse: return "cse";
    case Stage::ConstantFold: return "constant_fold";
    case Stage::Simplify: return "simplify";
    case Stage::FoldNormWeight: return "fold_norm_weight";
  }
  return "?";
}

namespace {
using Pass = PassResult (*)(const Graph&);
constexpr std::pair<Stage, Pass> kPasses[] = {
    {Stage::MatchAttention, match_attention}, {Stage::Decompose, decompose},   {Stage::Cse, cse},
    {Stage::ConstantFold, constant_fold},     {Stage::Simplify, simplify},     {Stage::FoldNormWeight, fold_norm_weight},
};

// Runs the passes after `from` up to `to` on g, keeping only the last graph.
Graph run_after(Graph g, Stage from, Stage to = kLastStage) {
  for (auto [stage, pass] : kPasses)
    if (static_cast<int>(stage) > static_cast<int>(from) && static_cast<int>(stage) <= static_cast<int>(to))
      g = pass(g).graph;
  return g;
}
}  // namespace

namespace {

// Whether `opt` runs the pass of `stage`.
bool runs(const PipelineOptions& opt, Stage stage) {
  return static_cast<int>(stage) <= static_cast<int>(opt.stop_after) && (stage != Stage::MatchAttention || opt.match_attention);
}

StageResult run_stage(const StageResult& before, Stage stage, Pass pass, const PipelineOptions& opt) {
  PassResult r = pass(before.graph);
  if (opt.verify_each) verify(r.graph);
  return {stage, std::move(r.graph), r.rewrites};
}

}  // namespace

std::vector<StageResult> run_pipeline(const Graph& traced, const PipelineOptions& opt) {
  std::vector<StageResult> out;
  out.push_back({Stage::Traced, traced, 0});
  for (auto [stage, pass] : kPasses)
    if (runs(opt, stage)) out.push_back(run_stage(out.back(), stage, pass, opt));
  return out;
}

void for_each_stage(const Graph& traced, const PipelineOptions& opt,
                    const std::function<void(const StageResult* before, const StageResult& stage)>& visit) {
  StageResult last{Stage::Traced, traced, 0};
  visit(nullptr, last);
  for (auto [stage, pass] : kPasses) {
    if (!runs(opt, stage)) continue;
    StageResult next = run_stage(last, stage, pass, opt);
    visit(&last, next);
    last = std::move(next);
  }
}

Graph optimize(const Graph& traced, bool attention, bool fold_weights) {
  Stage last = fold_weights ? kLastStage : Stage::Simplify;
  if (!attention) return run_after(decompose(traced).graph, Stage::Decompose, last);
  return run_after(match_attention(traced).graph, Stage::MatchAttention, last);
}

Graph optimize_decomposed(const Graph& decomposed) { return run_after(decomposed, Stage::Decompose); }

}  // namespace fl
