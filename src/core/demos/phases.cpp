// Demos 2 and 3: the four partitions of a layer (or a whole model) in
// prefill and in decode.
#include <algorithm>

#include "core/demos/demos.h"
#include "core/demos/observations.h"
#include "core/units.h"

namespace fl::demos {

std::vector<Partition> phase_partitions(const AnalysisConfig& c, bool decode) {
  return four_partitions(c.traced_graph(decode), c.binding(), c.hw);
}

json prefill_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t T = c.tokens;
  std::vector<Partition> ps = phase_partitions(c, false);
  const Partition& fused = ps[2];

  std::vector<size_t> order(fused.kernels.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernel_time(fused.kernels[a], c.hw) > kernel_time(fused.kernels[b], c.hw);
  });
  json slowest = json::array();
  for (size_t i = 0; i < std::min<size_t>(4, order.size()); ++i) slowest.push_back(kernel_json(fused, order[i], c.hw, L, false));

  const int64_t score_bytes = c.batch * c.model.H * T * T * dtype_bytes(c.act);  // one layer's
  std::vector<Observation> obs = prefill_observations(c, ps);
  json memory = memory_json(c, T);
  if (!memory["fits"].get<bool>()) obs.push_back(memory_observation(memory));

  return {{"demo", 2},
          {"title", tr(Text::Demo2Title, L, {workload_name(c, L), std::to_string(T), precision_name(c),
                                             hardware_name(c, L), fmt_time(c.hw.launch)})},
          {"phase", "prefill"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c, T * c.batch)},
          {"slowest", slowest},
          {"score_bytes", score_bytes},
          {"memory", memory},
          {"observations", observations_json(obs)}};
}

json decode_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t S = c.kv_len;
  std::vector<Partition> ps = phase_partitions(c, true);

  const int64_t traced_layers = c.whole_model ? c.layers : 1;
  const int64_t weights = parameter_bytes(ps[0].graph);  // the eager partition runs the traced graph
  const int64_t kv = kv_cache_bytes(c.model, traced_layers, c.batch, S, c.act);
  std::vector<Observation> obs = decode_observations(c, ps, weights, kv);
  json memory = memory_json(c, S);
  obs.push_back(memory_observation(memory));

  return {{"demo", 3},
          {"title", tr(Text::Demo3Title, L, {c.whole_model || c.batch > 1 ? workload_name(c, L) : std::string(tr(Text::SameLayer, L)),
                                             std::to_string(S)})},
          {"phase", "decode"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c, c.batch)},
          {"weight_bytes", weights},
          {"kv_cache_bytes", kv},
          {"memory", memory},
          {"observations", observations_json(obs)}};
}

}  // namespace fl::demos
