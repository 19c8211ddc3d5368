// Grouping: greedy, TVM-style, over a graph in topological order.
//
//   views: no kernel; consumers read the viewed storage through new indexing.
//   Every other compute node joins the kernel (group) of one of its producers
//   when the merge rules allow it (rules.h), or opens a new one:
//
// 1. A consumer tries its producers' groups, latest producer first.
// 2. A pointwise node used only by reductions is left to them (it becomes
//    their prologue, inlined into the reduction's loop), rather than being an
//    epilogue of a matmul whose output another kernel must read anyway.
// 3. A merge that would make two groups wait on each other is refused.
#include "core/fusion/grouping.h"

#include <algorithm>
#include <optional>
#include <tuple>

#include "core/fusion/rules.h"
#include "core/small_vector.h"

namespace fl::fusion {

namespace {

KernelKind kind_of_node(Op op) {
  switch (op_kind(op)) {
    case OpKind::MatMul: return KernelKind::MatMul;
    case OpKind::Reduction: return KernelKind::Rowwise;
    case OpKind::Opaque:
      return op == Op::Attention ? KernelKind::Attention : op == Op::KVWrite ? KernelKind::KVWrite : KernelKind::Embedding;
    default: return KernelKind::Pointwise;
  }
}

// A node's producers: as many as its operands, held inline.
struct Producer {
  NodeId storage;
  int group;
};
using Producers = SmallVector<Producer, 4>;

class Partitioner {
 public:
  Partitioner(const Graph& g, const FuseOptions& opt, const Binding& bind)
      : g_(g), opt_(opt), numel_(node_numels(g, bind)), storage_(g.size()), group_of_(g.size(), -1) {
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.nodes()[i];
      storage_[i] = free_view(static_cast<NodeId>(i)) ? storage_[static_cast<size_t>(n.inputs[0])] : static_cast<NodeId>(i);
    }
    // Readers per storage node: counted, then filled in graph order.
    users_.start.assign(g.size() + 1, 0);
    for (const Node& n : g.nodes())
      for (NodeId in : n.inputs) ++users_.start[static_cast<size_t>(storage_[static_cast<size_t>(in)]) + 1];
    for (size_t i = 0; i < g.size(); ++i) users_.start[i + 1] += users_.start[i];
    users_.list.resize(users_.start.back());
    std::vector<size_t> next(users_.start.begin(), users_.start.end() - 1);
    for (size_t i = 0; i < g.size(); ++i)
      for (NodeId in : g.nodes()[i].inputs) users_.list[next[static_cast<size_t>(storage_[static_cast<size_t>(in)])]++] = static_cast<NodeId>(i);
  }

