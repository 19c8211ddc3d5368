// Demos 2 and 3: the four partitions of a layer (or a whole model) in
// prefill and in decode.
#include <algorithm>

#include "core/compiled.h"
#include "core/demos/demos.h"
#include "core/demos/observations.h"
#include "core/units.h"

namespace fl {

namespace demos {

std::vector<Partition> phase_partitions(const AnalysisConfig& c, bool decode) {
  return cost_phase(compile_phase(c, decode), c);
}

}  // namespace demos

using namespace demos;

PhaseReport prefill_report(const AnalysisConfig& c) { return prefill_report(c, compile_phase(c, false)); }
PhaseReport decode_report(const AnalysisConfig& c) { return decode_report(c, compile_phase(c, true)); }

PhaseReport prefill_report(const AnalysisConfig& c, const CompiledPhase& compiled) {
  Lang L = c.lang;
  const int64_t T = c.tokens;
  std::vector<Partition> ps = cost_shown_phase(compiled, c);
  const Partition& fused = ps[static_cast<size_t>(PhaseReport::slowest_of)];

  PhaseReport r;
  r.demo = 2;
  r.config = c;
  r.title = tr(Text::Demo2Title, L, {workload_name(c, L), token_count(T, L), precision_name(c), costed_hardware_name(c, L),
                                     fmt_time(c.hw.launch)});
  std::vector<size_t> order(fused.kernels.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernel_time(fused.kernels[a], c.hw) > kernel_time(fused.kernels[b], c.hw);
  });
  for (size_t i = 0; i < std::min<size_t>(4, order.size()); ++i) r.slowest.push_back(kernel_report(fused, order[i], c.hw, L, false));

  r.score_bytes = c.batch * c.model.H * T * T * dtype_bytes(c.act);  // one layer's
  r.observations = prefill_observations(
      c, ps, [&] { return fuse_planned(*compiled.graphs[3], compiled.flash_unfused, c.binding()); });
  r.memory = memory_report(c, T);
  if (std::optional<Observation> o = compiler_observation(c, ps)) r.observations.push_back(std::move(*o));
  if (std::optional<Observation> o = measured_observation(c, false, ps)) r.observations.push_back(std::move(*o));
  if (!r.memory.fits) r.observations.push_back(memory_observation(r.memory));
  r.partitions = partition_reports(ps, c, T * c.batch);
  return r;
}

PhaseReport decode_report(const AnalysisConfig& c, const CompiledPhase& compiled) {
  Lang L = c.lang;
  const int64_t S = c.kv_len;
  std::vector<Partition> ps = cost_shown_phase(compiled, c);

  PhaseReport r;
  r.demo = 3;
  r.config = c;
  r.title = tr(Text::Demo3Title, L, {c.whole_model || c.batch > 1 ? workload_name(c, L) : std::string(tr(Text::SameLayer, L)),
                                     count(S)});
  r.weight_bytes = parameter_bytes(*ps[0].graph);  // the eager partition runs the traced graph
  r.kv_cache_bytes = cache_bytes(*ps[0].graph, c.binding());
  r.observations = decode_observations(c, ps, r.weight_bytes, r.kv_cache_bytes);
  r.memory = memory_report(c, S);
  if (std::optional<Observation> o = compiler_observation(c, ps)) r.observations.push_back(std::move(*o));
  if (std::optional<Observation> o = measured_observation(c, true, ps)) r.observations.push_back(std::move(*o));
  r.observations.push_back(memory_observation(r.memory));
  r.partitions = partition_reports(ps, c, c.batch);
  return r;
}

}  // namespace fl
