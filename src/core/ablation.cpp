#include "core/ablation.h"

#include <optional>

#include "core/inductor/partition.h"
#include "core/passes/passes.h"
#include "core/pipeline.h"

namespace fl {

namespace {

std::vector<AblationEntry> settings() {
  auto off = [](std::string_view id, Text t, auto turn_off) {
    AblationEntry e{id, t, std::nullopt, {}};
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

// A setting's cost in one phase, beside eager's time.
void record(AblationEntry& e, bool decode, double eager_s, const GraphCost& cost) {
  (decode ? e.decode_speedup : e.prefill_speedup) = eager_s / cost.t_total;
  (decode ? e.decode_kernels : e.prefill_kernels) = cost.kernels;
  (decode ? e.decode_bytes : e.prefill_bytes) = cost.bytes;
  (decode ? e.decode_eager_s : e.prefill_eager_s) = eager_s;
  (decode ? e.decode_s : e.prefill_s) = cost.t_total;
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
        record(e, decode, eager, cost_of(*optimized, e.switches, bind, c.hw));
      }
    }
}

// Table 4's rows for torch.compile under the Inductor model.
std::vector<AblationEntry> inductor_settings() {
  auto row = [](std::string_view id, Text t, std::optional<Text> why_not = std::nullopt) {
    return AblationEntry{id, t, why_not, {}};
  };
  AblationEntry no_freezing = row("no_freezing", Text::AblNoFreezing);
  no_freezing.switches.freezing = false;
  AblationEntry no_patterns = row("no_pattern_matching", Text::AblNoPatternsOnline);
  no_patterns.switches.pattern_matching = false;
  AblationEntry no_graphs = row("no_cudagraphs", Text::AblNoCudaGraphs);
  no_graphs.switches.cuda_graphs = false;
  AblationEntry no_fusion = row("no_fusion", Text::AblNoFusion);
  no_fusion.switches.fusion = false;
  return {row("all", Text::AblInductorAll),
          row("no_loop_reordering", Text::AblNoReorder, Text::AblNotModelledReorder),
          row("no_templates", Text::AblNoTemplates, Text::AblNotModelledTemplates),
          no_freezing,
          no_patterns,
          no_graphs,
          no_fusion,
          row("no_inlining", Text::AblNoInlining, Text::AblNotModelledInlining),
          row("no_fusion_inlining", Text::AblNoFusionInlining, Text::AblNotModelledInlining)};
}

// The modelled rows of one phase: Inductor's kernels (fusion off: at most one
// scheduler node a kernel), replayed as a CUDA graph or launched one by one.
void cost_inductor_phase(const AnalysisConfig& c, bool decode, std::vector<AblationEntry>& entries) {
  const Graph traced = c.traced_graph(decode);
  const Binding bind = c.binding();
  const double eager = graph_cost(fuse(traced, {false}, bind), c.hw).t_total;
  for (AblationEntry& e : entries) {
    if (e.not_modelled) continue;
    inductor::Options opt;
    if (!e.switches.fusion) opt.max_fusion_size = 1;
    opt.freezing = e.switches.freezing;
    opt.pattern_matching = e.switches.pattern_matching;
    Hardware hw = c.hw;
    hw.launch = e.switches.cuda_graphs ? c.hw.graph_launch : c.hw.launch;
    record(e, decode, eager, inductor::inductor_partition(PartitionId::Inductor, traced, bind, hw, opt).cost);
  }
}

}  // namespace

std::vector<AblationEntry> run_ablation(const AnalysisConfig& c) {
  validate(c);
  if (c.shown_compiler() == Compiler::Inductor) {
    std::vector<AblationEntry> out = inductor_settings();
    cost_inductor_phase(c, false, out);
    cost_inductor_phase(c, true, out);
    return out;
  }
  std::vector<AblationEntry> out = settings();
  cost_phase(c, false, out);
  cost_phase(c, true, out);
  return out;
}

}  // namespace fl
