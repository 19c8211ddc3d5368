// match_attention: replace the attention subgraph with one attention op.
//
//   s  = matmul(q, transpose(k, {0,2,1}))     q (H, Tq, dh), k (H, Tk, dh)
//   s' = s * c   or   s / c                   c a scalar constant
//   m  = causal_mask(s', offset)
//   p  = softmax(m)
//   o  = matmul(p, v)                         → attention(q, k, v; scale, offset)
//
// 1. Walk the graph forward, copying nodes.
// 2. At each matmul, walk the chain backwards; every intermediate must have
//    no other user (else its value is needed and cannot vanish into a kernel).
// 3. On a match, map the final matmul to a new attention node; the chain's
//    nodes are left without users and dropped by finish().
#include "core/passes/passes.h"

#include <optional>

namespace fl {

namespace {

struct AttentionMatch {
  NodeId q, k, v;
  double scale;
  Dim offset;
};

std::optional<AttentionMatch> match_at(const Graph& g, const std::vector<int>& uses, NodeId out) {
  auto single = [&](NodeId id, Op op) { return g.node(id).op == op && uses[static_cast<size_t>(id)] == 1; };
  const Node& pv = g.node(out);
  if (pv.op != Op::MatMul || !single(pv.inputs[0], Op::Softmax)) return std::nullopt;
  NodeId masked = g.node(pv.inputs[0]).inputs[0];
  if (!single(masked, Op::CausalMask)) return std::nullopt;
  const Node& scaled = g.node(g.node(masked).inputs[0]);
  if (uses[static_cast<size_t>(g.node(masked).inputs[0])] != 1) return std::nullopt;
  if (scaled.op != Op::Mul && scaled.op != Op::Div) return std::nullopt;
  const Node& c = g.node(scaled.inputs[1]);
  if (c.op != Op::Const || !c.shape.empty() || (scaled.op == Op::Div && c.attrs.value == 0)) return std::nullopt;
  if (!single(scaled.inputs[0], Op::MatMul)) return std::nullopt;
  const Node& qk = g.node(scaled.inputs[0]);
  const Node& kt = g.node(qk.inputs[1]);
  if (kt.op != Op::Transpose || kt.attrs.perm != Perm{0, 2, 1}) return std::nullopt;
  AttentionMatch m{qk.inputs[0], kt.inputs[0], pv.inputs[1],
                   scaled.op == Op::Mul ? c.attrs.value : 1.0 / c.attrs.value, g.node(masked).attrs.mask_offset};
  const Shape &q = g.node(m.q).shape, &k = g.node(m.k).shape, &v = g.node(m.v).shape;
  // One head per batch entry on every operand (the matmuls may have broadcast them).
  if (q.size() != 3 || k.size() != 3 || v.size() != 3 || q[0] != k[0] || k[0] != v[0] || q[2] != k[2] || k[1] != v[1])
    return std::nullopt;
  return m;
}

}  // namespace

PassResult match_attention(const Graph& g) {
  std::vector<int> uses = g.use_counts();
  Rebuilder rb(g);
  int rewrites = 0;
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    auto m = match_at(g, uses, id);
    if (!m) {
      rb.copy(id);
      continue;
    }
    rb.out().set_origin(Origin::Attention);  // scores, softmax and p·v, now one op
    Attrs a;
    a.scale = m->scale;
    a.mask_offset = m->offset;
    rb.map(id, rb.emit(Op::Attention, {rb[m->q], rb[m->k], rb[m->v]}, a));
    ++rewrites;
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl
