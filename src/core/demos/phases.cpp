// Demos 2 and 3: the four partitions of a layer (or a whole model) in
// prefill and in decode.
#include <algorithm>

#include "core/demos/demos.h"
#include "core/units.h"

namespace fl::demos {

std::vector<Partition> phase_partitions(const AnalysisConfig& c, bool decode) {
  return four_partitions(c.traced_graph(decode), c.binding(), c.hw);
}

json prefill_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t T = c.tokens;
  std::vector<Partition> ps = phase_partitions(c, false);
  const Partition &eager = ps[0], &dec = ps[1], &fused = ps[2], &flash = ps[3];

  std::vector<size_t> order(fused.kernels.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return kernel_time(fused.kernels[a], c.hw) > kernel_time(fused.kernels[b], c.hw);
  });
  json slowest = json::array();
  for (size_t i = 0; i < std::min<size_t>(4, order.size()); ++i) slowest.push_back(kernel_json(fused, order[i], c.hw, L, false));

  double matmul_t = 0;
  int matmuls = 0, compute_bound = 0;
  for (const Kernel& k : flash.kernels) {
    if (k.kind != KernelKind::MatMul && k.kind != KernelKind::Attention) continue;
    matmul_t += kernel_time(k, c.hw);
    if (k.kind == KernelKind::MatMul) {
      ++matmuls;
      compute_bound += compute_time(k, c.hw) > memory_time(k, c.hw);
    }
  }
  int64_t score_bytes = c.batch * c.model.H * T * T * dtype_bytes(c.act);  // one layer's

  json obs = json::array();
  bool slower = dec.cost.t_total > eager.cost.t_total;
  obs.push_back(tr(slower ? Text::Demo2Obs1Slower : Text::Demo2Obs1NotSlower, L,
                   {fmt_time(dec.cost.t_total), fmt_time(eager.cost.t_total), fb(eager.cost.bytes), fb(dec.cost.bytes)}));
  obs.push_back(tr(Text::Demo2Obs2, L, {fb(dec.cost.bytes), fb(fused.cost.bytes), std::to_string(c.batch * c.model.H),
                                        std::to_string(T), fb(score_bytes)}));
  obs.push_back(tr(Text::Demo2Obs3, L, {fb(flash.cost.bytes), fmt_percent(matmul_t / flash.cost.t)}));
  obs.push_back(tr(Text::Demo2Obs4, L, {std::to_string(T), std::to_string(matmuls), std::to_string(compute_bound),
                                        fmt_percent(flash.cost.overhead / flash.cost.t_total)}));
  json memory = memory_json(c, T);
  if (!memory["fits"].get<bool>()) obs.push_back(memory["text"]);

  return {{"demo", 2},
          {"title", tr(Text::Demo2Title, L, {workload_name(c, L), std::to_string(T), precision_name(c),
                                             hardware_name(c, L), fmt_time(c.hw.launch)})},
          {"phase", "prefill"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c)},
          {"slowest", slowest},
          {"score_bytes", score_bytes},
          {"memory", memory},
          {"observations", obs}};
}

json decode_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t S = c.kv_len;
  std::vector<Partition> ps = phase_partitions(c, true);
  const Partition &dec = ps[1], &fused = ps[2], &flash = ps[3];

  const int64_t traced_layers = c.whole_model ? c.layers : 1;
  int64_t weights = parameter_bytes(ps[0].graph);  // the eager partition runs the traced graph
  int64_t kv = kv_cache_bytes(c.model, traced_layers, c.batch, S, c.act);
  double t_lo = ps[0].cost.t, t_hi = ps[0].cost.t;
  int64_t b_lo = ps[0].cost.bytes, b_hi = ps[0].cost.bytes;
  for (const Partition& p : ps) {
    t_lo = std::min(t_lo, p.cost.t), t_hi = std::max(t_hi, p.cost.t);
    b_lo = std::min(b_lo, p.cost.bytes), b_hi = std::max(b_hi, p.cost.bytes);
  }

  json obs = json::array();
  std::string weights_text = tr(c.whole_model ? Text::WeightsWholeModel : Text::WeightsPerLayer, L, {fb(weights)});
  obs.push_back(tr(Text::Demo3Obs1, L, {weights_text, std::to_string(S), fb(kv), fb(b_hi), fb(b_lo), fmt_time((t_lo + t_hi) / 2)}));
  obs.push_back(tr(Text::Demo3Obs2, L, {std::to_string(dec.cost.kernels), std::to_string(flash.cost.kernels), fmt_time(dec.cost.overhead),
                                        fmt_percent(dec.cost.overhead / dec.cost.t), fmt_time(flash.cost.overhead),
                                        fmt_percent(flash.cost.overhead / flash.cost.t_total)}));
  obs.push_back(tr(Text::Demo3Obs3, L, {fmt_time(flash.cost.t_total), fmt_time(fused.cost.t_total),
                                        std::to_string(c.batch * c.model.H), std::to_string(S),
                                        fb(c.batch * c.model.H * S * dtype_bytes(c.act))}));
  json memory = memory_json(c, S);
  obs.push_back(memory["text"]);

  return {{"demo", 3},
          {"title", tr(Text::Demo3Title, L, {c.whole_model || c.batch > 1 ? workload_name(c, L) : std::string(tr(Text::SameLayer, L)),
                                             std::to_string(S)})},
          {"phase", "decode"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c)},
          {"weight_bytes", weights},
          {"kv_cache_bytes", kv},
          {"memory", memory},
          {"observations", obs}};
}

}  // namespace fl::demos
