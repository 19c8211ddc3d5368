// Demo 1: the kernel list of one fused, FlashAttention partition.
#include <algorithm>
#include <optional>
#include <set>

#include "core/demos/demos.h"
#include "core/demos/observations.h"
#include "core/explain/pass_diff.h"
#include "core/explain/pseudo_kernel.h"
#include "core/pipeline.h"
#include "core/units.h"

namespace fl::demos {

namespace {

// Index of the first kernel containing a node that satisfies `pred`, or -1.
template <class Pred>
int find_kernel(const Partition& p, Pred pred) {
  for (size_t i = 0; i < p.kernels.size(); ++i)
    for (NodeId id : p.kernels[i].nodes)
      if (pred(p.graph->node(id))) return static_cast<int>(i);
  return -1;
}

// The kernel of the projection by weight `name` (folded weights are named "norm*name").
int projection_kernel(const Partition& p, const std::string& name) {
  return find_kernel(p, [&](const Node& n) {
    if (n.op != Op::MatMul) return false;
    const std::string& w = p.graph->node(n.inputs[1]).attrs.name;
    auto star = w.rfind('*');
    std::string base = star == std::string::npos ? w : w.substr(star + 1);
    auto dot = base.rfind('.');  // whole models: "l0.wq"
    return (dot == std::string::npos ? base : base.substr(dot + 1)) == name;
  });
}

// The pipeline stage by stage: each graph, what its pass added (flagged) and
// removed, and for the last stage the kernel that runs each node.
std::vector<StageReport> stage_reports(const Graph& traced, const Partition& fused, const Binding& bind) {
  std::vector<int> kernel_of(fused.graph->size(), -1);
  for (size_t k = 0; k < fused.kernels.size(); ++k)
    for (NodeId id : fused.kernels[k].nodes) kernel_of[static_cast<size_t>(id)] = static_cast<int>(k);
  std::vector<StageReport> out;
  out.reserve(std::size(kStages));
  for_each_stage(traced, {}, [&](const StageResult* before, const StageResult& stage) {
    const Graph& g = stage.graph;
    StageDiff diff = before ? diff_graphs(before->graph, g) : StageDiff{};
    StageReport r;
    r.stage = stage.stage;
    r.rewrites = stage.rewrites;
    r.added = diff.added.size();
    r.rewritten = diff.rewritten.size();
    for (NodeId id : diff.removed) r.removed.push_back(node_str(before->graph, id));
    const bool last = stage.stage == kLastStage;
    r.nodes.resize(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.nodes()[i];
      GraphNodeReport& o = r.nodes[i];
      o.id = static_cast<NodeId>(i);
      o.op = n.op;
      o.text = node_str(g, o.id);
      o.inputs.assign(n.inputs.begin(), n.inputs.end());
      o.kernel = last ? kernel_of[i] : -1;
      o.bytes = eval_numel(n.shape, bind) * dtype_bytes(n.dtype);
    }
    for (NodeId id : diff.added) r.nodes[static_cast<size_t>(id)].change = NodeChange::Added;
    for (NodeId id : diff.rewritten) r.nodes[static_cast<size_t>(id)].change = NodeChange::Rewritten;
    out.push_back(std::move(r));
  });
  return out;
}

std::string kernel_ref(const Partition& p, int i) {
  if (i < 0) return "-";
  return std::string(1, '#').append(std::to_string(i)).append(1, ' ').append(p.kernels[static_cast<size_t>(i)].label);
}

// Kernel 0's norm: its reductions and the multiply-back in one kernel.
std::optional<Observation> norm_observation(const AnalysisConfig& c, const LayerFacts& f, const Partition& fused) {
  const int norm = find_kernel(fused, [](const Node& n) { return n.op == Op::Mean; });
  if (norm < 0 || f.norms.empty()) return std::nullopt;
  const Kernel& nk = fused.kernels[static_cast<size_t>(norm)];
  const bool rms = f.norms.front() == Op::RMSNorm;
  return Observation{rms ? "kernels_rmsnorm_one_kernel" : "kernels_layernorm_one_kernel",
                     tr(rms ? Text::Demo1Obs1 : Text::Demo1ObsLayerNorm, c.lang,
                        {std::to_string(norm), std::string(kernel_kind_name(nk.kind)), nk.label, fb(nk.reads), fb(nk.writes)})};
}

bool has_op(const Partition& p, int kernel, Op op) {
  if (kernel < 0) return false;
  const std::vector<NodeId>& nodes = p.kernels[static_cast<size_t>(kernel)].nodes;
  return std::any_of(nodes.begin(), nodes.end(), [&](NodeId id) { return p.graph->node(id).op == op; });
}

// What the matmul kernels take as epilogues: Llama's projections by name
// where the layer has them all and RoPE on q and k, else counted.
std::optional<Observation> epilogue_observation(const AnalysisConfig& c, const Partition& fused) {
  const int q = projection_kernel(fused, "wq"), k = projection_kernel(fused, "wk"), o = projection_kernel(fused, "wo");
  const int gate = projection_kernel(fused, "w_gate"), up = projection_kernel(fused, "w_up");
  const int down = projection_kernel(fused, "w_down");
  const bool llama = o >= 0 && gate >= 0 && up >= 0 && down >= 0 && has_op(fused, q, Op::RotPairs) && has_op(fused, k, Op::RotPairs);
  if (llama)
    return Observation{"kernels_matmul_epilogues",
                       tr(Text::Demo1Obs2, c.lang,
                          {std::to_string(q), std::to_string(k), fused.kernels[static_cast<size_t>(q)].label, kernel_ref(fused, o),
                           kernel_ref(fused, down), kernel_ref(fused, gate), kernel_ref(fused, up)})};
  int matmuls = 0;
  std::vector<std::string> with_epilogue;
  for (size_t i = 0; i < fused.kernels.size(); ++i) {
    if (fused.kernels[i].kind != KernelKind::MatMul) continue;
    ++matmuls;
    if (fused.kernels[i].nodes.size() > 1) with_epilogue.push_back(kernel_ref(fused, static_cast<int>(i)));
  }
  if (with_epilogue.empty()) return std::nullopt;
  return Observation{"kernels_matmul_epilogues", tr(Text::Demo1ObsEpilogues, c.lang,
                                                    {count(matmuls), count(static_cast<int64_t>(with_epilogue.size())),
                                                     list_text(with_epilogue, c.lang)})};
}

// Where attention went, and that views take no kernel.
Observation attention_observation(const AnalysisConfig& c, const LayerFacts& f, const Partition& fused) {
  const Lang L = c.lang;
  const int attn = find_kernel(fused, [](const Node& n) { return n.op == Op::Attention; });
  std::string text = attn >= 0       ? tr(Text::Demo1ObsFlash, L, {std::to_string(attn)})
                     : f.attention ? std::string(tr(Text::Demo1ObsUnmatched, L))
                                   : std::string(tr(Text::Demo1ObsNoAttention, L));
  int views = 0;
  std::set<Op> view_ops;
  for (const Node& n : fused.graph->nodes())
    if (op_kind(n.op) == OpKind::View) ++views, view_ops.insert(n.op);
  if (views > 0) {
    std::vector<std::string> what;
    if (f.attention) {
      what.emplace_back(tr(Text::ViewsHeads, L));
      if (c.model.G < c.model.H) what.emplace_back(tr(Text::ViewsGqa, L));
    } else {
      for (Op op : view_ops) what.emplace_back(op_label(op));
    }
    std::string joined;
    for (const std::string& w : what) joined.append(joined.empty() ? "" : L == Lang::Zh ? "、" : ", ").append(w);
    text.append(L == Lang::Zh ? "" : " ").append(tr(Text::Demo1ObsViews, L, {std::to_string(views), joined}));
  }
  return {"kernels_attention_and_views", text};
}

std::vector<Observation> kernel_observations(const AnalysisConfig& c, const Graph& traced, const Partition& fused) {
  const LayerFacts f = layer_facts(traced);
  std::vector<Observation> out;
  for (std::optional<Observation> o : {norm_observation(c, f, fused), epilogue_observation(c, fused)})
    if (o) out.push_back(std::move(*o));
  out.push_back(attention_observation(c, f, fused));
  return out;
}

}  // namespace

}  // namespace fl::demos

