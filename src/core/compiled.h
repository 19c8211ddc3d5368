// Compile once, cost many: a phase's four partition graphs, traced with the
// sizes that change most as symbols (T in prefill, S in decode, the batch B in
// both) and optimised once, then fused and costed under any value of them. A
// student dragging T, or a sweep of 64 values of S, runs the passes once.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "core/analysis.h"
#include "core/fusion/plan.h"
#include "core/partitions.h"
#include "core/regional.h"

namespace fl {

struct CompiledPhase {
  bool decode = false;
  LayerCfg model;
  TraceOptions options;  // dtypes, the whole model or one layer (the batch a symbol)
  PartitionGraphs graphs;
  std::array<FusionPlan, std::size(kAllPartitions)> plans;  // each graph's fusion, planned at the compiling binding
  FusionPlan flash_unfused;  // prefill: the FlashAttention graph with fusion off (what fusion saves outside attention)

  // Whether the graphs are those of `c`'s phase: everything the trace depends
  // on is the same (T, S, the batch and the GPU are bound later).
  bool compiled_for(const AnalysisConfig& c, bool decode_phase) const;
};

CompiledPhase compile_phase(const AnalysisConfig& c, bool decode);

// The four partitions' graphs of a phase traced with `options`. A whole model
// is compiled from the same model with two and three layers, whose passes show
// the graph of its repeated layer (regional.h); the passes see the whole trace
// only where they do not. Each graph's repeat is kept for its fusion
// (fusion/repeated.h): none where the passes saw the whole trace.
struct PhaseGraphs {
  PartitionGraphs graphs;
  std::array<std::optional<LayerRepeat>, std::size(kAllPartitions)> repeats;
};
PhaseGraphs compile_graphs(const LayerCfg& model, bool decode, const TraceOptions& options);

// The four partitions of `c`'s phase from graphs compiled for it: measured
// and costed under c.binding() on c.hw (fused anew only where a plan's guard
// fails there).
std::vector<Partition> cost_phase(const CompiledPhase& compiled, const AnalysisConfig& c);

// The partitions a view of `c` shows: those four, then the chosen compiler's
// kernels (its model partitions a graph traced at c's sizes: it is not
// compiled once).
std::vector<Partition> cost_shown_phase(const CompiledPhase& compiled, const AnalysisConfig& c);

// The last prefill and decode compiled, kept until what their trace depends on
// changes (the page's edits and sweeps hold one).
class PhaseCompiler {
 public:
  const CompiledPhase& phase(const AnalysisConfig& c, bool decode);
  int compilations() const { return compilations_; }  // how often the passes ran (tests)

 private:
  std::array<std::optional<CompiledPhase>, 2> last_;  // prefill, decode
  int compilations_ = 0;
};

}  // namespace fl
