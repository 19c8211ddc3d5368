// Demo 1: the kernel list of one fused, FlashAttention partition.
#include "core/demos/demos.h"
#include "core/demos/observations.h"
#include "core/report_json.h"
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
      if (pred(p.graph.node(id))) return static_cast<int>(i);
  return -1;
}

// The kernel of the projection by weight `name` (folded weights are named "norm*name").
int projection_kernel(const Partition& p, const std::string& name) {
  return find_kernel(p, [&](const Node& n) {
    if (n.op != Op::MatMul) return false;
    const std::string& w = p.graph.node(n.inputs[1]).attrs.name;
    auto star = w.rfind('*');
    std::string base = star == std::string::npos ? w : w.substr(star + 1);
    auto dot = base.rfind('.');  // whole models: "l0.wq"
    return (dot == std::string::npos ? base : base.substr(dot + 1)) == name;
  });
}

// The pipeline stage by stage: each graph, what its pass added (flagged) and
// removed, and for the last stage the kernel that runs each node.
json stages_json(const Graph& traced, const Partition& fused) {
  std::vector<StageResult> stages = run_pipeline(traced, {});
  std::vector<int> kernel_of(fused.graph.size(), -1);
  for (size_t k = 0; k < fused.kernels.size(); ++k)
    for (NodeId id : fused.kernels[k].nodes) kernel_of[static_cast<size_t>(id)] = static_cast<int>(k);
  json out = json::array();
  for (size_t s = 0; s < stages.size(); ++s) {
    const Graph& g = stages[s].graph;
    StageDiff diff = s ? diff_graphs(stages[s - 1].graph, g) : StageDiff{};
    std::vector<std::string> change(g.size(), "");
    for (NodeId id : diff.added) change[static_cast<size_t>(id)] = "added";
    for (NodeId id : diff.rewritten) change[static_cast<size_t>(id)] = "rewritten";
    bool last = s + 1 == stages.size();
    json nodes = json::array();
    nodes.get_ref<json::array_t&>().reserve(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.nodes()[i];
      // Key by key in sorted order, each insert at the map's end: a whole
      // model has ~50k nodes over its stages.
      json node(json::value_t::object);
      json::object_t& o = *node.get_ptr<json::object_t*>();
      auto put = [&o](const char* key, json value) { o.emplace_hint(o.end(), key, std::move(value)); };
      put("change", change[i]);
      put("id", i);
      json inputs(json::value_t::array);
      for (NodeId in : n.inputs) inputs.push_back(in);
      put("inputs", std::move(inputs));
      put("kernel", last ? kernel_of[i] : -1);
      put("op", op_name(n.op));
      put("source", op_kind(n.op) == OpKind::Source);
      put("text", node_str(g, static_cast<NodeId>(i)));
      put("view", op_kind(n.op) == OpKind::View);
      nodes.push_back(std::move(node));
    }
    json removed = json::array();
    for (NodeId id : diff.removed) removed.push_back(node_str(stages[s - 1].graph, id));
    out.push_back({{"stage", stage_name(stages[s].stage)},
                   {"nodes", nodes},
                   {"node_count", g.size()},
                   {"rewrites", stages[s].rewrites},
                   {"added", diff.added.size()},
                   {"rewritten", diff.rewritten.size()},
                   {"removed", removed}});
  }
  return out;
}

std::string kernel_ref(const Partition& p, int i) {
  return i < 0 ? "-" : "#" + std::to_string(i) + " " + p.kernels[static_cast<size_t>(i)].label;
}

}  // namespace

json kernels_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  const Graph g = c.traced_graph(false);
  Partition fused = make_partition(PartitionId::FusedFlash, g, {}, c.hw);
  Partition unfused = make_partition(PartitionId::Decomposed, g, {}, c.hw);

  json kernels = json::array();
  for (size_t i = 0; i < fused.kernels.size(); ++i) {
    KernelReport k = kernel_report(fused, i, c.hw, L, true);
    k.code = pseudo_kernel(fused.graph, fused.kernels[i], static_cast<int>(i));
    kernels.push_back(to_json(k));
  }

  int norm = find_kernel(fused, [](const Node& n) { return n.op == Op::Mean; });
  int q = projection_kernel(fused, "wq"), k = projection_kernel(fused, "wk"), o = projection_kernel(fused, "wo");
  int gate = projection_kernel(fused, "w_gate"), up = projection_kernel(fused, "w_up");
  int down = projection_kernel(fused, "w_down");
  int attn = find_kernel(fused, [](const Node& n) { return n.op == Op::Attention; });
  int views = 0;
  for (const Node& n : fused.graph.nodes()) views += op_kind(n.op) == OpKind::View;

  std::vector<Observation> obs;
  if (norm >= 0) {
    const Kernel& nk = fused.kernels[static_cast<size_t>(norm)];
    obs.push_back({"kernels_rmsnorm_one_kernel", tr(Text::Demo1Obs1, L, {std::to_string(norm), std::string(kernel_kind_name(nk.kind)), nk.label,
                                          fb(nk.reads), fb(nk.writes)})});
  }
  obs.push_back({"kernels_matmul_epilogues", tr(Text::Demo1Obs2, L, {std::to_string(q), std::to_string(k), q >= 0 ? fused.kernels[static_cast<size_t>(q)].label : "-",
                                        kernel_ref(fused, o), kernel_ref(fused, down), kernel_ref(fused, gate), kernel_ref(fused, up)})});
  obs.push_back({"kernels_attention_and_views", tr(Text::Demo1Obs3, L, {std::to_string(attn), std::to_string(views)})});

  return {{"demo", 1},
          {"title", tr(Text::Demo1Title, L, {std::to_string(c.model.d), std::to_string(c.tokens)})},
          {"config", to_json(c)},
          {"kernels", kernels},
          {"stages", stages_json(g, fused)},
          {"unfused", {{"kernels", unfused.cost.kernels}, {"bytes", unfused.cost.bytes}}},
          {"fused", {{"kernels", fused.cost.kernels}, {"bytes", fused.cost.bytes}}},
          {"summary", tr(Text::Demo1Summary, L, {std::to_string(unfused.cost.kernels), fb(unfused.cost.bytes),
                                                 std::to_string(fused.cost.kernels), fb(fused.cost.bytes)})},
          {"observations", to_json(obs)}};
}

}  // namespace fl::demos
