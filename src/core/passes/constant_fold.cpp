// constant_fold: evaluate at compile time what depends only on constants.
//
// 1. Walk forward. A compute or view node whose inputs are all constants is
//    replaced by a constant of its shape.
// 2. When every input carries a value (and the shape is concrete) the value
//    is computed with the reference interpreter; otherwise the constant is
//    shape-only: it would be computed ahead of time, it costs only its bytes.
// Params are weights, not constants: they are folded only by fold_norm_weight.
#include "core/interp.h"
#include "core/passes/passes.h"

namespace fl {

namespace {

bool foldable(const Graph& out, const Node& n, const NodeInputs& ins) {
  if (op_kind(n.op) == OpKind::Source || op_kind(n.op) == OpKind::Opaque || ins.empty()) return false;
  for (NodeId i : ins)
    if (out.node(i).op != Op::Const) return false;
  return true;
}

Values evaluate(const Graph& out, const Node& n, const NodeInputs& ins) {
  std::vector<TensorValue> vals;
  vals.reserve(ins.size());
  for (NodeId i : ins) {
    const Node& c = out.node(i);
    if (!c.value) return nullptr;
    TensorValue v;
    for (const Dim& d : c.shape) {
      if (!d.is_constant()) return nullptr;
      v.shape.push_back(d.constant());
    }
    v.data = *c.value;
    vals.push_back(std::move(v));
  }
  for (const Dim& d : n.shape)
    if (!d.is_constant()) return nullptr;
  std::vector<const TensorValue*> ptrs;
  for (const auto& v : vals) ptrs.push_back(&v);
  return std::make_shared<const std::vector<float>>(eval_node(n, ptrs, {}).data);
}

}  // namespace

PassResult constant_fold(const Graph& g) {
  Rebuilder rb(g);
  int rewrites = 0;
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    rb.visit(id);
    NodeInputs ins;
    for (NodeId i : n.inputs) ins.push_back(rb[i]);
    if (!foldable(rb.out(), n, ins)) {
      rb.copy(id);
      continue;
    }
    Values v = evaluate(rb.out(), n, ins);
    NodeId c;
    if (n.shape.empty() && v) {
      c = rb.scalar((*v)[0]);
    } else {
      c = rb.out().constant(n.shape, std::move(v), n.dtype);
    }
    rb.map(id, c);
    ++rewrites;
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl
