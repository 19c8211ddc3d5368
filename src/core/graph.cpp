#include "core/graph.h"

#include <algorithm>

namespace fl {

int64_t dtype_bytes(DType t) {
  switch (t) {
    case DType::FP32: case DType::I32: return 4;
    case DType::FP8: case DType::Bool: return 1;
    default: return 2;
  }
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::BF16: return "bf16";
    case DType::FP16: return "fp16";
    case DType::FP32: return "fp32";
    case DType::FP8: return "fp8";
    case DType::I32: return "i32";
    case DType::Bool: return "bool";
  }
  return "?";
}

namespace {

// "%7": how listings and errors name node 7.
std::string node_ref(NodeId id) { return std::string(1, '%').append(std::to_string(id)); }

[[noreturn]] void fail(Op op, const std::string& why) {
  throw GraphError(std::string(op_name(op)) + ": " + why);
}

Shape broadcast(Op op, const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    Dim da = i < n - a.size() ? Dim(1) : a[i - (n - a.size())];
    Dim db = i < n - b.size() ? Dim(1) : b[i - (n - b.size())];
    if (da == db || db == Dim(1)) out[i] = da;
    else if (da == Dim(1)) out[i] = db;
    else fail(op, "cannot broadcast " + shape_str(a) + " with " + shape_str(b));
  }
  return out;
}

Shape matmul_shape(const Shape& a, const Shape& b) {
  if (a.size() < 2 || b.size() < 2) fail(Op::MatMul, "operands need rank >= 2");
  if (a.back() != b[b.size() - 2])
    fail(Op::MatMul, "inner dimensions differ: " + shape_str(a) + " @ " + shape_str(b));
  Shape batch = broadcast(Op::MatMul, Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
  batch.push_back(a[a.size() - 2]);
  batch.push_back(b.back());
  return batch;
}

}  // namespace

Shape infer_shape(Op op, std::span<const Shape* const> in, const Attrs& a, const Shape& declared) {
  if (in.size() != arity(op) && !(takes_optional_mask(op) && in.size() == arity(op) + 1))
    fail(op, "expects " + std::to_string(arity(op)) + " inputs, got " + std::to_string(in.size()));
  switch (op) {
    case Op::Input: case Op::Param: case Op::Const:
      return declared;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div:
      return broadcast(op, *in[0], *in[1]);
    case Op::RotPairs:
      if (in[0]->empty() || !in[0]->back().is_constant() || in[0]->back().constant() % 2)
        fail(op, "last dimension must be even");
      return *in[0];
    case Op::CausalMask:
      if (in[0]->size() < 2) fail(op, "needs (..., queries, keys)");
      if (a.mask_offset.is_constant() && a.mask_offset.constant() < 0) fail(op, "offset must be >= 0: every query sees a key");
      return *in[0];
    case Op::Softmax:
      if (in[0]->empty()) fail(op, "needs an axis to normalize over");
      return *in[0];
    case Op::Neg: case Op::Exp: case Op::Rsqrt: case Op::Cos: case Op::Sin: case Op::Tanh: case Op::SiLU: case Op::Gelu:
    case Op::Cast:
    case Op::LogicalNot:
      return *in[0];
    case Op::MaskedFill:
      if (broadcast(op, *in[0], *in[1]) != *in[0])
        fail(op, "the mask " + shape_str(*in[1]) + " must broadcast to the values " + shape_str(*in[0]));
      return *in[0];
    case Op::Sum: case Op::Mean: case Op::Max: {
      if (in[0]->empty()) fail(op, "cannot reduce a scalar");
      Shape s = *in[0];
      s.back() = 1;
      return s;
    }
    case Op::RMSNorm: case Op::LayerNorm:
      for (size_t i = 1; i < in.size(); ++i)
        if (in[0]->empty() || in[i]->size() != 1 || (*in[i])[0] != in[0]->back())
          fail(op, std::string(i == 1 ? "weight" : "bias") + " must be (" + (in[0]->empty() ? std::string("?") : in[0]->back().str()) + ")");
      return *in[0];
    case Op::Reshape:
      if (numel(declared) != numel(*in[0]))
        fail(op, "cannot reshape " + shape_str(*in[0]) + " to " + shape_str(declared));
      return declared;
    case Op::Transpose: {
      const Shape& s = *in[0];
      auto sorted = a.perm;
      std::sort(sorted.begin(), sorted.end());
      bool permutation = sorted.size() == s.size();
      for (size_t i = 0; permutation && i < sorted.size(); ++i) permutation = sorted[i] == static_cast<int>(i);
      if (!permutation) fail(op, "perm is not a permutation of the " + std::to_string(s.size()) + " axes");
      Shape out(s.size());
      for (size_t i = 0; i < s.size(); ++i) out[i] = s[static_cast<size_t>(a.perm[i])];
      return out;
    }
    case Op::Slice: {
      const Shape& s = *in[0];
      if (s.empty() || declared.size() != s.size() || !s.back().is_constant() || !declared.back().is_constant() ||
          a.slice_begin < 0 || a.slice_begin + declared.back().constant() > s.back().constant())
        fail(op, "cannot take columns " + std::to_string(a.slice_begin) + " + " +
                     (declared.empty() ? std::string("?") : declared.back().str()) + " of " + shape_str(s));
      Shape out = s;
      out.back() = declared.back();
      return out;
    }
    case Op::RepeatKV: {
      if (in[0]->empty() || a.n_rep < 1) fail(op, "needs heads on axis 0 and n_rep >= 1");
      Shape s = *in[0];
      s[0] = s[0] * Dim(a.n_rep);
      return s;
    }
    case Op::MatMul:
      return matmul_shape(*in[0], *in[1]);
    case Op::Attention: {
      const Shape &q = *in[0], &k = *in[1], &v = *in[2];
      if (a.mask_offset.is_constant() && a.mask_offset.constant() < 0) fail(op, "offset must be >= 0: every query sees a key");
      if (q.size() != 3 || k.size() != 3 || v.size() != 3) fail(op, "q, k, v must be (heads, tokens, head_dim)");
      if (q[0] != k[0] || k[0] != v[0] || q[2] != k[2] || k[1] != v[1])
        fail(op, "q " + shape_str(q) + ", k " + shape_str(k) + ", v " + shape_str(v) + " do not agree");
      if (in.size() == 4) {  // a boolean mask over the keys, the same for every head and query
        const Shape& m = *in[3];
        if (m.size() != 2 || m[0] != Dim(1) || m[1] != k[1]) fail(op, "the mask " + shape_str(m) + " must be (1, keys)");
      }
      return {q[0], q[1], v[2]};
    }
    case Op::Embedding:
      if (in[0]->size() != 2 || in[1]->size() != 1) fail(op, "takes a (vocab, d) table and (tokens) ids");
      return {(*in[1])[0], (*in[0])[1]};
    case Op::KVWrite: {
      const Shape &cache = *in[0], &fresh = *in[1];
      if (cache.size() != 3 || fresh.size() != 3 || fresh[1] != Dim(1) || cache[0] != fresh[0] || cache[2] != fresh[2])
        fail(op, "writes (heads, 1, head_dim) into a (heads, S, head_dim) cache");
      return cache;
    }
  }
  fail(op, "unknown op");
}

