// Tracing: a tensor handle whose operations record nodes in a graph, so that
// model code reads like the math: `x * rsqrt(mean(x * x) + eps)`.
#pragma once

#include "core/graph.h"

namespace fl {

class Tensor {
 public:
  Tensor(Graph* g, NodeId id) : g_(g), id_(id) {}
  Graph& graph() const { return *g_; }
  NodeId id() const { return id_; }
  const Shape& shape() const { return g_->node(id_).shape; }
  // Records `op` with this tensor as its first input (`dtype`: a cast's target).
  Tensor apply(Op op, std::vector<Tensor> more = {}, Attrs attrs = {}, Shape shape = {},
               DType dtype = DType::BF16) const;

 private:
  Graph* g_;
  NodeId id_;
};

// Gives the origin back when the traced code it wraps is done: code that
// sets the origin of the steps it traces (Graph::set_origin) leaves its
// caller's as it found it.
class OriginRestore {
 public:
  explicit OriginRestore(Graph& g) : g_(g), before_(g.origin()) {}
  ~OriginRestore() { g_.set_origin(before_); }
  OriginRestore(const OriginRestore&) = delete;
  OriginRestore& operator=(const OriginRestore&) = delete;

 private:
  Graph& g_;
  Origin before_;
};

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, double b);
Tensor operator*(const Tensor& a, double b);
Tensor operator/(const Tensor& a, double b);
Tensor operator/(double a, const Tensor& b);
Tensor operator+(double a, const Tensor& b);
Tensor operator-(const Tensor& a);

Tensor exp(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor cos(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor rot_pairs(const Tensor& x);
Tensor causal_mask(const Tensor& scores, Dim offset);
Tensor sum(const Tensor& x);
Tensor mean(const Tensor& x);
Tensor max(const Tensor& x);
Tensor reshape(const Tensor& x, Shape shape);
Tensor transpose(const Tensor& x, Perm perm);
Tensor repeat_kv(const Tensor& x, int64_t n_rep);
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor rmsnorm(const Tensor& x, const Tensor& weight, double eps);
Tensor layernorm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps);
Tensor tanh(const Tensor& x);
Tensor gelu(const Tensor& x);  // the tanh approximation
Tensor softmax(const Tensor& x);
Tensor silu(const Tensor& x);
Tensor kv_write(const Tensor& cache, const Tensor& fresh, Dim row);
Tensor cast(const Tensor& x, DType to);
Tensor logical_not(const Tensor& mask);
// `value` where the boolean `mask` (broadcast to x) holds, else x.
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);
// Causal attention of q over k and v (one head per batch entry on each),
// keys j <= i + offset for query i, scores scaled by `scale`.
Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, double scale, Dim offset);
// The same with a boolean mask over the keys (1, keys), as attn_mask.
Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, double scale, Dim offset, const Tensor& mask);

}  // namespace fl
