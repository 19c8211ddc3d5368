#include "core/inductor/freezing.h"

#include <algorithm>

#include "core/passes/rebuild.h"

namespace fl::inductor {

namespace {

bool weight_matmul(const Graph& g, const Node& n, NodeId x) {
  return n.op == Op::MatMul && n.inputs[0] == x && n.inputs[1] != x && g.node(n.inputs[1]).op == Op::Param &&
         g.node(n.inputs[1]).shape.size() == 2;
}

// The weights side by side: row r of the result is row r of each in turn.
Values concatenated(const Graph& g, const std::vector<NodeId>& matmuls) {
  std::vector<const Node*> weights;
  for (NodeId m : matmuls) weights.push_back(&g.node(g.node(m).inputs[1]));
  if (std::any_of(weights.begin(), weights.end(), [](const Node* w) { return !w->value; })) return nullptr;
  const int64_t rows = weights[0]->shape[0].constant(), cols = weights[0]->shape[1].constant();
  auto out = std::make_shared<std::vector<float>>();
  out->reserve(static_cast<size_t>(rows * cols) * weights.size());
  for (int64_t r = 0; r < rows; ++r)
    for (const Node* w : weights) {
      const auto row = w->value->begin() + static_cast<std::ptrdiff_t>(r * cols);
      out->insert(out->end(), row, row + static_cast<std::ptrdiff_t>(cols));
    }
  return out;
}

}  // namespace

Graph concat_frozen_matmuls(const Graph& g) {
  std::vector<std::vector<NodeId>> readers(g.size());
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id)
    for (NodeId in : g.node(id).inputs) readers[static_cast<size_t>(in)].push_back(id);
  for (NodeId o : g.outputs()) readers[static_cast<size_t>(o)].push_back(-1);  // the caller reads it too

  // first reader -> the matmuls that become one (the first among them)
  std::vector<std::vector<NodeId>> merged(g.size());
  for (NodeId x = 0; x < static_cast<NodeId>(g.size()); ++x) {
    const std::vector<NodeId>& rs = readers[static_cast<size_t>(x)];
    if (rs.size() < 2) continue;
    const bool all_weights = std::all_of(rs.begin(), rs.end(), [&](NodeId r) { return r >= 0 && weight_matmul(g, g.node(r), x); });
    if (!all_weights) continue;
    const Node& w0 = g.node(g.node(rs[0]).inputs[1]);
    const bool one_shape = std::all_of(rs.begin(), rs.end(), [&](NodeId r) {
      const Node& w = g.node(g.node(r).inputs[1]);
      return w.shape == w0.shape && w.dtype == w0.dtype && w.shape[1].is_constant();
    });
    if (one_shape) merged[static_cast<size_t>(rs[0])] = rs;
  }

  Rebuilder rb(g);
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    rb.visit(id);
    const std::vector<NodeId>& group = merged[static_cast<size_t>(id)];
    if (group.empty()) {
      if (rb[id] < 0) rb.copy(id);  // a merged matmul after the first is its slice already
      continue;
    }
    const Node& w0 = g.node(g.node(id).inputs[1]);
    std::string name;
    for (NodeId m : group) name.append(name.empty() ? "" : "|").append(g.node(g.node(m).inputs[1]).attrs.name);
    const int64_t cols = w0.shape[1].constant();
    const NodeId weights = rb.out().param(name, {w0.shape[0], Dim(cols * static_cast<int64_t>(group.size()))},
                                          concatenated(g, group), w0.dtype);
    const NodeId product = rb.emit(Op::MatMul, {rb[g.node(id).inputs[0]], weights});
    for (size_t i = 0; i < group.size(); ++i) {
      rb.visit(group[i]);
      Attrs a;
      a.slice_begin = cols * static_cast<int64_t>(i);
      rb.map(group[i], rb.emit(Op::Slice, {product}, a, g.node(group[i]).shape));
    }
  }
  return rb.finish();
}

}  // namespace fl::inductor