namespace fl {

using namespace demos;

std::string_view node_change_name(NodeChange c) {
  switch (c) {
    case NodeChange::Added: return "added";
    case NodeChange::Rewritten: return "rewritten";
    case NodeChange::None: break;
  }
  return "";
}

KernelsReport kernels_report(const AnalysisConfig& c, bool with_stages) {
  Lang L = c.lang;
  const Graph g = c.traced_graph(false);
  Partition fused = make_partition(PartitionId::FusedFlash, g, {}, c.hw);
  Partition unfused = make_partition(PartitionId::Decomposed, g, {}, c.hw);

  KernelsReport r;
  r.config = c;
  r.title = tr(Text::Demo1Title, L, {count(c.model.d), count(c.tokens)});
  for (size_t i = 0; i < fused.kernels.size(); ++i) {
    KernelReport k = kernel_report(fused, i, c.hw, L, true);
    k.code = pseudo_kernel(*fused.graph, fused.kernels[i], static_cast<int>(i));
    r.kernels.push_back(std::move(k));
  }

  r.observations = kernel_observations(c, g, fused);
  if (with_stages) r.stages = stage_reports(g, fused, c.binding());
  r.unfused = {unfused.cost.kernels, unfused.cost.bytes};
  r.fused = {fused.cost.kernels, fused.cost.bytes};
  r.summary = tr(Text::Demo1Summary, L, {std::to_string(unfused.cost.kernels), fb(unfused.cost.bytes),
                                         std::to_string(fused.cost.kernels), fb(fused.cost.bytes)});
  return r;
}

}  // namespace fl
