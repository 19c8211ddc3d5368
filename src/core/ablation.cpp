#include "core/ablation.h"

#include <optional>

#include "core/passes/passes.h"
#include "core/pipeline.h"

namespace fl {

namespace {

std::vector<AblationEntry> settings() {
  auto off = [](std::string_view id, Text t, auto turn_off) {
    AblationEntry e{id, t, {}};
    turn_off(e.switches);
    return e;
  };
  return {
      off("all", Text::OurAll, [](AblationSwitches&) {}),
      off("no_fusion", Text::OurNoFusion, [](AblationSwitches& s) { s.fusion = false; }),
      off("no_inlining", Text::OurNoInlining, [](AblationSwitches& s) { s.inlining = false; }),
      off("no_matmul_epilogues", Text::OurNoEpilogues, [](AblationSwitches& s) { s.matmul_epilogues = false; }),
      off("no_attention_matching", Text::OurNoAttention, [](AblationSwitches& s) { s.attention_matching = false; }),
      off("no_weight_folding", Text::OurNoFolding, [](AblationSwitches& s) { s.weight_folding = false; }),
      off("no_cuda_graphs", Text::OurNoCudaGraphs, [](AblationSwitches& s) { s.cuda_graphs = false; }),
      off("no_fusion_no_inlining", Text::OurNoFusionInlining, [](AblationSwitches& s) { s.fusion = s.inlining = false; }),
  };
}

// Fuses an optimised graph as one setting asks and costs it.
GraphCost cost_of(const Graph& optimized, const AblationSwitches& s, const Binding& bind, const Hardware& hw) {
  // With neither fusion nor inlining nothing merges: the decomposed ops each run alone.
  FuseOptions opt;
  opt.enable = s.fusion || s.inlining;
  opt.fusion = s.fusion;
  opt.inlining = s.inlining;
  opt.matmul_epilogues = s.matmul_epilogues;
  Hardware h = hw;
  h.launch = s.cuda_graphs ? hw.graph_launch : hw.launch;
  return graph_cost(fuse(optimized, opt, bind), h);
}

// Costs every setting in one phase. Only attention matching and weight
// folding change the optimised graph: each of the four pipelines runs once,
// for the settings that share it, and its graph is let go before the next (a
// whole model's graph is megabytes; all of them at once were most of the
// whole 405B's memory).
void cost_phase(const AnalysisConfig& c, bool decode, std::vector<AblationEntry>& entries) {
  const Graph traced = c.traced_graph(decode);
  const Binding bind = decode ? c.binding() : Binding{};
  // Eager: composites are one kernel each, launched one by one.
  const double eager = graph_cost(fuse(traced, {false}, bind), c.hw).t_total;
  for (const bool attention : {true, false})
    for (const bool fold_weights : {true, false}) {
      std::optional<Graph> optimized;
      for (AblationEntry& e : entries) {
        if (e.switches.attention_matching != attention || e.switches.weight_folding != fold_weights) continue;
        if (!optimized) optimized = optimize(traced, attention, fold_weights);
        const GraphCost cost = cost_of(*optimized, e.switches, bind, c.hw);
        (decode ? e.decode_speedup : e.prefill_speedup) = eager / cost.t_total;
        (decode ? e.decode_kernels : e.prefill_kernels) = cost.kernels;
        (decode ? e.decode_bytes : e.prefill_bytes) = cost.bytes;
      }
    }
}

}  // namespace

std::vector<AblationEntry> run_ablation(const AnalysisConfig& c) {
  validate(c);
  std::vector<AblationEntry> out = settings();
  cost_phase(c, false, out);
  cost_phase(c, true, out);
  return out;
}

}  // namespace fl
