#include "core/inductor/partition.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "core/fusion/grouping.h"
#include "core/fusion/measuring.h"
#include "core/inductor/aten_names.h"
#include "core/inductor/freezing.h"
#include "core/inductor/scheduler.h"
#include "core/pipeline.h"

namespace fl::inductor {

namespace {

fl::KernelKind lecture_kind(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return fl::KernelKind::Pointwise;
    case KernelKind::Looped: case KernelKind::Persistent: return fl::KernelKind::Rowwise;
    case KernelKind::Mm: case KernelKind::Bmm: case KernelKind::Template: return fl::KernelKind::MatMul;
    case KernelKind::Sdpa: return fl::KernelKind::Attention;
  }
  return fl::KernelKind::Pointwise;
}

// The nodes of a decomposed SiLU among `computes`: x · 1 / (1 + exp(-x)),
// one aten.silu in PyTorch's graph (Inductor decomposes it as it lowers).
std::set<NodeId> silu_nodes(const Graph& g, const std::vector<NodeId>& computes) {
  const std::set<NodeId> here(computes.begin(), computes.end());
  auto is = [&](NodeId id, Op op) { return here.count(id) && g.node(id).op == op; };
  auto is_one = [&](NodeId id) { return g.node(id).op == Op::Const && g.node(id).attrs.value == 1; };
  std::set<NodeId> out;
  for (NodeId m : computes) {
    const Node& mul = g.node(m);
    if (mul.op != Op::Mul) continue;
    for (int side = 0; side < 2; ++side) {
      const NodeId x = mul.inputs[static_cast<size_t>(1 - side)], d = mul.inputs[static_cast<size_t>(side)];
      if (!is(d, Op::Div) || !is_one(g.node(d).inputs[0])) continue;
      const NodeId a = g.node(d).inputs[1];
      if (!is(a, Op::Add)) continue;
      const NodeId e = is_one(g.node(a).inputs[0]) ? g.node(a).inputs[1] : g.node(a).inputs[0];
      if (!is(e, Op::Exp) || !is(g.node(e).inputs[0], Op::Neg) || g.node(g.node(e).inputs[0]).inputs[0] != x) continue;
      out.insert({m, d, a, e, g.node(e).inputs[0]});
    }
  }
  return out;
}

// A decomposed softmax: exp(x - max x) / sum, one aten._softmax in PyTorch's
// graph. Inductor's online-softmax pass computes its max and sum in one
// prepare_softmax_online, which also computes the exp and the difference the
// sum reads.
struct Softmax {
  NodeId max, sub, exp, sum, div;
};
std::vector<Softmax> softmaxes(const Graph& g) {
  auto is = [&](NodeId id, Op op) { return g.node(id).op == op; };
  std::vector<Softmax> out;
  for (NodeId d = 0; d < static_cast<NodeId>(g.size()); ++d) {
    if (!is(d, Op::Div)) continue;
    const NodeId e = g.node(d).inputs[0], s = g.node(d).inputs[1];
    if (!is(e, Op::Exp) || !is(s, Op::Sum) || g.node(s).inputs[0] != e) continue;
    const NodeId diff = g.node(e).inputs[0];
    if (!is(diff, Op::Sub)) continue;
    const NodeId m = g.node(diff).inputs[1];
    if (is(m, Op::Max) && g.node(m).inputs[0] == g.node(diff).inputs[0]) out.push_back({m, diff, e, s, d});
  }
  return out;
}

// Whether `id` is attention's scale: a product by a constant of q·kᵀ, which
// PyTorch code divides (scores / √dh; our simplification multiplies).
bool scores_scale(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  if (n.op != Op::Mul || g.node(n.inputs[1]).op != Op::Const) return false;
  NodeId in = n.inputs[0];
  while (op_kind(g.node(in).op) == OpKind::View) in = g.node(in).inputs[0];
  return g.node(in).op == Op::MatMul && g.node(g.node(in).inputs[1]).op != Op::Param;
}

// The ATen ops a kernel's name lists: those of the nodes it computes (a
// decomposed SiLU as silu, a softmax as _softmax and the online softmax's
// prepare_softmax_online), and those of the views its loads read through,
// down to their storage: a GEMM's output is an _unsafe_view of aten.mm's 2-D
// result, a batched matmul's a view of aten.bmm's 3-D one. `in_triton`: the
// nodes the partition's Triton kernels compute (a GEMV under gpt-fast's
// setting, a norm's mean), whose loads elsewhere name them too.
// `heads_views`: list the heads' views of what it computes (not for a
// template, whose origins are its matmul's and its inputs').
std::vector<std::string_view> origin_names(const Graph& g, const std::vector<NodeId>& computes,
                                           const std::set<NodeId>& in_triton, bool online_softmax, bool heads_views = true) {
  const std::set<NodeId> here(computes.begin(), computes.end()), silu = silu_nodes(g, computes);
  std::vector<std::string_view> ops;
  if (!silu.empty()) ops.push_back("silu");
  // A softmax's statistics here (whole, or a split reduction's part) are
  // prepare_softmax_online, with the exp and difference they read unless the
  // output is computed here too; the output (its div) is _softmax.
  std::set<NodeId> unnamed;
  for (const Softmax& s : softmaxes(g)) {
    const bool stats = here.count(s.max) || here.count(s.sum), output = here.count(s.div);
    if (!online_softmax) {  // one aten._softmax, lowered whole: its parts have no names of their own
      if (stats || output || here.count(s.sub) || here.count(s.exp)) ops.push_back("_softmax");
      unnamed.insert({s.max, s.sub, s.exp, s.sum, s.div});
      continue;
    }
    if (stats) ops.push_back("prepare_softmax_online");
    if (output) ops.push_back("_softmax");
    if (stats) unnamed.insert({s.max, s.sum});
    if (stats && !output) unnamed.insert({s.sub, s.exp});
  }
  for (NodeId id : computes) {
    // A GEMV computed here (gpt-fast's setting): nn.Linear's matmul, its weight transposed (aten.t), its input viewed as 2-D.
    if (g.node(id).op == Op::MatMul && g.node(g.node(id).inputs[1]).op == Op::Param) ops.insert(ops.end(), {"t", "view"});
    if (scores_scale(g, id)) ops.push_back("div");
    else if (!silu.count(id) && !unnamed.count(id))
      for (std::string_view a : aten_names(g.node(id))) ops.push_back(a);
    for (NodeId in : g.node(id).inputs) {
      if (here.count(in)) continue;
      for (; op_kind(g.node(in).op) == OpKind::View && !here.count(in); in = g.node(in).inputs[0])
        for (std::string_view a : aten_names(g.node(in))) ops.push_back(a);
      const Node& storage = g.node(in);
      const bool linear = storage.op == Op::MatMul && g.node(storage.inputs[1]).op == Op::Param;
      if (here.count(in)) {
        if (linear) ops.push_back("_unsafe_view");  // a GEMV computed here (in Triton), read through a view
        continue;
      }
      if (storage.op == Op::MatMul) {
        ops.push_back(g.node(storage.inputs[1]).op == Op::Param ? "_unsafe_view" : "view");
        if (in_triton.count(in)) ops.push_back(aten_names(storage).front());  // a GEMV another Triton kernel computed
      }
      // A mean another Triton kernel reduced: its division by the row's length is done here.
      if (storage.op == Op::Mean && in_triton.count(in)) {
        ops.push_back("mean");
        for (std::string_view a : aten_names(g.node(storage.inputs[0]))) ops.push_back(a);
      }
    }
  }
  // The heads' reshape and transpose of what it computes: PyTorch's graph
  // has them before RoPE, on its input (our trace after it). Not a matmul's
  // transposed operand (kᵀ), nor the GQA repeat (a copy of its own).
  auto heads_view = [&](const Node& v) {
    if (v.op == Op::Reshape) return true;
    const Perm& p = v.attrs.perm;
    return v.op == Op::Transpose && p.size() >= 2 && p[p.size() - 1] == static_cast<int>(p.size() - 1);
  };
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& v = g.node(id);
    if (heads_views && heads_view(v) && !here.count(id) && here.count(v.inputs[0]))
      for (std::string_view a : aten_names(v)) ops.push_back(a);
    // An operand SDPA reads as computed (not through the KV cache's write) is
    // realized as SDPA is lowered: its kernel lists SDPA's origins, the
    // boolean mask's conversion to a bias (scalar_tensor, where) among them.
    if (v.op == Op::Attention)
      for (size_t arg = 0; arg < arity(v.op); ++arg) {
        NodeId in = v.inputs[arg];
        while (op_kind(g.node(in).op) == OpKind::View && !here.count(in)) in = g.node(in).inputs[0];
        if (!here.count(in) || g.node(in).op == Op::KVWrite) continue;
        ops.push_back(aten_names(v).front());
        if (v.inputs.size() > arity(v.op)) ops.insert(ops.end(), {"scalar_tensor", "where"});
      }
  }
  return ops;
}

