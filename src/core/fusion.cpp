// fuse: greedy, TVM-style grouping over a graph in topological order.
//
//   views ─ no kernel; consumers read the viewed storage through new indexing
//   every other compute node either joins the kernel (group) of one of its
//   producers or opens a new one:
//
//     producer group      consumer        joins when
//     ───────────────     ─────────       ───────────────────────────────────
//     pointwise           pointwise       same iteration space (numel)
//     pointwise           reduction       reduction's input is the group's space → rowwise
//     rowwise             pointwise       numel is the row space or the row count
//     rowwise             reduction       same rows (softmax's second reduction)
//     matmul              pointwise       same numel as the matmul output (epilogue)
//     matmul              reduction       never: a row spans many output tiles
//     any                 matmul          never: no prologue fusion
//     attention/kv_write  any             never: handwritten kernels
//
// 1. A consumer tries its producers' groups, latest producer first.
// 2. A pointwise node used only by reductions is left to them (it becomes
//    their prologue, inlined into the reduction's loop), rather than being an
//    epilogue of a matmul whose output another kernel must read anyway.
// 3. A merge that would make two groups wait on each other is refused.
// 4. Kernels are ordered topologically; bytes are counted per kernel, each
//    tensor once, values that stay inside a kernel free.
#include "core/fusion.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>

namespace fl {

std::string_view kernel_kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return "pointwise";
    case KernelKind::Rowwise: return "rowwise";
    case KernelKind::MatMul: return "matmul";
    case KernelKind::Attention: return "attention";
    case KernelKind::KVWrite: return "kv_write";
    case KernelKind::Embedding: return "embedding";
  }
  return "?";
}

std::string_view boundary_name(Boundary b) {
  switch (b) {
    case Boundary::FusionOff: return "fusion_off";
    case Boundary::MatmulNoPrologue: return "matmul_no_prologue";
    case Boundary::ReductionAfterMatmul: return "reduction_after_matmul";
    case Boundary::OpaqueKernel: return "opaque_kernel";
    case Boundary::IterationSpace: return "iteration_space";
    case Boundary::OneAnchorPerKernel: return "one_anchor_per_kernel";
    case Boundary::WouldCycle: return "would_cycle";
    case Boundary::GraphOutput: return "graph_output";
    case Boundary::SwitchedOff: return "switched_off";
  }
  return "?";
}

namespace {

struct Group {
  KernelKind kind;
  int64_t space = 0;  // numel of the loop: matmul output, pointwise output, or a reduction's input
  int64_t rows = 0;   // rowwise: number of rows
  std::vector<NodeId> nodes;
};

KernelKind kind_of_node(Op op) {
  switch (op_kind(op)) {
    case OpKind::MatMul: return KernelKind::MatMul;
    case OpKind::Reduction: return KernelKind::Rowwise;
    case OpKind::Opaque:
      return op == Op::Attention ? KernelKind::Attention : op == Op::KVWrite ? KernelKind::KVWrite : KernelKind::Embedding;
    default: return KernelKind::Pointwise;
  }
}

class Partitioner {
 public:
  Partitioner(const Graph& g, const FuseOptions& opt, const Binding& bind)
      : g_(g), opt_(opt), numel_(g.size()), storage_(g.size()), group_of_(g.size(), -1) {
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.nodes()[i];
      numel_[i] = numel(n.shape).eval(bind);
      storage_[i] = free_view(static_cast<NodeId>(i)) ? storage_[static_cast<size_t>(n.inputs[0])] : static_cast<NodeId>(i);
    }
    users_.resize(g.size());
    for (size_t i = 0; i < g.size(); ++i)
      for (NodeId in : g.nodes()[i].inputs) users_[static_cast<size_t>(storage_[static_cast<size_t>(in)])].push_back(static_cast<NodeId>(i));
  }

  void run() {
    for (NodeId id = 0; id < static_cast<NodeId>(g_.size()); ++id)
      if (op_kind(g_.node(id).op) != OpKind::Source && !free_view(id)) place(id);
  }

  // A view costs nothing when its consumers inline the new indexing; without
  // inlining it is realized: a copy kernel, placed like a pointwise op.
  bool free_view(NodeId id) const { return op_kind(g_.node(id).op) == OpKind::View && opt_.inlining; }
  OpKind kind(NodeId id) const {
    OpKind k = op_kind(g_.node(id).op);
    return k == OpKind::View ? OpKind::Pointwise : k;
  }

