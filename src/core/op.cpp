#include "core/op.h"

namespace fl {

OpKind op_kind(Op op) {
  switch (op) {
    case Op::Input: case Op::Param: case Op::Const: return OpKind::Source;
    case Op::Reshape: case Op::Transpose: case Op::RepeatKV: return OpKind::View;
    case Op::Sum: case Op::Mean: case Op::Max: case Op::RMSNorm: case Op::Softmax: return OpKind::Reduction;
    case Op::MatMul: return OpKind::MatMul;
    case Op::Attention: case Op::KVWrite: case Op::Embedding: return OpKind::Opaque;
    default: return OpKind::Pointwise;
  }
}

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Input: return "input";
    case Op::Param: return "param";
    case Op::Const: return "const";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Neg: return "neg";
    case Op::Exp: return "exp";
    case Op::Rsqrt: return "rsqrt";
    case Op::Cos: return "cos";
    case Op::Sin: return "sin";
    case Op::RotPairs: return "rot_pairs";
    case Op::CausalMask: return "causal_mask";
    case Op::Sum: return "sum";
    case Op::Mean: return "mean";
    case Op::Max: return "max";
    case Op::Reshape: return "reshape";
    case Op::Transpose: return "transpose";
    case Op::RepeatKV: return "repeat_kv";
    case Op::MatMul: return "matmul";
    case Op::RMSNorm: return "rmsnorm";
    case Op::Softmax: return "softmax";
    case Op::SiLU: return "silu";
    case Op::Attention: return "attention";
    case Op::KVWrite: return "kv_write";
    case Op::Embedding: return "embedding";
  }
  return "?";
}

bool is_binary_pointwise(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div;
}

bool reads_other_dtype(Op op, size_t input) {
  return (op == Op::MatMul && input == 1) || op == Op::Embedding;
}

bool is_composite(Op op) { return op == Op::RMSNorm || op == Op::Softmax || op == Op::SiLU; }

}  // namespace fl
