// decompose: composite ops into the primitives a fusing compiler works on.
//
//   rmsnorm(x, w) = x * rsqrt(mean(x * x) + eps) * w
//   softmax(s)    = e / sum(e)   where e = exp(s - max(s))
//   silu(x)       = x * (1 / (1 + exp(-x)))
//   layernorm(x, w, b) = (x - mean(x)) * rsqrt(mean(d * d) + eps) * w + b   where d = x - mean(x)
//   gelu(x)       = x * (0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x * x * x))))
//
// Eager PyTorch runs each composite as one handwritten kernel; after this pass
// each primitive is a kernel of its own unless fusion merges them back.
#include "core/passes/passes.h"

#include <cmath>
#include <numbers>

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
      case Op::LayerNorm: {
        NodeId d = op(Op::Sub, {x, op(Op::Mean, {x})});
        NodeId r = op(Op::Rsqrt, {op(Op::Add, {op(Op::Mean, {op(Op::Mul, {d, d})}), rb.scalar(n.attrs.eps)})});
        y = op(Op::Add, {op(Op::Mul, {op(Op::Mul, {d, r}), rb[n.inputs[1]]}), rb[n.inputs[2]]});
        break;
      }
      case Op::Gelu: {
        NodeId cube = op(Op::Mul, {op(Op::Mul, {x, x}), x});
        NodeId inner = op(Op::Mul, {op(Op::Add, {x, op(Op::Mul, {cube, rb.scalar(0.044715)})}), rb.scalar(std::sqrt(2 / std::numbers::pi))});
        NodeId half = op(Op::Mul, {op(Op::Add, {rb.scalar(1), op(Op::Tanh, {inner})}), rb.scalar(0.5)});
        y = op(Op::Mul, {x, half});
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
