// decompose: composite ops into the primitives a fusing compiler works on.
//
//   rmsnorm(x, w) = x * rsqrt(mean(x * x) + eps) * w
//   softmax(s)    = e / sum(e)   where e = exp(s - max(s))
//   silu(x)       = x * (1 / (1 + exp(-x)))
//
// Eager PyTorch runs each composite as one handwritten kernel; after this pass
// each primitive is a kernel of its own unless fusion merges them back.
#include "core/passes/passes.h"

namespace fl {

PassResult decompose(const Graph& g) {
  Rebuilder rb(g);
  int rewrites = 0;
  auto op = [&](Op o, NodeInputs in) { return rb.emit(o, std::move(in)); };
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    rb.visit(id);
    if (!is_composite(n.op)) {
      rb.copy(id);
      continue;
    }
    NodeId x = rb[n.inputs[0]], y = -1;
    switch (n.op) {
      case Op::RMSNorm: {
        NodeId ms = op(Op::Mean, {op(Op::Mul, {x, x})});
        NodeId r = op(Op::Rsqrt, {op(Op::Add, {ms, rb.scalar(n.attrs.eps)})});
        y = op(Op::Mul, {op(Op::Mul, {x, r}), rb[n.inputs[1]]});
        break;
      }
      case Op::Softmax: {
        NodeId e = op(Op::Exp, {op(Op::Sub, {x, op(Op::Max, {x})})});
        y = op(Op::Div, {e, op(Op::Sum, {e})});
        break;
      }
      case Op::SiLU: {
        NodeId sig = op(Op::Div, {rb.scalar(1), op(Op::Add, {rb.scalar(1), op(Op::Exp, {op(Op::Neg, {x})})})});
        y = op(Op::Mul, {x, sig});
        break;
      }
      default:  // a composite added to ops.def needs its decomposition here
        throw GraphError("decompose: no decomposition for " + std::string(op_name(n.op)));
    }
    rb.map(id, y);
    ++rewrites;
  }
  return {rb.finish(), rewrites};
}

}  // namespace fl