NodeId Graph::add(Op op, NodeInputs inputs, Attrs attrs, Shape shape, DType dtype) {
  const DType requested = dtype;
  SmallVector<const Shape*, 4> in;  // no allocation: every graph edit adds nodes
  for (NodeId i : inputs) {
    if (i < 0 || static_cast<size_t>(i) >= nodes_.size()) fail(op, "input %" + std::to_string(i) + " does not exist");
    in.push_back(&nodes_[static_cast<size_t>(i)].shape);
  }
  Shape out = infer_shape(op, in, attrs, shape);
  // A compute node takes the dtype of its first operand that is not a
  // constant expression (those are cast for free at compile time), else of
  // its first; an embedding's dtype is the activations', and a cast's the one
  // it converts to, both given by the caller.
  bool constant_expr = op == Op::Const;
  if (op_kind(op) != OpKind::Source && op != Op::Embedding && !inputs.empty()) {
    dtype = nodes_[static_cast<size_t>(inputs[0])].dtype;
    constant_expr = true;
    for (NodeId i : inputs)
      if (!nodes_[static_cast<size_t>(i)].constant_expr) {
        dtype = nodes_[static_cast<size_t>(i)].dtype;
        constant_expr = false;
        break;
      }
  }
  if (op == Op::Cast) dtype = requested;  // what the cast converts to
  nodes_.push_back(Node{op, std::move(inputs), std::move(out), dtype, std::move(attrs), nullptr, constant_expr, origin_});
  return static_cast<NodeId>(nodes_.size() - 1);
}

size_t Graph::keep_only(const std::vector<char>& keep) {
  // In place: the nodes before the first dropped one stay where they are.
  std::vector<NodeId> map(nodes_.size(), -1);
  size_t kept = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!keep[i]) continue;
    for (NodeId& in : nodes_[i].inputs) in = map[static_cast<size_t>(in)];
    if (kept != i) nodes_[kept] = std::move(nodes_[i]);
    map[i] = static_cast<NodeId>(kept++);
  }
  const size_t dropped = nodes_.size() - kept;
  nodes_.erase(nodes_.begin() + static_cast<std::ptrdiff_t>(kept), nodes_.end());
  for (NodeId& o : outputs_) o = map[static_cast<size_t>(o)];
  return dropped;
}

