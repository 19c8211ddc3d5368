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
  // Records `op` with this tensor as its first input.
  Tensor apply(Op op, std::vector<Tensor> more = {}, Attrs attrs = {}, Shape shape = {}) const;

 private:
  Graph* g_;
  NodeId id_;
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
Tensor softmax(const Tensor& x);
Tensor silu(const Tensor& x);
Tensor kv_write(const Tensor& cache, const Tensor& fresh, Dim row);

}  // namespace fl
