#include "core/compiled.h"

#include "core/model.h"
#include "core/fusion/repeated.h"
#include "core/regional.h"

namespace fl {

namespace {

// What the trace depends on: the batch is the symbol B, bound when costing.
TraceOptions symbolic_options(const AnalysisConfig& c) {
  TraceOptions o = c.trace_options();
  o.symbolic_batch = true;
  o.batch = 1;
  return o;
}

}  // namespace

PhaseGraphs compile_graphs(const LayerCfg& model, bool decode, const TraceOptions& options) {
  auto optimized = [&](int64_t layers) {
    TraceOptions o = options;
    o.layers = layers;
    return optimize_partitions(decode ? decode_layer(model, ParamMode::shapes(), o) : prefill_layer_symbolic(model, o));
  };
  if (options.layers >= 4 && options.layers <= Limits::kMaxLayers) {
    const PartitionGraphs two = optimized(2), three = optimized(3);
    PhaseGraphs whole;
    for (size_t i = 0; i < whole.graphs.size(); ++i) {
      std::optional<LayerRepeat> repeat = LayerRepeat::read(*two[i], *three[i]);
      if (!repeat) return {optimized(options.layers), {}};
      whole.graphs[i] = std::make_shared<const Graph>(repeat->graph(options.layers));
      whole.repeats[i] = std::move(repeat);
    }
    return whole;
  }
  return {optimized(options.layers), {}};
}

bool CompiledPhase::compiled_for(const AnalysisConfig& c, bool decode_phase) const {
  return decode == decode_phase && model == c.model && options == symbolic_options(c);
}

CompiledPhase compile_phase(const AnalysisConfig& c, bool decode) {
  const TraceOptions options = symbolic_options(c);
  PhaseGraphs compiled = compile_graphs(c.model, decode, options);
  // A whole model's fusion is planned on its repeated layer (fusion/repeated.h) where it repeats.
  auto plan = [&](size_t i, PartitionId options_of) {
    const FuseOptions opt = partition_fuse_options(options_of);
    if (compiled.repeats[i])
      if (std::optional<FusionPlan> p = plan_repeated_fusion(*compiled.repeats[i], options.layers, opt, c.binding())) return std::move(*p);
    return plan_fusion(*compiled.graphs[i], opt, c.binding());
  };
  CompiledPhase out{decode, c.model, options, compiled.graphs, {}, {}};
  for (size_t i = 0; i < out.graphs.size(); ++i) out.plans[i] = plan(i, kAllPartitions[i]);
  if (!decode) out.flash_unfused = plan(3, PartitionId::Eager);  // only prefill's observations ask
  return out;
}

std::vector<Partition> cost_phase(const CompiledPhase& compiled, const AnalysisConfig& c) {
  const Binding bind = c.binding();
  std::vector<Partition> out;
  out.reserve(compiled.graphs.size());
  for (size_t i = 0; i < compiled.graphs.size(); ++i) {
    Partition p{kAllPartitions[i], compiled.graphs[i], fuse_planned(*compiled.graphs[i], compiled.plans[i], bind), {}};
    p.cost = graph_cost(p.kernels, c.hw);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<Partition> cost_shown_phase(const CompiledPhase& compiled, const AnalysisConfig& c) {
  std::vector<Partition> ps = cost_phase(compiled, c);
  if (const std::optional<PartitionId> id = compiler_partition(c.shown_compiler()))
    ps.push_back(make_partition(*id, c.traced_graph(compiled.decode), c.binding(), c.hw));
  return ps;
}

const CompiledPhase& PhaseCompiler::phase(const AnalysisConfig& c, bool decode) {
  std::optional<CompiledPhase>& slot = last_[decode ? 1 : 0];
  if (!slot || !slot->compiled_for(c, decode)) {
    slot = compile_phase(c, decode);
    ++compilations_;
  }
  return *slot;
}

}  // namespace fl