// triton_{poi|red|per|tem}_fused_<sorted ATen ops>_<n>, or the extern call.
std::string kernel_name(const Graph& g, const Kernel& k, int triton_index, const std::set<NodeId>& in_triton,
                        const Options& opt) {
  switch (k.kind) {
    case KernelKind::Mm: return "extern_kernels.mm";
    case KernelKind::Bmm: return "extern_kernels.bmm";
    case KernelKind::Sdpa: return "torch.ops.aten._scaled_dot_product_cudnn_attention.default";
    default: break;
  }
  const bool heads_views = k.kind != KernelKind::Template;
  std::vector<std::string_view> ops = origin_names(g, k.computes, in_triton, opt.pattern_matching, heads_views);
  if (!k.also_named_after.empty()) {
    const std::vector<std::string_view> source = origin_names(g, k.also_named_after, in_triton, opt.pattern_matching, heads_views);
    ops.insert(ops.end(), source.begin(), source.end());
  }
  for (NodeId gemv : k.named_for) ops.push_back(aten_names(g.node(gemv)).front());
  if (k.copy) ops.push_back("clone");
  if (k.mask_bias) ops.insert(ops.end(), {"scalar_tensor", "where"});  // where(mask, 0, -inf)
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  std::string name = "triton_";
  name.append(kernel_kind_name(k.kind)).append("_fused");
  for (std::string_view op : ops) name.append("_").append(op);
  return name.append("_").append(std::to_string(triton_index));
}