  const Graph& g_;
  const FuseOptions& opt_;
  std::vector<int64_t> numel_;
  std::vector<NodeId> storage_;  // the node whose buffer a value lives in (views resolved)
  std::vector<int> group_of_;
  std::vector<std::vector<NodeId>> users_;  // every node reading a storage node, directly or through views
  std::vector<Group> groups_;
  std::map<std::pair<NodeId, int>, Boundary> why_;  // (tensor, consumer group) -> reason

  bool is_compute(NodeId s) const { return group_of_[static_cast<size_t>(s)] >= 0; }

  // Rows and row length of a reduction's input.
  std::pair<int64_t, int64_t> row_space(NodeId id) const {
    NodeId in = g_.node(id).inputs[0];
    int64_t m = numel_[static_cast<size_t>(in)];
    const Dim& last = g_.node(in).shape.back();
    return {m, last.is_constant() && last.constant() > 0 ? m / last.constant() : 0};
  }

  // Whether `id` can join group `gi`, or the reason it cannot.
  std::optional<Boundary> refuse(NodeId id, int gi) const {
    const Group& gr = groups_[static_cast<size_t>(gi)];
    OpKind k = kind(id);
    if (!opt_.enable) return Boundary::FusionOff;
    if (k == OpKind::MatMul) return Boundary::MatmulNoPrologue;
    if (k == OpKind::Opaque || gr.kind == KernelKind::Attention || gr.kind == KernelKind::KVWrite ||
        gr.kind == KernelKind::Embedding)
      return Boundary::OpaqueKernel;
    int64_t n = numel_[static_cast<size_t>(id)];
    bool fits;
    if (k == OpKind::Reduction) {
      auto [m, rows] = row_space(id);
      if (gr.kind == KernelKind::MatMul) return Boundary::ReductionAfterMatmul;
      fits = gr.space == m && (gr.kind == KernelKind::Pointwise || gr.rows == rows);
    } else {
      fits = n == gr.space || (gr.kind == KernelKind::Rowwise && n == gr.rows);
    }
    if (!fits) return Boundary::IterationSpace;
    // The rules allow the merge; is that kind of merge switched on?
    bool on = gr.kind == KernelKind::Pointwise ? opt_.inlining || opt_.fusion
              : gr.kind == KernelKind::Rowwise ? opt_.fusion
                                               : opt_.fusion && opt_.matmul_epilogues;
    return on ? std::nullopt : std::optional(Boundary::SwitchedOff);
  }

  // Rule 2: a pointwise node whose every user is a reduction.
  bool feeds_only_reductions(NodeId id) const {
    const auto& us = users_[static_cast<size_t>(id)];
    if (us.empty()) return false;
    for (NodeId u : us)
      if (op_kind(g_.node(u).op) != OpKind::Reduction) return false;
    return std::find(g_.outputs().begin(), g_.outputs().end(), id) == g_.outputs().end();
  }

  // Does group `from` (transitively) read anything that group `target` produces?
  bool depends_on(int from, int target) const {
    NodeId horizon = groups_[static_cast<size_t>(target)].nodes.front();
    std::vector<NodeId> stack(groups_[static_cast<size_t>(from)].nodes);
    std::set<NodeId> seen(stack.begin(), stack.end());
    while (!stack.empty()) {
      NodeId id = stack.back();
      stack.pop_back();
      for (NodeId in : g_.node(id).inputs) {
        NodeId s = storage_[static_cast<size_t>(in)];
        if (s < horizon || !seen.insert(s).second) continue;  // nothing before the group can depend on it
        if (group_of_[static_cast<size_t>(s)] == target) return true;
        stack.push_back(s);
      }
    }
    return false;
  }

