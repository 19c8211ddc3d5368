// simplify: algebraic identities, written as a table of rewrite rules.
//
// Each node is rebuilt through `build`, which tries every rule in order; a
// rule that fires returns the replacement (itself built through `build`, so
// rules compose: x / c → x * (1/c) → then (x * a) * b → x * (a·b)).
#include <functional>
#include <optional>

#include "core/passes/passes.h"

namespace fl {

namespace {

// A node to build: the attributes and shape are read where they are (the
// source node's, or a rule's, which outlive the build).
struct Term {
  Op op;
  NodeInputs in;
  const Attrs& attrs;
  const Shape& shape;
  DType dtype;  // kept where the operands do not decide it (an embedding's)
};

class Simplifier;
using Rule = std::optional<NodeId> (*)(Simplifier&, const Term&);

class Simplifier {
 public:
  explicit Simplifier(const Graph& g) : rb(g) {}
  Rebuilder rb;
  int rewrites = 0;

  NodeId build(const Term& t);
  // The first rule's replacement for `t`, if one applies.
  std::optional<NodeId> rewrite(const Term& t);
  const Node& at(NodeId id) { return rb.out().node(id); }
  std::optional<double> scalar(NodeId id) {
    const Node& n = at(id);
    if (n.op == Op::Const && n.shape.empty() && n.value) return n.attrs.value;
    return std::nullopt;
  }
  bool is(NodeId id, double v) { return scalar(id) == v; }
  // `x` can stand for the whole expression only if broadcasting added nothing.
  bool same_shape(NodeId x, const Term& t) { return at(x).shape == t.shape; }
};

std::optional<NodeId> identity_operand(Simplifier& s, const Term& t) {  // x+0, 0+x, x-0, x*1, 1*x, x/1
  if (t.in.size() != 2) return std::nullopt;
  NodeId a = t.in[0], b = t.in[1];
  auto keep = [&](NodeId x) { return s.same_shape(x, t) ? std::optional<NodeId>(x) : std::nullopt; };
  switch (t.op) {
    case Op::Add: return s.is(b, 0) ? keep(a) : s.is(a, 0) ? keep(b) : std::nullopt;
    case Op::Sub: return s.is(b, 0) ? keep(a) : std::nullopt;
    case Op::Mul: return s.is(b, 1) ? keep(a) : s.is(a, 1) ? keep(b) : std::nullopt;
    case Op::Div: return s.is(b, 1) ? keep(a) : std::nullopt;
    default: return std::nullopt;
  }
}

std::optional<NodeId> div_by_constant(Simplifier& s, const Term& t) {  // x / c → x * (1/c)
  if (t.op != Op::Div) return std::nullopt;
  auto c = s.scalar(t.in[1]);
  if (!c || *c == 0) return std::nullopt;
  return s.build({Op::Mul, {t.in[0], s.rb.scalar(1.0 / *c)}, {}, t.shape, t.dtype});
}

std::optional<NodeId> fold_scalar_products(Simplifier& s, const Term& t) {  // (x * a) * b → x * (a·b)
  if (t.op != Op::Mul) return std::nullopt;
  auto b = s.scalar(t.in[1]);
  const Node& inner = s.at(t.in[0]);
  if (!b || inner.op != Op::Mul) return std::nullopt;
  auto a = s.scalar(inner.inputs[1]);
  if (!a) return std::nullopt;
  return s.build({Op::Mul, {inner.inputs[0], s.rb.scalar(*a * *b)}, {}, t.shape, t.dtype});
}

std::optional<NodeId> double_negation(Simplifier& s, const Term& t) {  // -(-x) → x
  if (t.op != Op::Neg || s.at(t.in[0]).op != Op::Neg) return std::nullopt;
  return s.at(t.in[0]).inputs[0];
}

std::optional<NodeId> view_chains(Simplifier& s, const Term& t) {
  const Node& src = s.at(t.in.empty() ? 0 : t.in[0]);
  if (t.op == Op::Reshape) {
    if (src.shape == t.shape) return t.in[0];  // reshape to the same shape
    if (src.op == Op::Reshape) return s.build({Op::Reshape, {src.inputs[0]}, {}, t.shape, t.dtype});
  }
  if (t.op == Op::Transpose) {
    bool identity = true;
    for (size_t i = 0; i < t.attrs.perm.size(); ++i) identity = identity && t.attrs.perm[i] == static_cast<int>(i);
    if (identity) return t.in[0];
    if (src.op == Op::Transpose) {  // out[i] = src[perm[i]] = x[src.perm[perm[i]]]
      Attrs a;
      for (int p : t.attrs.perm) a.perm.push_back(src.attrs.perm[static_cast<size_t>(p)]);
      return s.build({Op::Transpose, {src.inputs[0]}, a, t.shape, t.dtype});
    }
  }
  if (t.op == Op::RepeatKV && t.attrs.n_rep == 1) return t.in[0];
  return std::nullopt;
}

constexpr Rule kRules[] = {identity_operand, div_by_constant, fold_scalar_products, double_negation, view_chains};

std::optional<NodeId> Simplifier::rewrite(const Term& t) {
  for (Rule rule : kRules)
    if (auto r = rule(*this, t)) {
      ++rewrites;
      return r;
    }
  return std::nullopt;
}

NodeId Simplifier::build(const Term& t) {
  if (auto r = rewrite(t)) return *r;
  return rb.out().add(t.op, t.in, t.attrs, t.shape, t.dtype);
}

}  // namespace

PassResult simplify(const Graph& g) {
  Simplifier s(g);
  for (NodeId id = 0; id < static_cast<NodeId>(g.size()); ++id) {
    const Node& n = g.node(id);
    s.rb.visit(id);
    if (op_kind(n.op) == OpKind::Source) {
      s.rb.copy(id);
      continue;
    }
    Term t{n.op, {}, n.attrs, n.shape, n.dtype};
    for (NodeId i : n.inputs) t.in.push_back(s.rb[i]);
    // No rule: the node as it was, its operands remapped (a rule's
    // replacement has the shape and dtype of what it replaces).
    if (auto r = s.rewrite(t)) s.rb.map(id, *r);
    else s.rb.copy(id);
  }
  return {s.rb.finish(), s.rewrites};
}

}  // namespace fl
