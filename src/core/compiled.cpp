#include "core/compiled.h"

#include "core/model.h"

namespace fl {

bool CompiledPhase::compiled_for(const AnalysisConfig& c, bool decode_phase) const {
  return decode == decode_phase && model == c.model && options == c.trace_options();
}

CompiledPhase compile_phase(const AnalysisConfig& c, bool decode) {
  const TraceOptions options = c.trace_options();
  const Graph traced = decode ? decode_layer(c.model, ParamMode::shapes(), options) : prefill_layer_symbolic(c.model, options);
  return {decode, c.model, options, optimize_partitions(traced)};
}

std::vector<Partition> cost_phase(const CompiledPhase& compiled, const AnalysisConfig& c) {
  return cost_partitions(compiled.graphs, c.binding(), c.hw);
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
