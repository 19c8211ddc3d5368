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

// One traced graph through the pipelines the settings ask for: only attention
// matching and weight folding change the graph, so each of those pipelines
// runs once (a whole model's takes tens of milliseconds).
class Pipelines {
 public:
  explicit Pipelines(const Graph& traced) : traced_(traced) {}
  const Graph& optimized(bool attention, bool fold_weights) {
    std::optional<Graph>& g = graphs_[attention][fold_weights];
    if (!g) g = optimize(traced_, attention, fold_weights);
    return *g;
  }

 private:
  const Graph& traced_;
  std::optional<Graph> graphs_[2][2];
};

// Total time of one setting.
GraphCost cost_of(Pipelines& pipelines, const AblationSwitches& s, const Binding& bind, const Hardware& hw) {
  // With neither fusion nor inlining nothing merges: the decomposed ops each run alone.
  FuseOptions opt;
  opt.enable = s.fusion || s.inlining;
  opt.fusion = s.fusion;
  opt.inlining = s.inlining;
  opt.matmul_epilogues = s.matmul_epilogues;
  const Graph& g = pipelines.optimized(s.attention_matching, s.weight_folding);
  Hardware h = hw;
  h.launch = s.cuda_graphs ? hw.graph_launch : hw.launch;
  return graph_cost(fuse(g, opt, bind), h);
}

}  // namespace

std::vector<AblationEntry> run_ablation(const AnalysisConfig& c) {
  validate(c);
  const Graph prefill = c.traced_graph(false), decode = c.traced_graph(true);
  const Binding bind = c.binding();
  // Eager: composites are one kernel each, launched one by one.
  double eager_prefill = graph_cost(fuse(prefill, {false}), c.hw).t_total;
  double eager_decode = graph_cost(fuse(decode, {false}, bind), c.hw).t_total;

  Pipelines prefill_pipelines(prefill), decode_pipelines(decode);
  std::vector<AblationEntry> out = settings();
  for (AblationEntry& e : out) {
    GraphCost p = cost_of(prefill_pipelines, e.switches, {}, c.hw), d = cost_of(decode_pipelines, e.switches, bind, c.hw);
    e.prefill_speedup = eager_prefill / p.t_total;
    e.decode_speedup = eager_decode / d.t_total;
    e.prefill_kernels = p.kernels;
    e.decode_kernels = d.kernels;
    e.prefill_bytes = p.bytes;
    e.decode_bytes = d.bytes;
  }
  return out;
}

}  // namespace fl