NodeId Graph::input(const std::string& name, Shape shape, DType dtype) {
  Attrs a;
  a.name = name;
  return add(Op::Input, {}, a, std::move(shape), dtype);
}

NodeId Graph::param(const std::string& name, Shape shape, Values value, DType dtype) {
  Attrs a;
  a.name = name;
  NodeId id = add(Op::Param, {}, a, std::move(shape), dtype);
  nodes_.back().value = std::move(value);
  return id;
}

NodeId Graph::constant(Shape shape, Values value, DType dtype) {
  Attrs a;
  if (shape.empty() && value && !value->empty()) a.value = (*value)[0];  // scalars keep their value in attrs too
  NodeId id = add(Op::Const, {}, a, std::move(shape), dtype);
  nodes_.back().value = std::move(value);
  return id;
}

NodeId Graph::scalar(double v) {
  Attrs a;
  a.value = v;
  NodeId id = add(Op::Const, {}, a, {});
  nodes_.back().value = std::make_shared<const std::vector<float>>(1, static_cast<float>(v));
  return id;
}

std::vector<int> Graph::use_counts() const {
  std::vector<int> uses(nodes_.size(), 0);
  for (const Node& n : nodes_)
    for (NodeId i : n.inputs) ++uses[static_cast<size_t>(i)];
  for (NodeId o : outputs_) ++uses[static_cast<size_t>(o)];
  return uses;
}

bool operator==(const Node& a, const Node& b) {
  const bool same_value = a.value == b.value || (a.value && b.value && *a.value == *b.value);
  return a.op == b.op && a.inputs == b.inputs && a.shape == b.shape && a.dtype == b.dtype && a.attrs == b.attrs &&
         a.constant_expr == b.constant_expr && a.origin == b.origin && same_value;
}

void verify(const Graph& g) {
  std::vector<char> constant_expr(g.size(), 0);  // recomputed, not read from the nodes
  for (size_t id = 0; id < g.size(); ++id) {
    const Node& n = g.nodes()[id];
    constant_expr[id] = n.op == Op::Const;
    if (op_kind(n.op) != OpKind::Source && n.op != Op::Embedding && !n.inputs.empty()) {
      constant_expr[id] = 1;
      for (NodeId i : n.inputs)
        if (i < 0 || static_cast<size_t>(i) >= id || !constant_expr[static_cast<size_t>(i)]) constant_expr[id] = 0;
    }
    auto where = node_ref(static_cast<NodeId>(id)) + " " + std::string(op_name(n.op)) + ": ";
    std::vector<const Shape*> in;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      NodeId i = n.inputs[k];
      if (i < 0 || static_cast<size_t>(i) >= id) throw GraphError(where + "input %" + std::to_string(i) + " does not come earlier");
      const Node& src = g.node(i);
      if (src.dtype != n.dtype && !reads_other_dtype(n.op, k) && !constant_expr[static_cast<size_t>(i)])
        throw GraphError(where + "dtype differs from input %" + std::to_string(i));
      in.push_back(&src.shape);
    }
    Shape expect;
    try {
      expect = infer_shape(n.op, in, n.attrs, n.shape);
    } catch (const GraphError& e) {
      throw GraphError(where + e.what());
    }
    if (expect != n.shape) throw GraphError(where + "shape " + shape_str(n.shape) + " should be " + shape_str(expect));
    if (n.value) {
      bool concrete = true;
      for (const Dim& d : n.shape) concrete = concrete && d.is_constant();
      if (!concrete || static_cast<int64_t>(n.value->size()) != numel(n.shape).constant())
        throw GraphError(where + "bound value does not match its shape " + shape_str(n.shape));
    }
  }
  for (NodeId o : g.outputs())
    if (o < 0 || static_cast<size_t>(o) >= g.size()) throw GraphError("output %" + std::to_string(o) + " does not exist");
}

std::string node_str(const Graph& g, NodeId id) {
  const Node& n = g.node(id);
  std::string s = node_ref(id) + " = " + std::string(op_name(n.op));
  if (!n.attrs.name.empty()) s += " " + n.attrs.name;
  if (n.op == Op::Const && n.shape.empty()) s += " " + std::to_string(n.attrs.value);
  if (n.op == Op::Slice) s += " from " + std::to_string(n.attrs.slice_begin);
  if (!n.inputs.empty()) {
    s += "(";
    for (size_t i = 0; i < n.inputs.size(); ++i) s += (i ? ", %" : "%") + std::to_string(n.inputs[i]);
    s += ")";
  }
  return s + " : " + shape_str(n.shape);
}

std::string dump(const Graph& g) {
  std::string out;
  for (size_t i = 0; i < g.size(); ++i) out += node_str(g, static_cast<NodeId>(i)) + "\n";
  out += "return";
  for (NodeId o : g.outputs()) out += " %" + std::to_string(o);
  return out + "\n";
}

}  // namespace fl
