// The four demos of the seed, computed: each returns the JSON object that the
// CLI prints (--json) and the page renders.
#include "core/analysis.h"

#include <algorithm>
#include <cmath>

#include "core/partitions.h"
#include "core/units.h"

namespace fl {

using nlohmann::json;

AnalysisConfig AnalysisConfig::for_demo(int demo) {
  AnalysisConfig c;
  c.demo = demo;
  if (demo == 1) {
    c.model = kSmallCfg;
    c.tokens = 16;
  }
  return c;
}

void validate(const AnalysisConfig& c) {
  if (c.demo < 1 || c.demo > 4) throw ConfigError("demo", Text::ErrRange, {"demo", std::to_string(c.demo), "4"});
  validate(c.model);
  validate_tokens("tokens", c.tokens, Limits::kMaxTokens);
  validate_tokens("kv-len", c.kv_len, Limits::kMaxKvLen);
  validate_tokens("layers", c.layers, 1000);
  validate(c.hw);
}

namespace {

std::string model_name(const LayerCfg& m, Lang lang) {
  std::string dims = "(" + std::to_string(m.d) + ", " + std::to_string(m.H) + ", " + std::to_string(m.G) + ", " +
                     std::to_string(m.dh) + ", " + std::to_string(m.f) + ")";
  if (m == kLlama8B) return std::string(tr(Text::ModelLlama8B, lang));
  return std::string(tr(m == kSmallCfg ? Text::ModelSmall : Text::ModelCustom, lang)) + " " + dims;
}

json config_json(const AnalysisConfig& c) {
  return {{"d", c.model.d},          {"heads", c.model.H},   {"kv_heads", c.model.G},
          {"head_dim", c.model.dh},  {"ffn", c.model.f},     {"tokens", c.tokens},
          {"kv_len", c.kv_len},      {"layers", c.layers},   {"model", model_name(c.model, c.lang)},
          {"hardware", {{"matmul_flops", c.hw.matmul_flops}, {"other_flops", c.hw.other_flops},
                        {"bandwidth", c.hw.bandwidth}, {"launch", c.hw.launch}}}};
}

Text why_text(Boundary b) {
  switch (b) {
    case Boundary::FusionOff: return Text::WhyFusionOff;
    case Boundary::MatmulNoPrologue: return Text::WhyMatmulNoPrologue;
    case Boundary::ReductionAfterMatmul: return Text::WhyReductionAfterMatmul;
    case Boundary::OpaqueKernel: return Text::WhyOpaque;
    case Boundary::IterationSpace: return Text::WhyIterationSpace;
    case Boundary::OneAnchorPerKernel: return Text::WhyOneAnchor;
    case Boundary::WouldCycle: return Text::WhyCycle;
    case Boundary::GraphOutput: return Text::WhyOutput;
  }
  return Text::WhyOneAnchor;
}

json kernel_json(const Partition& p, size_t i, const Hardware& hw, Lang lang, bool detail) {
  const Kernel& k = p.kernels[i];
  json j = {{"index", i},
            {"kind", kernel_kind_name(k.kind)},
            {"label", k.label},
            {"nodes", k.nodes.size()},
            {"reads", k.reads},
            {"writes", k.writes},
            {"flops", k.flops()},
            {"t", kernel_time(k, hw)},
            {"t_compute", compute_time(k, hw)},
            {"t_memory", memory_time(k, hw)}};
  if (!detail) return j;
  json nodes = json::array();
  for (NodeId id : k.nodes) nodes.push_back(node_str(p.graph, id));
  json ends = json::array();
  for (const KernelEdge& e : k.ends) {
    std::string tensor = "%" + std::to_string(e.tensor) + " " + std::string(op_name(p.graph.node(e.tensor).op));
    std::string why(tr(why_text(e.why), lang));
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

// Index of the first kernel containing a node that satisfies `pred`, or -1.
template <class Pred>
int find_kernel(const Partition& p, Pred pred) {
  for (size_t i = 0; i < p.kernels.size(); ++i)
    for (NodeId id : p.kernels[i].nodes)
      if (pred(p.graph.node(id), id)) return static_cast<int>(i);
  return -1;
}

// The kernel of the projection by weight `name` (its folded name ends with it).
int projection_kernel(const Partition& p, const std::string& name) {
  return find_kernel(p, [&](const Node& n, NodeId) {
    if (n.op != Op::MatMul) return false;
    const std::string& w = p.graph.node(n.inputs[1]).attrs.name;
    return w.size() >= name.size() && w.compare(w.size() - name.size(), name.size(), name) == 0 &&
           (w.size() == name.size() || w[w.size() - name.size() - 1] == '*');
  });
}

std::string kernel_ref(const Partition& p, int i) {
  return i < 0 ? "-" : "#" + std::to_string(i) + " " + p.kernels[static_cast<size_t>(i)].label;
}

json demo1(const AnalysisConfig& c) {
  Lang L = c.lang;
  Graph g = prefill_layer(c.model, c.tokens, 0, ParamMode::shapes());
  Partition fused = make_partition(PartitionId::FusedFlash, g, {}, c.hw);
  Partition unfused = make_partition(PartitionId::Decomposed, g, {}, c.hw);

  json kernels = json::array();
  for (size_t i = 0; i < fused.kernels.size(); ++i) kernels.push_back(kernel_json(fused, i, c.hw, L, true));

  int norm = find_kernel(fused, [](const Node& n, NodeId) { return n.op == Op::Mean; });
  int q = projection_kernel(fused, "wq"), k = projection_kernel(fused, "wk"), o = projection_kernel(fused, "wo");
  int gate = projection_kernel(fused, "w_gate"), up = projection_kernel(fused, "w_up");
  int down = projection_kernel(fused, "w_down");
  int attn = find_kernel(fused, [](const Node& n, NodeId) { return n.op == Op::Attention; });
  int views = 0;
  for (const Node& n : fused.graph.nodes()) views += op_kind(n.op) == OpKind::View;
  const Kernel* nk = norm >= 0 ? &fused.kernels[static_cast<size_t>(norm)] : nullptr;

  json obs = json::array();
  if (nk)
    obs.push_back(tr(Text::Demo1Obs1, L, {std::to_string(norm), std::string(kernel_kind_name(nk->kind)), nk->label,
                                          fmt_bytes(static_cast<double>(nk->reads)), fmt_bytes(static_cast<double>(nk->writes))}));
  obs.push_back(tr(Text::Demo1Obs2, L, {std::to_string(q), std::to_string(k), q >= 0 ? fused.kernels[static_cast<size_t>(q)].label : "-",
                                        kernel_ref(fused, o), kernel_ref(fused, down), kernel_ref(fused, gate), kernel_ref(fused, up)}));
  obs.push_back(tr(Text::Demo1Obs3, L, {std::to_string(attn), std::to_string(views)}));

  return {{"demo", 1},
          {"title", tr(Text::Demo1Title, L, {std::to_string(c.model.d), std::to_string(c.tokens)})},
          {"config", config_json(c)},
          {"kernels", kernels},
          {"unfused", {{"kernels", unfused.cost.kernels}, {"bytes", unfused.cost.bytes}}},
          {"fused", {{"kernels", fused.cost.kernels}, {"bytes", fused.cost.bytes}}},
          {"summary", tr(Text::Demo1Summary, L, {std::to_string(unfused.cost.kernels), fmt_bytes(static_cast<double>(unfused.cost.bytes)),
                                                 std::to_string(fused.cost.kernels), fmt_bytes(static_cast<double>(fused.cost.bytes))})},
          {"observations", obs}};
}

json partitions_json(const std::vector<Partition>& ps, const AnalysisConfig& c) {
  json out = json::array();
  double eager = ps.front().cost.t_total;
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
                   {"tokens_per_s", 1.0 / (static_cast<double>(c.layers) * p.cost.t_total)},
                   {"kernel_list", list}});
  }
  return out;
}

std::string fb(int64_t b) { return fmt_bytes(static_cast<double>(b)); }

json demo2(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t T = c.tokens;
  Graph g = prefill_layer(c.model, T, 0, ParamMode::shapes());
  std::vector<Partition> ps = four_partitions(g, {}, c.hw);
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
  int64_t score_bytes = c.model.H * T * T * 2;

  json obs = json::array();
  bool slower = dec.cost.t_total > eager.cost.t_total;
  obs.push_back(tr(slower ? Text::Demo2Obs1Slower : Text::Demo2Obs1NotSlower, L,
                   {fmt_time(dec.cost.t_total), fmt_time(eager.cost.t_total), fb(eager.cost.bytes), fb(dec.cost.bytes)}));
  obs.push_back(tr(Text::Demo2Obs2, L, {fb(dec.cost.bytes), fb(fused.cost.bytes), std::to_string(c.model.H), std::to_string(T), fb(score_bytes)}));
  obs.push_back(tr(Text::Demo2Obs3, L, {fb(flash.cost.bytes), fmt_percent(matmul_t / flash.cost.t)}));
  obs.push_back(tr(Text::Demo2Obs4, L, {std::to_string(T), std::to_string(matmuls), std::to_string(compute_bound),
                                        fmt_percent(flash.cost.overhead / flash.cost.t_total)}));

  return {{"demo", 2},
          {"title", tr(Text::Demo2Title, L, {model_name(c.model, L), std::to_string(T),
                                             std::string(tr(c.hw == kH100 ? Text::HardwareH100 : Text::HardwareCustom, L)),
                                             fmt_time(c.hw.launch)})},
          {"phase", "prefill"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c)},
          {"slowest", slowest},
          {"score_bytes", score_bytes},
          {"observations", obs}};
}

