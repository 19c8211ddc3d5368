// Demo 1: the kernel list of one fused, FlashAttention partition.
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

  int norm = find_kernel(fused, [](const Node& n) { return n.op == Op::Mean; });
  int q = projection_kernel(fused, "wq"), k = projection_kernel(fused, "wk"), o = projection_kernel(fused, "wo");
  int gate = projection_kernel(fused, "w_gate"), up = projection_kernel(fused, "w_up");
  int down = projection_kernel(fused, "w_down");
  int attn = find_kernel(fused, [](const Node& n) { return n.op == Op::Attention; });
  int views = 0;
  for (const Node& n : fused.graph->nodes()) views += op_kind(n.op) == OpKind::View;

  std::vector<Observation>& obs = r.observations;
  if (norm >= 0) {
    const Kernel& nk = fused.kernels[static_cast<size_t>(norm)];
    obs.push_back({"kernels_rmsnorm_one_kernel", tr(Text::Demo1Obs1, L, {std::to_string(norm), std::string(kernel_kind_name(nk.kind)), nk.label,
                                          fb(nk.reads), fb(nk.writes)})});
  }
  obs.push_back({"kernels_matmul_epilogues", tr(Text::Demo1Obs2, L, {std::to_string(q), std::to_string(k), q >= 0 ? fused.kernels[static_cast<size_t>(q)].label : "-",
                                        kernel_ref(fused, o), kernel_ref(fused, down), kernel_ref(fused, gate), kernel_ref(fused, up)})});
  obs.push_back({"kernels_attention_and_views", tr(Text::Demo1Obs3, L, {std::to_string(attn), std::to_string(views)})});

  if (with_stages) r.stages = stage_reports(g, fused, c.binding());
  r.unfused = {unfused.cost.kernels, unfused.cost.bytes};
  r.fused = {fused.cost.kernels, fused.cost.bytes};
  r.summary = tr(Text::Demo1Summary, L, {std::to_string(unfused.cost.kernels), fb(unfused.cost.bytes),
                                         std::to_string(fused.cost.kernels), fb(fused.cost.bytes)});
  return r;
}

}  // namespace fl
