#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "core/demos/demos.h"
#include "core/model_lang/model.h"
#include "core/presets.h"
#include "core/units.h"

namespace fl::demos {

std::string fb(int64_t b) { return fmt_bytes(static_cast<double>(b)); }
std::string count(int64_t n) { return fmt_count(static_cast<double>(n)); }

std::string token_count(int64_t n, Lang l) {
  return n == 1 ? std::string(tr(Text::TokensOne, l)) : tr(Text::TokensMany, l, {count(n)});
}

std::string head_count(int64_t n, Lang l) {
  return n == 1 ? std::string(tr(Text::HeadsOne, l)) : tr(Text::HeadsMany, l, {count(n)});
}

namespace {

// Whether `id` is a parameter, or a view of one (a tied LM head's transpose).
bool is_parameter(const Graph& g, NodeId id) {
  while (op_kind(g.node(id).op) == OpKind::View) id = g.node(id).inputs[0];
  return g.node(id).op == Op::Param;
}

}  // namespace

LayerFacts layer_facts(const Graph& g) {
  std::set<Op> composites;
  bool masked_fill = false, f32_softmax = false;
  LayerFacts f;
  for (const Node& n : g.nodes()) {
    if (is_composite(n.op)) composites.insert(n.op);
    masked_fill |= n.op == Op::MaskedFill;
    f32_softmax |= n.op == Op::Softmax && n.dtype == DType::FP32;
    f.attention |= n.op == Op::Attention ||
                   (n.op == Op::MatMul && !is_parameter(g, n.inputs[0]) && !is_parameter(g, n.inputs[1]));
  }
  f.composites.assign(composites.begin(), composites.end());
  for (Op op : f.composites)
    if (op == Op::RMSNorm || op == Op::LayerNorm) f.norms.push_back(op);
  f.pytorch_form = masked_fill && f32_softmax;
  return f;
}

std::string op_list(const std::vector<Op>& ops, Lang l) {
  std::vector<std::string> names;
  for (Op op : ops) names.emplace_back(op_label(op));
  return list_text(names, l);
}

std::string model_name(const AnalysisConfig& c, Lang lang) {
  const LayerCfg& l = c.model;
  const std::string sizes = " (" + std::to_string(l.d) + ", " + std::to_string(l.H) + ", " + std::to_string(l.G) + ", " +
                            std::to_string(l.dh) + ", " + std::to_string(l.f) + ")";
  if (c.source)  // a model file's name, or the page's edited source
    return (c.source->name().empty() ? std::string(tr(Text::ModelFromSource, lang)) : c.source->name()) + sizes;
  const ModelPreset* m = find_model(c.model_key);
  if (m && m->layer == c.model) return m->key == "small" ? std::string(tr(Text::ModelSmall, lang)) : std::string(m->name);
  return std::string(tr(Text::ModelCustom, lang)) + sizes;
}

std::string hardware_name(const AnalysisConfig& c, Lang lang) {
  const HardwarePreset* h = find_hardware(c.hardware_key);
  return h && h->hw == c.hw.roofline() ? std::string(h->name) : std::string(tr(Text::HardwareCustom, lang));
}

std::string costed_hardware_name(const AnalysisConfig& c, Lang lang) {
  return tr(cost_model_of(c.hw) == CostModel::Roofline ? Text::TitleRoofline : Text::TitleCalibrated, lang, {hardware_name(c, lang)});
}

std::string workload_name(const AnalysisConfig& c, Lang lang) {
  std::string s = c.whole_model ? tr(Text::WorkloadModel, lang, {model_name(c, lang), std::to_string(c.layers)})
                                : tr(Text::WorkloadLayer, lang, {model_name(c, lang)});
  if (c.batch > 1) s += tr(Text::WorkloadBatch, lang, {count(c.batch)});
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



// Why a value leaves its kernel, with the loop sizes behind the Inductor model's reasons.
std::string boundary_words(const KernelEdge& e, Lang lang) {
  std::vector<std::string> sizes;
  for (int64_t s : e.sizes) sizes.push_back(count(s));
  if (e.why == Boundary::InductorLoops && e.sizes[0] > 0) return tr(Text::WhyInductorLoopsSizes, lang, sizes);
  if (e.why == Boundary::InductorSplitReduction && e.sizes[0] > 0) return tr(Text::WhyInductorSplitSizes, lang, sizes);
  return std::string(tr(boundary_text(e.why), lang));
}

KernelReport kernel_report(const Partition& p, size_t i, const Hardware& hw, Lang lang, bool detail) {
  const Kernel& k = p.kernels[i];
  KernelReport r;
  r.index = i;
  r.kind = k.kind;
  r.label = k.label;
  r.name = k.name;
  r.nodes = k.nodes.size();
  r.reads = k.reads;
  r.writes = k.writes;
  r.flops = k.flops();
  r.t = kernel_time(k, hw);
  r.t_compute = compute_time(k, hw);
  r.t_memory = memory_time(k, hw);
  r.detail = detail;
  if (detail)
    for (NodeId id : k.nodes) r.node_list.push_back(node_str(*p.graph, id));
  if (!detail && k.name.empty()) return r;  // a real compiler's kernels say why they end wherever they are shown
  for (const KernelEdge& e : k.ends) {
    std::string tensor = std::string(1, '%').append(std::to_string(e.tensor)).append(1, ' ').append(op_name(p.graph->node(e.tensor).op));
    std::string why = boundary_words(e, lang);
    r.ends.push_back({e.tensor, e.consumer, e.why,
                      e.consumer >= 0 ? tr(Text::EndsTo, lang, {tensor, std::to_string(e.consumer), why})
                                      : tr(Text::EndsOut, lang, {tensor, why}),
                      why});
  }
  return r;
}

// A partition's name for `c`'s layer: a layer from source that holds no
// attention for the matcher to find is not said to run FlashAttention.
Text partition_name(const Partition& p, const AnalysisConfig& c) {
  return partition_text(p.id, c.traced_attention(), static_cast<bool>(c.source), holds_attention(*p.graph));
}

std::vector<PartitionReport> partition_reports(const std::vector<Partition>& ps, const AnalysisConfig& c,
                                               int64_t tokens_per_step) {
  std::vector<PartitionReport> out;
  double eager = ps.front().cost.t_total;
  // One layer stands for all of the model's layers.
  double steps_per_s = 1.0 / (c.whole_model ? 1.0 : static_cast<double>(c.layers));
  for (const Partition& p : ps) {
    PartitionReport r;
    r.id = p.id;
    r.name = tr(partition_name(p, c), c.lang);
    r.cost = p.cost;
    r.overhead_share = p.cost.overhead / p.cost.t_total;
    r.speedup = eager / p.cost.t_total;
    r.tokens_per_s = static_cast<double>(tokens_per_step) * steps_per_s / p.cost.t_total;
    r.kernels.reserve(p.kernels.size());
    for (size_t i = 0; i < p.kernels.size(); ++i) r.kernels.push_back(kernel_report(p, i, c.hw, c.lang, false));
    out.push_back(std::move(r));
  }
  return out;
}

MemoryReport memory_report(const AnalysisConfig& c, int64_t S) {
  MemoryReport m;
  m.weights = model_parameter_bytes(c.model, c.layers, c.vocab, c.tied_embeddings, c.trace_options());
  m.kv_cache = kv_cache_bytes(c.model, c.layers, c.batch, S, c.trace_options());
  m.total = m.weights + m.kv_cache;
  m.capacity = c.hw.memory;
  m.fits = static_cast<double>(m.total) <= c.hw.memory;
  m.gpus = static_cast<int>(std::ceil(static_cast<double>(m.total) / c.hw.memory));
  std::vector<std::string> args{fb(m.weights), fb(m.kv_cache), count(c.batch), token_count(S, c.lang), fb(m.total),
                                hardware_name(c, c.lang), fmt_bytes(c.hw.memory), std::to_string(m.gpus)};
  m.text = tr(m.fits ? Text::MemoryFits : Text::MemoryTooBig, c.lang, args);
  return m;
}

}  // namespace fl::demos