  void place(NodeId id) {
    const Node& n = g_.node(id);
    // Producer groups of this node, latest producer first.
    std::vector<std::pair<NodeId, int>> producers;
    for (NodeId in : n.inputs) {
      NodeId s = storage_[static_cast<size_t>(in)];
      if (is_compute(s)) producers.push_back({s, group_of_[static_cast<size_t>(s)]});
    }
    std::sort(producers.begin(), producers.end(), [](auto& a, auto& b) { return a.first > b.first; });

    // Each producer group, latest first: the first that may take the node
    // does; every other one keeps the reason it cannot, judged before the
    // node joins anything.
    const bool leave_to_reduction = kind(id) == OpKind::Pointwise && feeds_only_reductions(id);
    int chosen = -1;
    std::map<int, Boundary> not_joined;
    for (auto [s, gi] : producers) {
      if (gi == chosen || not_joined.count(gi)) continue;
      if (auto why = why_not_join(id, gi, producers, leave_to_reduction)) not_joined[gi] = *why;
      else if (chosen < 0) chosen = gi;
      else not_joined[gi] = Boundary::OneAnchorPerKernel;
    }
    if (chosen < 0) {
      chosen = static_cast<int>(groups_.size());
      Group gr{kind_of_node(n.op), numel_[static_cast<size_t>(id)], 0, {}};
      if (kind(id) == OpKind::Reduction) std::tie(gr.space, gr.rows) = row_space(id);
      groups_.push_back(gr);
    } else if (kind(id) == OpKind::Reduction) {
      Group& gr = groups_[static_cast<size_t>(chosen)];
      gr.kind = KernelKind::Rowwise;
      std::tie(gr.space, gr.rows) = row_space(id);
    }
    groups_[static_cast<size_t>(chosen)].nodes.push_back(id);
    group_of_[static_cast<size_t>(id)] = chosen;

    // Why each other producer's value must cross HBM into this kernel; the
    // first reason recorded for a tensor stands.
    for (auto [s, gi] : producers)
      if (gi != chosen) why_.try_emplace({s, chosen}, not_joined.at(gi));
  }

  // Why `id` cannot join producer group `gi`, or nothing when it may.
  std::optional<Boundary> why_not_join(NodeId id, int gi, const std::vector<std::pair<NodeId, int>>& producers,
                                       bool leave_to_reduction) const {
    if (auto r = refuse(id, gi)) return r;
    if (leave_to_reduction && groups_[static_cast<size_t>(gi)].kind == KernelKind::MatMul)
      return Boundary::ReductionAfterMatmul;
    // Joining gi while another producer's kernel reads gi: each would wait on the other.
    for (auto [s2, g2] : producers)
      if (g2 != gi && depends_on(g2, gi)) return Boundary::WouldCycle;
    return std::nullopt;
  }
};

double node_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind, bool* on_tensor_cores) {
  *on_tensor_cores = false;
  auto in_numel = [&](size_t i) { return static_cast<double>(numel(g.node(n.inputs[i]).shape).eval(bind)); };
  switch (n.op) {
    case Op::MatMul:
      *on_tensor_cores = n.dtype != DType::FP32;  // fp32 matmuls run on the vector units
      return 2.0 * static_cast<double>(out) * static_cast<double>(g.node(n.inputs[0]).shape.back().eval(bind));
    case Op::Attention: {  // QKᵀ and PV on tensor cores; the softmax's 5 ops per score are counted below
      *on_tensor_cores = n.dtype != DType::FP32;  // fp32 matmuls run on the vector units
      double scores = static_cast<double>(out) / static_cast<double>(n.shape.back().eval(bind)) *
                      static_cast<double>(g.node(n.inputs[1]).shape[1].eval(bind));
      return 2.0 * scores * static_cast<double>(n.shape.back().eval(bind) + g.node(n.inputs[0]).shape.back().eval(bind));
    }
    case Op::KVWrite: case Op::Embedding: return 0;
    case Op::Reshape: case Op::Transpose: case Op::RepeatKV: return 0;  // realized views only copy
    case Op::Sum: case Op::Mean: case Op::Max: return in_numel(0);
    case Op::RMSNorm: return 4 * in_numel(0) + 2 * in_numel(0) / static_cast<double>(n.shape.back().eval(bind));
    case Op::Softmax: case Op::SiLU: return 5 * in_numel(0);  // as many as their decompositions
    default: return static_cast<double>(out);
  }
}

double attention_softmax_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind) {
  return 5.0 * static_cast<double>(out) / static_cast<double>(n.shape.back().eval(bind)) *
         static_cast<double>(g.node(n.inputs[1]).shape[1].eval(bind));
}

std::string node_label(const Graph& g, const Node& n) {
  if (n.op == Op::Mul && n.inputs[0] == n.inputs[1]) return "square";
  (void)g;
  return std::string(op_name(n.op));
}

}  // namespace