Boundary boundary_of(Refusal r) {
  switch (r) {
    case Refusal::Extern: return Boundary::InductorExtern;
    case Refusal::SplitReduction: return Boundary::InductorSplitReduction;
    case Refusal::LoopsMismatch: return Boundary::InductorLoops;
    case Refusal::MemoryDeps: return Boundary::InductorMemoryDeps;
    case Refusal::MaxFusionSize: return Boundary::InductorMaxFusionSize;
    case Refusal::NoSharedData: return Boundary::InductorNoSharedData;
    case Refusal::WouldCycle: return Boundary::WouldCycle;
    case Refusal::Output: return Boundary::GraphOutput;
    case Refusal::TemplateFusion: return Boundary::InductorTemplateFusion;
  }
  return Boundary::WouldCycle;
}

// What makes two Triton kernels the same code, as Inductor sees it when it
// reuses a kernel it already generated (the GQA repeat of k and of v): the
// kind, the ops computed (views are indexing), the sizes read and written.
std::string code_signature(const Graph& g, const Kernel& k) {
  std::string s(kernel_kind_name(k.kind));
  for (NodeId id : k.computes)
    if (op_kind(g.node(id).op) != OpKind::View) s.append("|").append(op_name(g.node(id).op));
  s.append(k.copy ? "|copy" : "").append(k.mask_bias ? "|mask" : "");
  return s.append("|").append(std::to_string(k.read_bytes)).append("|").append(std::to_string(k.write_bytes));
}

}  // namespace

Partition inductor_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw, const Options& opt) {
  PipelineOptions p;
  p.match_attention = false;
  p.stop_after = Stage::Simplify;
  Graph optimized = run_pipeline(traced, p).back().graph;
  if (opt.freezing) optimized = concat_frozen_matmuls(optimized);
  auto graph = std::make_shared<const Graph>(std::move(optimized));
  const std::vector<int64_t> numel = fusion::node_numels(*graph, bind);
  Partition part{id, graph, {}, {}};
  int triton = 0;
  std::map<std::string, std::string> generated;  // a Triton kernel's code signature -> its name
  const std::vector<Kernel> scheduled = schedule(*graph, bind, opt);
  std::set<NodeId> in_triton;
  for (const Kernel& ik : scheduled)  // a template's output is read as an extern's is
    if (ik.kind != KernelKind::Mm && ik.kind != KernelKind::Bmm && ik.kind != KernelKind::Sdpa && ik.kind != KernelKind::Template)
      in_triton.insert(ik.computes.begin(), ik.computes.end());
  for (const Kernel& ik : scheduled) {
    fl::Kernel k;
    k.kind = lecture_kind(ik.kind);
    if (ik.kind == KernelKind::Mm || ik.kind == KernelKind::Bmm || ik.kind == KernelKind::Sdpa) {
      k.name = kernel_name(*graph, ik, 0, in_triton, opt);
    } else {
      auto [it, fresh] = generated.try_emplace(code_signature(*graph, ik));
      if (fresh) it->second = kernel_name(*graph, ik, triton++, in_triton, opt);
      k.name = it->second;  // the same code launched again keeps its name
    }
    for (NodeId id : ik.computes) {
      const Node& n = graph->node(id);
      if (op_kind(n.op) == OpKind::View && !ik.copy) continue;  // indexing only, no code
      k.nodes.push_back(id);
      k.label.append(k.label.empty() ? "" : "+").append(fusion::node_label(n));
      fusion::add_node_flops(*graph, n, numel[static_cast<size_t>(id)], bind, k);
    }
    k.reads = ik.read_bytes;
    k.writes = ik.write_bytes;
    for (const End& e : ik.ends) k.ends.push_back({e.tensor, e.consumer, boundary_of(e.why), e.sizes});
    part.kernels.push_back(std::move(k));
  }
  part.cost = graph_cost(part.kernels, hw);
  return part;
}

}  // namespace fl::inductor
