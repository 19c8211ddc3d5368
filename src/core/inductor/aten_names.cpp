#include "core/inductor/aten_names.h"

namespace fl::inductor {

std::vector<std::string_view> aten_names(const Node& n) {
  switch (n.op) {
    case Op::Input: case Op::Param: case Op::Const: return {};
    case Op::Add: return {"add"};
    case Op::Sub: return {"sub"};
    case Op::Mul: return {n.inputs[0] == n.inputs[1] ? "pow" : "mul"};  // x * x is written x.pow(2)
    case Op::Div: return {"div"};
    case Op::Neg: return {"neg"};
    case Op::Exp: return {"exp"};
    case Op::Rsqrt: return {"rsqrt"};
    case Op::Cos: return {"cos"};
    case Op::Sin: return {"sin"};
    case Op::Tanh: return {"tanh"};
    case Op::RotPairs: return {"cat", "neg", "split"};  // rotate_half: the halves split, negated, concatenated
    case Op::CausalMask: return {"where"};
    case Op::Cast: return {"_to_copy"};
    case Op::LogicalNot: return {"bitwise_not"};
    case Op::MaskedFill: return {"masked_fill"};
    case Op::Sum: return {"sum"};
    case Op::Mean: return {"mean"};
    case Op::Max: return {"amax"};
    case Op::Reshape: return {"view"};
    case Op::Transpose: return {"transpose"};
    case Op::RepeatKV: return {"clone", "expand", "unsqueeze"};  // repeat_interleave
    case Op::Slice: return {"split"};  // freezing's concatenated GEMM, split back into its outputs
    case Op::MatMul: return {n.shape.size() > 2 ? "bmm" : "mm"};  // batched: aten.bmm
    case Op::RMSNorm: return {"add", "mean", "mul", "pow", "rsqrt"};
    case Op::LayerNorm: return {"native_layer_norm"};
    case Op::Softmax: return {"_softmax"};
    case Op::SiLU: return {"silu"};
    case Op::Gelu: return {"gelu"};
    case Op::Attention: return {"_scaled_dot_product_cudnn_attention"};
    case Op::KVWrite: return {"index_put"};
    case Op::Embedding: return {"embedding"};
  }
  return {};
}

}  // namespace fl::inductor