std::vector<Kernel> fuse(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  Partitioner p(g, opt, bind);
  p.run();
  const size_t ng = p.groups_.size();

  // Order kernels topologically, earliest first node first.
  std::vector<std::set<int>> deps(ng);
  for (size_t gi = 0; gi < ng; ++gi)
    for (NodeId id : p.groups_[gi].nodes)
      for (NodeId in : g.node(id).inputs) {
        NodeId s = p.storage_[static_cast<size_t>(in)];
        int src = p.group_of_[static_cast<size_t>(s)];
        if (src >= 0 && src != static_cast<int>(gi)) deps[gi].insert(src);
      }
  std::vector<int> pending(ng);
  std::vector<std::vector<int>> dependents(ng);
  for (size_t gi = 0; gi < ng; ++gi) {
    pending[gi] = static_cast<int>(deps[gi].size());
    for (int d : deps[gi]) dependents[static_cast<size_t>(d)].push_back(static_cast<int>(gi));
  }
  std::priority_queue<std::pair<NodeId, int>, std::vector<std::pair<NodeId, int>>, std::greater<>> ready;
  for (size_t gi = 0; gi < ng; ++gi)
    if (!pending[gi]) ready.push({p.groups_[gi].nodes.front(), static_cast<int>(gi)});
  std::vector<int> order, index_of(ng, -1);
  while (!ready.empty()) {
    int gi = ready.top().second;
    ready.pop();
    index_of[static_cast<size_t>(gi)] = static_cast<int>(order.size());
    order.push_back(gi);
    for (int d : dependents[static_cast<size_t>(gi)])
      if (--pending[static_cast<size_t>(d)] == 0) ready.push({p.groups_[static_cast<size_t>(d)].nodes.front(), d});
  }

  auto bytes_of = [&](NodeId s) -> int64_t {
    const Node& n = g.node(s);
    if (n.shape.empty()) return 0;  // scalars are immediates in the kernel's code
    return p.numel_[static_cast<size_t>(s)] * dtype_bytes(n.dtype);
  };

  std::vector<char> is_output(g.size(), 0);
  for (NodeId o : g.outputs()) is_output[static_cast<size_t>(p.storage_[static_cast<size_t>(o)])] = 1;

  std::vector<Kernel> kernels;
  kernels.reserve(ng);
  for (int gi : order) {
    const Group& gr = p.groups_[static_cast<size_t>(gi)];
    Kernel k;
    k.kind = gr.kind;
    k.nodes = gr.nodes;
    std::set<NodeId> read;
    for (NodeId id : gr.nodes) {
      const Node& n = g.node(id);
      k.label += (k.label.empty() ? "" : "+") + node_label(g, n);
      bool tc = false;
      double f = node_flops(g, n, p.numel_[static_cast<size_t>(id)], bind, &tc);
      (tc ? k.matmul_flops : k.other_flops) += f;
      if (n.op == Op::Attention) k.other_flops += attention_softmax_flops(g, n, p.numel_[static_cast<size_t>(id)], bind);
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (n.op == Op::KVWrite && i == 0) continue;  // the cache is only written, one row
        NodeId s = p.storage_[static_cast<size_t>(n.inputs[i])];
        if (p.group_of_[static_cast<size_t>(s)] == gi || !read.insert(s).second) continue;
        // An embedding reads only the rows it gathers, not the table.
        k.reads += n.op == Op::Embedding && i == 0 ? p.numel_[static_cast<size_t>(id)] * dtype_bytes(g.node(s).dtype)
                                                   : bytes_of(s);
      }
    }
    // Writes: values some other kernel reads, and the graph's outputs.
    for (NodeId id : gr.nodes) {
      std::set<int> consumers;
      for (NodeId u : p.users_[static_cast<size_t>(id)]) {  // includes readers through views
        int cg = p.group_of_[static_cast<size_t>(u)];
        if (cg >= 0 && cg != gi) consumers.insert(cg);
      }
      bool is_out = is_output[static_cast<size_t>(id)];
      if (consumers.empty() && !is_out) continue;
      k.writes += g.node(id).op == Op::KVWrite ? bytes_of(g.node(id).inputs[1]) : bytes_of(id);
      for (int cg : consumers) {
        auto it = p.why_.find({id, cg});
        k.ends.push_back({id, index_of[static_cast<size_t>(cg)], it != p.why_.end() ? it->second : Boundary::OneAnchorPerKernel});
      }
      if (is_out) k.ends.push_back({id, -1, Boundary::GraphOutput});
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace fl
