// fold_norm_weight: move RMSNorm's weight into the projections after it.
//
//   y = x̂ * w            w (d), a param
//   matmul(y, W)  →  matmul(x̂, W')    W' = diag(w) W, a new param (d, n)
//
// 1. Find y = mul(x̂, w) (either order) with w a rank-1 param over the last axis.
// 2. Every user of y must be a matmul taking y on the left and a param on the
//    right; otherwise y is still needed and nothing is folded.
// 3. Rewrite each such matmul; y loses its users and is dropped. W' carries a
//    value when w and W do (real weights), else it is shape-only.
#include "core/passes/passes.h"

namespace fl {

namespace {

// The (x̂, w) operands of a foldable norm-weight multiply, or {-1, -1}.
std::pair<NodeId, NodeId> norm_weight_operands(const Graph& g, const Node& n) {
  if (n.op != Op::Mul) return {-1, -1};
  for (int side = 0; side < 2; ++side) {
    NodeId x = n.inputs[static_cast<size_t>(side)], w = n.inputs[static_cast<size_t>(1 - side)];
    const Node& wn = g.node(w);
    if (wn.op == Op::Param && wn.shape.size() == 1 && !g.node(x).shape.empty() && wn.shape[0] == g.node(x).shape.back() &&
        g.node(x).shape == n.shape)
      return {x, w};
  }
  return {-1, -1};
}

Values scale_rows(const Node& w, const Node& W) {
  if (!w.value || !W.value) return nullptr;
  auto out = std::make_shared<std::vector<float>>(*W.value);
  size_t rows = w.value->size(), cols = out->size() / rows;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) (*out)[r * cols + c] *= (*w.value)[r];
  return out;
}

}  // namespace

PassResult fold_norm_weight(const Graph& g) {
  // users[y] = the matmuls reading y, or empty when y cannot be folded
  std::vector<std::vector<NodeId>> users(g.size());
  std::vector<char> blocked(g.size(), 0);
  for (NodeId o : g.outputs()) blocked[static_cast<size_t>(o)] = 1;
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id)
    for (size_t k = 0; k < g.node(id).inputs.size(); ++k) {
      NodeId in = g.node(id).inputs[k];
      const Node& user = g.node(id);
      bool ok = user.op == Op::MatMul && k == 0 && g.node(user.inputs[1]).op == Op::Param &&
                g.node(user.inputs[1]).shape.size() == 2;
      if (ok) users[static_cast<size_t>(in)].push_back(id);
      else blocked[static_cast<size_t>(in)] = 1;
    }

  Rebuilder rb(g);
  int rewrites = 0;
  std::vector<NodeId> folded_from(g.size(), -1);  // matmul -> its x̂ (old id) when folded
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    rb.visit(id);
    auto [x, w] = norm_weight_operands(g, n);
    if (x >= 0 && !blocked[static_cast<size_t>(id)] && !users[static_cast<size_t>(id)].empty())
      for (NodeId m : users[static_cast<size_t>(id)]) folded_from[static_cast<size_t>(m)] = id;
    const NodeId y = folded_from[static_cast<size_t>(id)];
    if (y < 0) {
      rb.copy(id);
      continue;
    }
    auto [xhat, weight] = norm_weight_operands(g, g.node(y));
    const Node& W = g.node(n.inputs[1]);
    NodeId folded = rb.out().param(g.node(weight).attrs.name + "*" + W.attrs.name, W.shape,
                                   scale_rows(g.node(weight), W), W.dtype);
    rb.map(id, rb.emit(Op::MatMul, {rb[xhat], folded}));
    ++rewrites;
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl
