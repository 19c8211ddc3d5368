#include <cctype>
#include <cmath>

#include "core/demos/demos.h"
#include "core/fusion/rules.h"
#include "core/presets.h"
#include "core/units.h"

namespace fl::demos {

std::string fb(int64_t b) { return fmt_bytes(static_cast<double>(b)); }

std::string model_name(const AnalysisConfig& c, Lang lang) {
  const ModelPreset* m = find_model(c.model_key);
  if (m && m->layer == c.model) return m->key == "small" ? std::string(tr(Text::ModelSmall, lang)) : std::string(m->name);
  const LayerCfg& l = c.model;
  return std::string(tr(Text::ModelCustom, lang)) + " (" + std::to_string(l.d) + ", " + std::to_string(l.H) + ", " +
         std::to_string(l.G) + ", " + std::to_string(l.dh) + ", " + std::to_string(l.f) + ")";
}

std::string hardware_name(const AnalysisConfig& c, Lang lang) {
  const HardwarePreset* h = find_hardware(c.hardware_key);
  return h && h->hw == c.hw ? std::string(h->name) : std::string(tr(Text::HardwareCustom, lang));
}

std::string workload_name(const AnalysisConfig& c, Lang lang) {
  std::string s = c.whole_model ? tr(Text::WorkloadModel, lang, {model_name(c, lang), std::to_string(c.layers)})
                                : tr(Text::WorkloadLayer, lang, {model_name(c, lang)});
  if (c.batch > 1) s += tr(Text::WorkloadBatch, lang, {std::to_string(c.batch)});
  return s;
}

std::string precision_name(const AnalysisConfig& c) {
  auto upper = [](std::string_view s) {
    std::string u(s);
    for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return u;
  };
  std::string s = upper(dtype_name(c.act));
  if (c.weights != c.act) s += ", " + upper(dtype_name(c.weights)) + " weights";
  return s;
}

json config_json(const AnalysisConfig& c) {
  return {{"d", c.model.d},
          {"heads", c.model.H},
          {"kv_heads", c.model.G},
          {"head_dim", c.model.dh},
          {"ffn", c.model.f},
          {"tokens", c.tokens},
          {"kv_len", c.kv_len},
          {"batch", c.batch},
          {"layers", c.layers},
          {"whole_model", c.whole_model},
          {"vocab", c.vocab},
          {"dtype", dtype_name(c.act)},
          {"weights_dtype", dtype_name(c.weights)},
          {"model", c.model_key},
          {"model_name", model_name(c, c.lang)},
          {"hardware", c.hardware_key},
          {"hardware_name", hardware_name(c, c.lang)},
          {"hw", {{"matmul_flops", c.hw.matmul_flops}, {"other_flops", c.hw.other_flops}, {"bandwidth", c.hw.bandwidth},
                  {"launch", c.hw.launch}, {"graph_launch", c.hw.graph_launch}, {"memory", c.hw.memory}}}};
}


json kernel_json(const Partition& p, size_t i, const Hardware& hw, Lang lang, bool detail) {
  const Kernel& k = p.kernels[i];
  // Built key by key in sorted order (each insert lands at the end of the
  // map): a whole model has ~10k kernels, and an initializer list copies
  // every value once more.
  json j(json::value_t::object);
  json::object_t& o = *j.get_ptr<json::object_t*>();
  auto put = [&o](const char* key, json value) { o.emplace_hint(o.end(), key, std::move(value)); };
  put("flops", k.flops());
  put("index", i);
  put("kind", kernel_kind_name(k.kind));
  put("label", k.label);
  put("nodes", k.nodes.size());
  put("reads", k.reads);
  put("t", kernel_time(k, hw));
  put("t_compute", compute_time(k, hw));
  put("t_memory", memory_time(k, hw));
  put("writes", k.writes);
  if (!detail) return j;
  json nodes = json::array();
  for (NodeId id : k.nodes) nodes.push_back(node_str(p.graph, id));
  json ends = json::array();
  for (const KernelEdge& e : k.ends) {
    std::string tensor = "%" + std::to_string(e.tensor) + " " + std::string(op_name(p.graph.node(e.tensor).op));
    std::string why(tr(fusion::boundary_text(e.why), lang));
    ends.push_back({{"tensor", e.tensor},
                    {"consumer", e.consumer},
                    {"why", boundary_name(e.why)},
                    {"text", e.consumer >= 0 ? tr(Text::EndsTo, lang, {tensor, std::to_string(e.consumer), why})
                                             : tr(Text::EndsOut, lang, {tensor, why})}});
  }
  j["node_list"] = nodes;
  j["ends"] = ends;
  return j;
}

json partitions_json(const std::vector<Partition>& ps, const AnalysisConfig& c, int64_t tokens_per_step) {
  json out = json::array();
  double eager = ps.front().cost.t_total;
  // One layer stands for all of the model's layers.
  double steps_per_s = 1.0 / (c.whole_model ? 1.0 : static_cast<double>(c.layers));
  for (const Partition& p : ps) {
    json list = json::array();
    for (size_t i = 0; i < p.kernels.size(); ++i) list.push_back(kernel_json(p, i, c.hw, c.lang, false));
    out.push_back({{"id", partition_key(p.id)},
                   {"name", tr(partition_text(p.id), c.lang)},
                   {"kernels", p.cost.kernels},
                   {"bytes", p.cost.bytes},
                   {"flops", p.cost.flops},
                   {"t", p.cost.t},
                   {"overhead", p.cost.overhead},
                   {"t_total", p.cost.t_total},
                   {"overhead_share", p.cost.overhead / p.cost.t_total},
                   {"speedup", eager / p.cost.t_total},
                   {"tokens_per_s", static_cast<double>(tokens_per_step) * steps_per_s / p.cost.t_total},
                   {"kernel_list", list}});
  }
  return out;
}

json memory_json(const AnalysisConfig& c, int64_t S) {
  int64_t weights = model_parameter_bytes(c.model, c.layers, c.vocab, c.tied_embeddings, c.trace_options());
  int64_t kv = kv_cache_bytes(c.model, c.layers, c.batch, S, c.act);
  double total = static_cast<double>(weights + kv);
  int gpus = static_cast<int>(std::ceil(total / c.hw.memory));
  std::vector<std::string> args{fb(weights), fb(kv), std::to_string(c.batch), std::to_string(S), fb(weights + kv),
                                hardware_name(c, c.lang), fmt_bytes(c.hw.memory), std::to_string(gpus)};
  return {{"weights", weights},
          {"kv_cache", kv},
          {"total", weights + kv},
          {"capacity", c.hw.memory},
          {"fits", total <= c.hw.memory},
          {"gpus", gpus},
          {"text", tr(total <= c.hw.memory ? Text::MemoryFits : Text::MemoryTooBig, c.lang, args)}};
}

}  // namespace fl::demos