json demo3(const AnalysisConfig& c) {
  Lang L = c.lang;
  const int64_t S = c.kv_len;
  Graph g = decode_layer(c.model, ParamMode::shapes());
  std::vector<Partition> ps = four_partitions(g, {{"S", S}}, c.hw);
  const Partition &dec = ps[1], &fused = ps[2], &flash = ps[3];

  int64_t weights = 0;
  for (const Node& n : g.nodes())
    if (n.op == Op::Param) weights += numel(n.shape).constant() * dtype_bytes(n.dtype);
  int64_t kv = 2 * c.model.G * S * c.model.dh * 2;
  double t_lo = ps[0].cost.t, t_hi = ps[0].cost.t;
  int64_t b_lo = ps[0].cost.bytes, b_hi = ps[0].cost.bytes;
  for (const Partition& p : ps) {
    t_lo = std::min(t_lo, p.cost.t), t_hi = std::max(t_hi, p.cost.t);
    b_lo = std::min(b_lo, p.cost.bytes), b_hi = std::max(b_hi, p.cost.bytes);
  }

  json obs = json::array();
  obs.push_back(tr(Text::Demo3Obs1, L, {fb(weights), std::to_string(S), fb(kv), fb(b_hi), fb(b_lo), fmt_time((t_lo + t_hi) / 2)}));
  obs.push_back(tr(Text::Demo3Obs2, L, {std::to_string(dec.cost.kernels), std::to_string(flash.cost.kernels), fmt_time(dec.cost.overhead),
                                        fmt_percent(dec.cost.overhead / dec.cost.t), fmt_time(flash.cost.overhead),
                                        fmt_percent(flash.cost.overhead / flash.cost.t_total)}));
  obs.push_back(tr(Text::Demo3Obs3, L, {fmt_time(flash.cost.t_total), fmt_time(fused.cost.t_total), std::to_string(c.model.H),
                                        std::to_string(S), fb(c.model.H * S * 2)}));

  return {{"demo", 3},
          {"title", tr(Text::Demo3Title, L, {std::to_string(S)})},
          {"phase", "decode"},
          {"config", config_json(c)},
          {"partitions", partitions_json(ps, c)},
          {"weight_bytes", weights},
          {"kv_cache_bytes", kv},
          {"observations", obs}};
}