  void run() {
    groups_.reserve(g_.size());
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
  Users users_;  // every node reading a storage node, directly or through views
  std::vector<Group> groups_;
  std::vector<CrossingReason> why_;  // in the order recorded; the first for a (tensor, group) stands
  mutable std::vector<int> seen_;      // depends_on's walks: the stamp of the last walk that reached each node
  mutable int walk_ = 0;
  mutable std::vector<NodeId> stack_;  // depends_on's work list, kept between walks
  mutable std::vector<ExtentGuard> guards_;  // each comparison of extents, as made
  NodeId placing_ = -1;                      // the node place() is placing

  bool is_compute(NodeId s) const { return group_of_[static_cast<size_t>(s)] >= 0; }

  // The space and the rows a reduction loops over: its input's.
  std::pair<Extent, Extent> row_space(NodeId id) const {
    NodeId in = g_.node(id).inputs[0];
    return {Extent{in, false}, Extent{in, true}};
  }

  // Compares two extents under the binding, and keeps the comparison as a guard.
  bool same(Extent a, Extent b) const {
    const bool equal = extent_value(g_, numel_, a) == extent_value(g_, numel_, b);
    guards_.push_back({a, b, equal, placing_});
    return equal;
  }

  // Whether `id` can join group `gi`, or the reason it cannot.
  std::optional<Boundary> refuse(NodeId id, int gi) const {
    if (!opt_.enable) return Boundary::FusionOff;
    const Group& gr = groups_[static_cast<size_t>(gi)];
    const MergeRule& rule = merge_rule(gr.kind, kind(id));
    if (!rule.allowed) return rule.refused;
    if (!spaces_match(rule.space, gr, id)) return Boundary::IterationSpace;
    return switched_on(rule.needs) ? std::nullopt : std::optional(Boundary::SwitchedOff);
  }

  bool spaces_match(SpaceMatch match, const Group& gr, NodeId id) const {
    const Extent n{id, false};
    switch (match) {
      case SpaceMatch::SameSpace: return same(n, gr.space);
      case SpaceMatch::SpaceOrRows: return same(n, gr.space) || same(n, gr.rows);
      case SpaceMatch::ReducesSpace: return same(row_space(id).first, gr.space);
      case SpaceMatch::SameRows: return same(row_space(id).first, gr.space) && same(row_space(id).second, gr.rows);
    }
    return false;
  }

  bool switched_on(MergeSwitch needs) const {
    switch (needs) {
      case MergeSwitch::InliningOrFusion: return opt_.inlining || opt_.fusion;
      case MergeSwitch::Fusion: return opt_.fusion;
      case MergeSwitch::MatmulEpilogue: return opt_.fusion && opt_.matmul_epilogues;
    }
    return false;
  }

  // Rule 2: a pointwise node whose every user is a reduction.
  bool feeds_only_reductions(NodeId id) const {
    const std::span<const NodeId> us = users_.of(id);
    if (us.empty()) return false;
    for (NodeId u : us)
      if (op_kind(g_.node(u).op) != OpKind::Reduction) return false;
    return std::find(g_.outputs().begin(), g_.outputs().end(), id) == g_.outputs().end();
  }

  // Does group `from` (transitively) read anything that group `target` produces?
  bool depends_on(int from, int target) const {
    NodeId horizon = groups_[static_cast<size_t>(target)].nodes.front();
    // Visited nodes carry this walk's stamp: no set to allocate per question.
    if (seen_.size() != g_.size()) seen_.assign(g_.size(), 0);
    const int stamp = ++walk_;
    std::vector<NodeId>& stack = stack_;
    stack.assign(groups_[static_cast<size_t>(from)].nodes.begin(), groups_[static_cast<size_t>(from)].nodes.end());
    for (NodeId id : stack) seen_[static_cast<size_t>(id)] = stamp;
    while (!stack.empty()) {
      NodeId id = stack.back();
      stack.pop_back();
      for (NodeId in : g_.node(id).inputs) {
        NodeId s = storage_[static_cast<size_t>(in)];
        if (s < horizon || seen_[static_cast<size_t>(s)] == stamp) continue;  // nothing before the group can depend on it
        seen_[static_cast<size_t>(s)] = stamp;
        if (group_of_[static_cast<size_t>(s)] == target) return true;
        stack.push_back(s);
      }
    }
    return false;
  }

  void place(NodeId id) {
    placing_ = id;
    const Node& n = g_.node(id);
    // Producer groups of this node, latest producer first.
    Producers producers;
    for (NodeId in : n.inputs) {
      NodeId s = storage_[static_cast<size_t>(in)];
      if (is_compute(s)) producers.push_back({s, group_of_[static_cast<size_t>(s)]});
    }
    std::sort(producers.begin(), producers.end(), [](auto& a, auto& b) { return a.storage > b.storage; });

    // Each producer group, latest first: the first that may take the node
    // does; every other one keeps the reason it cannot, judged before the
    // node joins anything.
    const bool leave_to_reduction = kind(id) == OpKind::Pointwise && feeds_only_reductions(id);
    int chosen = -1;
    struct Refusal {
      int group;
      Boundary why;
    };
    SmallVector<Refusal, 4> not_joined;  // a node has a few producers
    auto refused = [&](int gi) {
      return std::find_if(not_joined.begin(), not_joined.end(), [gi](const Refusal& e) { return e.group == gi; });
    };
    for (auto [s, gi] : producers) {
      if (gi == chosen || refused(gi) != not_joined.end()) continue;
      if (auto why = why_not_join(id, gi, producers, leave_to_reduction)) not_joined.push_back({gi, *why});
      else if (chosen < 0) chosen = gi;
      else not_joined.push_back({gi, Boundary::OneAnchorPerKernel});
    }
    if (chosen < 0) {
      chosen = static_cast<int>(groups_.size());
      Group gr{kind_of_node(n.op), Extent{id, false}, Extent{}, {}};
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
      if (gi != chosen) why_.push_back({s, chosen, refused(gi)->why});
  }

  // Why `id` cannot join producer group `gi`, or nothing when it may.
  std::optional<Boundary> why_not_join(NodeId id, int gi, const Producers& producers,
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

}  // namespace

namespace {
bool before(const CrossingReason& a, const CrossingReason& b) { return std::tie(a.tensor, a.group) < std::tie(b.tensor, b.group); }
}  // namespace

Boundary Grouping::why_crossing(NodeId tensor, int group) const {
  const size_t t = static_cast<size_t>(tensor);
  for (size_t i = why_start[t]; i < why_start[t + 1]; ++i)  // a tensor crosses into a few kernels
    if (why[i].group == group) return why[i].why;
  return Boundary::OneAnchorPerKernel;
}

std::vector<int64_t> node_numels(const Graph& g, const Binding& bind) {
  std::vector<int64_t> out(g.size());
  for (size_t i = 0; i < g.size(); ++i) out[i] = eval_numel(g.nodes()[i].shape, bind);
  return out;
}

int64_t extent_value(const Graph& g, const std::vector<int64_t>& numel, Extent e) {
  if (e.node < 0) return 0;
  const int64_t m = numel[static_cast<size_t>(e.node)];
  if (!e.rows) return m;
  const Dim& last = g.node(e.node).shape.back();
  return last.is_constant() && last.constant() > 0 ? m / last.constant() : 0;
}

bool guards_hold(const Graph& g, std::span<const ExtentGuard> guards, const std::vector<int64_t>& numel) {
  for (const ExtentGuard& guard : guards)
    if ((extent_value(g, numel, guard.a) == extent_value(g, numel, guard.b)) != guard.equal) return false;
  return true;
}

Grouping group_nodes(const Graph& g, const FuseOptions& opt, const Binding& bind) {
  Partitioner p(g, opt, bind);
  p.run();
  // Sorted for lookup; stable, so the first reason recorded for a pair is the one kept.
  std::stable_sort(p.why_.begin(), p.why_.end(), before);
  p.why_.erase(std::unique(p.why_.begin(), p.why_.end(),
                           [](const CrossingReason& a, const CrossingReason& b) { return !before(a, b) && !before(b, a); }),
               p.why_.end());
  std::vector<size_t> why_start(g.size() + 1, 0);
  for (const CrossingReason& r : p.why_) ++why_start[static_cast<size_t>(r.tensor) + 1];
  for (size_t i = 0; i < g.size(); ++i) why_start[i + 1] += why_start[i];
  return {std::move(p.groups_), std::move(p.group_of_), std::move(p.storage_), std::move(p.numel_), std::move(p.users_),
          std::move(p.why_), std::move(why_start), std::move(p.guards_)};
}

}  // namespace fl::fusion
