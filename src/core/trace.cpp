#include "core/trace.h"

namespace fl {

Tensor Tensor::apply(Op op, std::vector<Tensor> more, Attrs attrs, Shape shape, DType dtype) const {
  NodeInputs ins{id_};
  for (const Tensor& t : more) {
    if (&t.graph() != g_) throw GraphError(std::string(op_name(op)) + ": operands come from different graphs");
    ins.push_back(t.id());
  }
  return {g_, g_->add(op, std::move(ins), std::move(attrs), std::move(shape), dtype)};
}

namespace {
Tensor scalar_like(const Tensor& t, double v) { return {&t.graph(), t.graph().scalar(v)}; }
Attrs with_mask_offset(Dim d) {
  Attrs a;
  a.mask_offset = std::move(d);
  return a;
}
}  // namespace

Tensor operator+(const Tensor& a, const Tensor& b) { return a.apply(Op::Add, {b}); }
Tensor operator-(const Tensor& a, const Tensor& b) { return a.apply(Op::Sub, {b}); }
Tensor operator*(const Tensor& a, const Tensor& b) { return a.apply(Op::Mul, {b}); }
Tensor operator/(const Tensor& a, const Tensor& b) { return a.apply(Op::Div, {b}); }
Tensor operator+(const Tensor& a, double b) { return a + scalar_like(a, b); }
Tensor operator*(const Tensor& a, double b) { return a * scalar_like(a, b); }
Tensor operator/(const Tensor& a, double b) { return a / scalar_like(a, b); }
Tensor operator/(double a, const Tensor& b) { return scalar_like(b, a) / b; }
Tensor operator+(double a, const Tensor& b) { return scalar_like(b, a) + b; }
Tensor operator-(const Tensor& a) { return a.apply(Op::Neg); }

Tensor exp(const Tensor& x) { return x.apply(Op::Exp); }
Tensor rsqrt(const Tensor& x) { return x.apply(Op::Rsqrt); }
Tensor cos(const Tensor& x) { return x.apply(Op::Cos); }
Tensor sin(const Tensor& x) { return x.apply(Op::Sin); }
Tensor rot_pairs(const Tensor& x) { return x.apply(Op::RotPairs); }
Tensor causal_mask(const Tensor& scores, Dim offset) { return scores.apply(Op::CausalMask, {}, with_mask_offset(offset)); }
Tensor sum(const Tensor& x) { return x.apply(Op::Sum); }
Tensor mean(const Tensor& x) { return x.apply(Op::Mean); }
Tensor max(const Tensor& x) { return x.apply(Op::Max); }
Tensor reshape(const Tensor& x, Shape shape) { return x.apply(Op::Reshape, {}, {}, std::move(shape)); }

Tensor transpose(const Tensor& x, Perm perm) {
  Attrs a;
  a.perm = std::move(perm);
  return x.apply(Op::Transpose, {}, a);
}

Tensor repeat_kv(const Tensor& x, int64_t n_rep) {
  Attrs a;
  a.n_rep = n_rep;
  return x.apply(Op::RepeatKV, {}, a);
}

Tensor matmul(const Tensor& a, const Tensor& b) { return a.apply(Op::MatMul, {b}); }

Tensor rmsnorm(const Tensor& x, const Tensor& weight, double eps) {
  Attrs a;
  a.eps = eps;
  return x.apply(Op::RMSNorm, {weight}, a);
}

Tensor layernorm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps) {
  Attrs a;
  a.eps = eps;
  return x.apply(Op::LayerNorm, {weight, bias}, a);
}

Tensor tanh(const Tensor& x) { return x.apply(Op::Tanh); }
Tensor gelu(const Tensor& x) { return x.apply(Op::Gelu); }
Tensor softmax(const Tensor& x) { return x.apply(Op::Softmax); }
Tensor silu(const Tensor& x) { return x.apply(Op::SiLU); }
Tensor kv_write(const Tensor& cache, const Tensor& fresh, Dim row) {
  Attrs a;
  a.row = std::move(row);
  return cache.apply(Op::KVWrite, {fresh}, a);
}

Tensor cast(const Tensor& x, DType to) { return x.apply(Op::Cast, {}, {}, {}, to); }
Tensor logical_not(const Tensor& mask) { return mask.apply(Op::LogicalNot); }

Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
  Attrs a;
  a.value = value;
  return x.apply(Op::MaskedFill, {mask}, a);
}

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, double scale, Dim offset) {
  Attrs a = with_mask_offset(std::move(offset));
  a.scale = scale;
  return q.apply(Op::Attention, {k, v}, a);
}

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, double scale, Dim offset, const Tensor& mask) {
  Attrs a = with_mask_offset(std::move(offset));
  a.scale = scale;
  return q.apply(Op::Attention, {k, v, mask}, a);
}

}  // namespace fl