// Published figures (quoted, not computed): PyTorch 2 paper, Table 4.
struct AblationRow {
  Text setting;
  double inference, training;
};
constexpr AblationRow kPaperTable4[] = {
    {Text::AblAll, 1.91, 1.45},          {Text::AblNoReorder, 1.91, 1.28},   {Text::AblNoTemplates, 1.85, 1.41},
    {Text::AblNoFreezing, 1.85, 1.45},   {Text::AblNoPatterns, 1.83, 1.45},  {Text::AblNoCudaGraphs, 1.81, 1.37},
    {Text::AblNoFusion, 1.68, 1.27},     {Text::AblNoInlining, 1.58, 1.31},  {Text::AblNoFusionInlining, 0.80, 0.59},
};

json demo4(const AnalysisConfig& c) {
  Lang L = c.lang;
  json rows = json::array();
  for (const AblationRow& r : kPaperTable4)
    rows.push_back({{"setting", tr(r.setting, L)}, {"inference", r.inference}, {"training", r.training}});
  const AblationRow &all = kPaperTable4[0], &no_graphs = kPaperTable4[5], &no_fusion = kPaperTable4[6],
                    &no_inline = kPaperTable4[7], &neither = kPaperTable4[8];

  // Our own figures for the same effects, from the current configuration.
  AnalysisConfig prefill = c;
  prefill.demo = 2;
  json d2 = demo2(prefill);
  AnalysisConfig decode = c;
  decode.demo = 3;
  json d3 = demo3(decode);
  double dec_speedup = d2["partitions"][1]["speedup"];
  double decode_share = d3["partitions"][3]["overhead_share"];

  json obs = json::array();
  obs.push_back(tr(Text::Demo4Obs1, L, {fmt_ratio(neither.inference), fmt_ratio(neither.training), fmt_ratio(dec_speedup)}));
  obs.push_back(tr(Text::Demo4Obs2, L, {fmt_ratio(no_fusion.inference), fmt_ratio(no_inline.inference)}));
  obs.push_back(tr(Text::Demo4Obs3, L, {fmt_ratio(all.inference - no_graphs.inference), fmt_percent(decode_share)}));
  obs.push_back(tr(Text::Demo4Obs4, L));

  return {{"demo", 4},
          {"title", tr(Text::Demo4Title, L)},
          {"source", tr(Text::AblationSource, L)},
          {"columns", {tr(Text::ColSetting, L), tr(Text::ColInference, L), tr(Text::ColTraining, L)}},
          {"rows", rows},
          {"observations", obs}};
}

}  // namespace

json analyze(const AnalysisConfig& c) {
  validate(c);
  switch (c.demo) {
    case 1: return demo1(c);
    case 2: return demo2(c);
    case 3: return demo3(c);
    default: return demo4(c);
  }
}

}  // namespace fl
