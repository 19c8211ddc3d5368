#include "core/interp.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fl {

namespace {

using Dims = std::vector<int64_t>;
using Strides = std::vector<int64_t>;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

[[noreturn]] void fail(const Node& n, const std::string& why) {
  std::string who(op_name(n.op));
  if (!n.attrs.name.empty()) who += " '" + n.attrs.name + "'";
  throw std::runtime_error(who + ": " + why);
}

std::string dims_str(const Dims& d) {
  std::string out = "(";
  for (size_t i = 0; i < d.size(); ++i) out += (i ? ", " : "") + std::to_string(d[i]);
  return out + ")";
}

int64_t count(Dims::const_iterator first, Dims::const_iterator last) {
  return std::accumulate(first, last, int64_t{1}, std::multiplies<>());
}
int64_t count(const Dims& d) { return count(d.begin(), d.end()); }

// numpy broadcasting: shapes aligned on the right, size-1 axes stretch.
Dims broadcast_dims(const Node& n, const Dims& a, const Dims& b) {
  size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) fail(n, "cannot broadcast " + dims_str(a) + " with " + dims_str(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// The strides (in elements, times `unit`) with which an operand of shape `s`
// is read at the indices of a rank-`rank` result: right-aligned, and 0 on the
// axes it lacks or has as size 1, so that those axes broadcast.
Strides broadcast_strides(const Dims& s, size_t rank, int64_t unit = 1) {
  Strides out(rank, 0);
  int64_t step = unit;
  for (size_t i = s.size(); i-- > 0;) {
    if (s[i] != 1) out[rank - s.size() + i] = step;
    step *= s[i];
  }
  return out;
}

// Visits the indices of `shape` in row-major order, calling f(i, offs) with
// the flat index i and, for each operand k, its element offset offs[k] under
// strides[k]. An odometer: offsets move incrementally, nothing is allocated
// per element. Broadcasts, transposes and head repeats are all just strides.
template <size_t N, class F>
void walk(const Dims& shape, const std::array<Strides, N>& strides, F&& f) {
  const int64_t total = count(shape);
  Dims idx(shape.size(), 0);
  std::array<int64_t, N> offs{};
  for (int64_t i = 0; i < total; ++i) {
    f(i, offs);
    for (size_t ax = shape.size(); ax-- > 0;) {  // carry from the last axis
      for (size_t k = 0; k < N; ++k) offs[k] += strides[k][ax];
      if (++idx[ax] < shape[ax]) break;
      for (size_t k = 0; k < N; ++k) offs[k] -= strides[k][ax] * shape[ax];
      idx[ax] = 0;
    }
  }
}

template <class F>
TensorValue map(const TensorValue& x, F f) {
  TensorValue out{x.shape, std::vector<float>(x.data.size())};
  std::transform(x.data.begin(), x.data.end(), out.data.begin(), f);
  return out;
}

template <class F>
TensorValue zip(const Node& n, const TensorValue& a, const TensorValue& b, F f) {
  TensorValue out{broadcast_dims(n, a.shape, b.shape), {}};
  out.data.resize(static_cast<size_t>(count(out.shape)));
  size_t rank = out.shape.size();
  walk<2>(out.shape, {broadcast_strides(a.shape, rank), broadcast_strides(b.shape, rank)},
          [&](int64_t i, const std::array<int64_t, 2>& o) {
            out.data[static_cast<size_t>(i)] = f(a.data[static_cast<size_t>(o[0])], b.data[static_cast<size_t>(o[1])]);
          });
  return out;
}

// Row-wise ops over the last axis (reductions, softmax, masks, norms): calls
// f(in_row, out_row, r) for each row r; the output keeps the input's shape
// except that its last axis has `out_len` elements.
template <class F>
TensorValue rows(const Node& n, const TensorValue& x, int64_t out_len, F f) {
  if (x.shape.empty()) fail(n, "needs at least one axis, got a scalar");
  const int64_t len = x.shape.back(), nrows = count(x.shape.begin(), x.shape.end() - 1);
  TensorValue out{x.shape, std::vector<float>(static_cast<size_t>(nrows * out_len))};
  out.shape.back() = out_len;
  for (int64_t r = 0; r < nrows; ++r) f(x.data.data() + r * len, out.data.data() + r * out_len, r);
  return out;
}

// In place. Subtracting the row max keeps exp() finite. In a fully masked row
// the max is -inf and x - max would be NaN: taking max = 0 gives exp() = 0
// everywhere, and the zero sum then yields a row of zeros.
void softmax_row(float* row, int64_t len) {
  float mx = std::accumulate(row, row + len, kNegInf, [](float a, float b) { return std::max(a, b); });
  if (mx == kNegInf) mx = 0;
  float sum = 0;
  for (int64_t j = 0; j < len; ++j) sum += row[j] = std::exp(row[j] - mx);
  const float inv = sum > 0 ? 1 / sum : 0;
  for (int64_t j = 0; j < len; ++j) row[j] *= inv;
}

// The causal rule shared by CausalMask and Attention: query q sees key k iff k <= q + offset.
bool masked(int64_t q, int64_t k, int64_t offset) { return k > q + offset; }

TensorValue bound_value(const Node& n, const Binding& b) {
  if (n.op == Op::Input) fail(n, "takes its value from the feeds (use run())");
  if (!n.value) fail(n, "has no bound value");
  TensorValue t{eval_shape(n.shape, b), *n.value};
  if (count(t.shape) != static_cast<int64_t>(t.data.size()))
    fail(n, "bound value has " + std::to_string(t.data.size()) + " floats, shape " + dims_str(t.shape) + " needs " +
                std::to_string(count(t.shape)));
  return t;
}

TensorValue reshape(const Node& n, const TensorValue& x, const Binding& b) {
  TensorValue out{eval_shape(n.shape, b), x.data};
  if (count(out.shape) != count(x.shape)) fail(n, "cannot reshape " + dims_str(x.shape) + " to " + dims_str(out.shape));
  return out;
}

Strides row_major_strides(const Dims& s) {
  Strides out(s.size());
  int64_t step = 1;
  for (size_t i = s.size(); i-- > 0;) out[i] = step, step *= s[i];
  return out;
}

// Columns [begin, begin + width) of the last axis, for every row.
TensorValue slice(const Node& n, const TensorValue& x, const Binding& b) {
  TensorValue out{eval_shape(n.shape, b), {}};
  const int64_t width = out.shape.empty() ? 0 : out.shape.back(), from = x.shape.empty() ? 0 : x.shape.back();
  if (x.shape.empty() || n.attrs.slice_begin < 0 || n.attrs.slice_begin + width > from)
    fail(n, "cannot take columns " + std::to_string(n.attrs.slice_begin) + " + " + std::to_string(width) + " of " + dims_str(x.shape));
  const int64_t rows = from ? count(x.shape) / from : 0;
  out.data.reserve(static_cast<size_t>(rows * width));
  for (int64_t r = 0; r < rows; ++r) {
    const auto row = x.data.begin() + static_cast<std::ptrdiff_t>(r * from + n.attrs.slice_begin);
    out.data.insert(out.data.end(), row, row + static_cast<std::ptrdiff_t>(width));
  }
  return out;
}

TensorValue transpose(const Node& n, const TensorValue& x) {
  const auto& perm = n.attrs.perm;
  auto sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool ok = perm.size() == x.shape.size();
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == static_cast<int>(i);
  if (!ok) fail(n, "perm is not a permutation of the " + std::to_string(x.shape.size()) + " axes");
  // Output axis i walks input axis perm[i], so it is read with that axis' stride.
  const Strides in = row_major_strides(x.shape);
  TensorValue out{Dims(perm.size()), std::vector<float>(x.data.size())};
  Strides s(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    out.shape[i] = x.shape[static_cast<size_t>(perm[i])];
    s[i] = in[static_cast<size_t>(perm[i])];
  }
  walk<1>(out.shape, {s}, [&](int64_t i, const std::array<int64_t, 1>& o) {
    out.data[static_cast<size_t>(i)] = x.data[static_cast<size_t>(o[0])];
  });
  return out;
}

// Output head h reads input head h / n_rep: viewed as (heads, n_rep, rest),
// the n_rep axis has stride 0.
TensorValue repeat_kv(const Node& n, const TensorValue& x) {
  const int64_t rep = n.attrs.n_rep;
  if (x.shape.empty() || rep < 1) fail(n, "needs heads on axis 0 and n_rep >= 1");
  const int64_t heads = x.shape[0], rest = count(x.shape.begin() + 1, x.shape.end());
  TensorValue out{x.shape, std::vector<float>(x.data.size() * static_cast<size_t>(rep))};
  out.shape[0] = heads * rep;
  walk<1>({heads, rep, rest}, {Strides{rest, 0, 1}}, [&](int64_t i, const std::array<int64_t, 1>& o) {
    out.data[static_cast<size_t>(i)] = x.data[static_cast<size_t>(o[0])];
  });
  return out;
}

TensorValue matmul(const Node& n, const TensorValue& a, const TensorValue& b) {
  const size_t ra = a.shape.size(), rb = b.shape.size();
  if (ra < 2 || rb < 2) fail(n, "operands need rank >= 2");
  const int64_t m = a.shape[ra - 2], k = a.shape[ra - 1], nc = b.shape[rb - 1];
  if (b.shape[rb - 2] != k) fail(n, "inner dimensions differ: " + dims_str(a.shape) + " @ " + dims_str(b.shape));
  const Dims ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
  TensorValue out{broadcast_dims(n, ba, bb), {}};
  const Dims batch = out.shape;
  out.shape.push_back(m);
  out.shape.push_back(nc);
  out.data.assign(static_cast<size_t>(count(out.shape)), 0.0f);
  // One (m, k) @ (k, nc) product per batch index; broadcast batches share operands.
  walk<2>(batch, {broadcast_strides(ba, batch.size(), m * k), broadcast_strides(bb, batch.size(), k * nc)},
          [&](int64_t bi, const std::array<int64_t, 2>& o) {
            const float* pa = a.data.data() + o[0];
            const float* pb = b.data.data() + o[1];
            float* po = out.data.data() + bi * m * nc;
            for (int64_t i = 0; i < m; ++i)
              for (int64_t p = 0; p < k; ++p)
                for (int64_t j = 0; j < nc; ++j) po[i * nc + j] += pa[i * k + p] * pb[p * nc + j];
          });
  return out;
}

// `mask`, if any: (1, keys), zero where no query may see the key.
TensorValue attention(const Node& n, const TensorValue& q, const TensorValue& k, const TensorValue& v,
                      int64_t offset, const TensorValue* mask) {
  if (q.shape.size() != 3 || k.shape.size() != 3 || v.shape.size() != 3 || q.shape[0] != k.shape[0] ||
      k.shape[0] != v.shape[0] || q.shape[2] != k.shape[2] || k.shape[1] != v.shape[1])
    fail(n, "q " + dims_str(q.shape) + ", k " + dims_str(k.shape) + ", v " + dims_str(v.shape) + " do not agree");
  const int64_t heads = q.shape[0], tq = q.shape[1], dh = q.shape[2], tk = k.shape[1], dv = v.shape[2];
  const float scale = static_cast<float>(n.attrs.scale);
  TensorValue out{{heads, tq, dv}, std::vector<float>(static_cast<size_t>(heads * tq * dv), 0.0f)};
  std::vector<float> p(static_cast<size_t>(tk));  // one row of scores, reused
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < tq; ++i) {
      const float* qi = q.data.data() + (h * tq + i) * dh;
      for (int64_t j = 0; j < tk; ++j) {
        const float* kj = k.data.data() + (h * tk + j) * dh;
        float s = 0;
        for (int64_t c = 0; c < dh; ++c) s += qi[c] * kj[c];
        const bool hidden = masked(i, j, offset) || (mask && mask->data[static_cast<size_t>(j)] == 0);
        p[static_cast<size_t>(j)] = hidden ? kNegInf : s * scale;
      }
      softmax_row(p.data(), tk);
      float* oi = out.data.data() + (h * tq + i) * dv;
      for (int64_t j = 0; j < tk; ++j)
        for (int64_t c = 0; c < dv; ++c) oi[c] += p[static_cast<size_t>(j)] * v.data[static_cast<size_t>((h * tk + j) * dv + c)];
    }
  return out;
}

// Row ids[i] of the table (V, d) for every id; ids are stored as floats.
TensorValue embedding(const Node& n, const TensorValue& table, const TensorValue& ids) {
  if (table.shape.size() != 2 || ids.shape.size() != 1) fail(n, "takes a (vocab, d) table and (tokens) ids");
  const int64_t vocab = table.shape[0], d = table.shape[1];
  TensorValue out{{ids.shape[0], d}, std::vector<float>(static_cast<size_t>(ids.shape[0] * d))};
  for (int64_t i = 0; i < ids.shape[0]; ++i) {
    const float id = ids.data[static_cast<size_t>(i)];
    if (!(id >= 0 && id < static_cast<float>(vocab)) || id != std::floor(id))
      fail(n, "token id " + std::to_string(id) + " is outside the vocabulary of " + std::to_string(vocab));
    std::copy_n(table.data.begin() + static_cast<int64_t>(id) * d, d, out.data.begin() + i * d);
  }
  return out;
}

TensorValue kv_write(const Node& n, const TensorValue& cache, const TensorValue& fresh, int64_t row) {
  const Dims &c = cache.shape, &f = fresh.shape;
  if (c.size() != 3 || f.size() != 3 || f[1] != 1 || c[0] != f[0] || c[2] != f[2])
    fail(n, "writes (heads, 1, head_dim) into a (heads, S, head_dim) cache, got " + dims_str(f) + " into " + dims_str(c));
  if (row < 0 || row >= c[1]) fail(n, "row " + std::to_string(row) + " is outside [0, " + std::to_string(c[1]) + ")");
  TensorValue out = cache;
  for (int64_t h = 0; h < c[0]; ++h)
    std::copy_n(fresh.data.begin() + h * c[2], c[2], out.data.begin() + (h * c[1] + row) * c[2]);
  return out;
}

}  // namespace

TensorValue eval_node(const Node& n, const std::vector<const TensorValue*>& in, const Binding& b) {
  if (in.size() != n.inputs.size())
    fail(n, "expects " + std::to_string(n.inputs.size()) + " input values, got " + std::to_string(in.size()));
  auto arg = [&](size_t i) -> const TensorValue& { return *in[i]; };
  auto sum = [](const float* r, int64_t len) { return std::accumulate(r, r + len, 0.0f); };
  switch (n.op) {
    case Op::Input: case Op::Param: case Op::Const: return bound_value(n, b);
    case Op::Add: return zip(n, arg(0), arg(1), std::plus<float>());
    case Op::Sub: return zip(n, arg(0), arg(1), std::minus<float>());
    case Op::Mul: return zip(n, arg(0), arg(1), std::multiplies<float>());
    case Op::Div: return zip(n, arg(0), arg(1), std::divides<float>());
    case Op::Neg: return map(arg(0), std::negate<float>());
    case Op::Exp: return map(arg(0), [](float x) { return std::exp(x); });
    case Op::Rsqrt: return map(arg(0), [](float x) { return 1 / std::sqrt(x); });
    case Op::Cos: return map(arg(0), [](float x) { return std::cos(x); });
    case Op::Sin: return map(arg(0), [](float x) { return std::sin(x); });
    case Op::Tanh: return map(arg(0), [](float x) { return std::tanh(x); });
    case Op::SiLU: return map(arg(0), [](float x) { return x / (1 + std::exp(-x)); });
    case Op::Gelu:
      return map(arg(0), [](float x) {
        const float c = static_cast<float>(std::sqrt(2 / std::numbers::pi));
        return 0.5f * x * (1 + std::tanh(c * (x + 0.044715f * x * x * x)));
      });
    case Op::Cast: return arg(0);  // values are computed in float whatever the dtype
    case Op::LogicalNot: return map(arg(0), [](float x) { return x == 0 ? 1.0f : 0.0f; });
    case Op::MaskedFill: {
      const float fill = static_cast<float>(n.attrs.value);
      return zip(n, arg(0), arg(1), [fill](float x, float mask) { return mask != 0 ? fill : x; });
    }
    case Op::RotPairs: {
      const int64_t len = arg(0).shape.empty() ? 1 : arg(0).shape.back();
      if (len % 2) fail(n, "last dimension must be even, got " + dims_str(arg(0).shape));
      return rows(n, arg(0), len, [len](const float* x, float* y, int64_t) {
        for (int64_t i = 0; i < len; i += 2) y[i] = -x[i + 1], y[i + 1] = x[i];
      });
    }
    case Op::CausalMask: {
      const Dims& s = arg(0).shape;
      if (s.size() < 2) fail(n, "needs (..., queries, keys), got " + dims_str(s));
      const int64_t queries = s[s.size() - 2], keys = s.back(), offset = n.attrs.mask_offset.eval(b);
      return rows(n, arg(0), keys, [&](const float* x, float* y, int64_t r) {
        for (int64_t k = 0; k < keys; ++k) y[k] = masked(r % queries, k, offset) ? kNegInf : x[k];
      });
    }
    case Op::Sum:
      return rows(n, arg(0), 1, [&](const float* x, float* y, int64_t) { *y = sum(x, arg(0).shape.back()); });
    case Op::Mean:
      return rows(n, arg(0), 1, [&](const float* x, float* y, int64_t) {
        *y = sum(x, arg(0).shape.back()) / static_cast<float>(arg(0).shape.back());
      });
    case Op::Max:
      return rows(n, arg(0), 1, [&](const float* x, float* y, int64_t) {
        *y = std::accumulate(x, x + arg(0).shape.back(), kNegInf, [](float a, float c) { return std::max(a, c); });
      });
    case Op::Softmax: {
      const int64_t len = arg(0).shape.empty() ? 0 : arg(0).shape.back();
      return rows(n, arg(0), len, [len](const float* x, float* y, int64_t) {
        std::copy_n(x, len, y);
        softmax_row(y, len);
      });
    }
    case Op::RMSNorm: {
      const TensorValue &x = arg(0), &w = arg(1);
      const int64_t len = x.shape.empty() ? 0 : x.shape.back();
      if (x.shape.empty() || w.shape != Dims{len}) fail(n, "weight must be (" + std::to_string(len) + ")");
      const float eps = static_cast<float>(n.attrs.eps);
      return rows(n, x, len, [&](const float* xr, float* y, int64_t) {
        float sq = 0;
        for (int64_t j = 0; j < len; ++j) sq += xr[j] * xr[j];
        const float inv = 1 / std::sqrt(sq / static_cast<float>(len) + eps);
        for (int64_t j = 0; j < len; ++j) y[j] = xr[j] * inv * w.data[static_cast<size_t>(j)];
      });
    }
    case Op::LayerNorm: {
      const TensorValue &x = arg(0), &w = arg(1), &bias = arg(2);
      const int64_t len = x.shape.empty() ? 0 : x.shape.back();
      if (x.shape.empty() || w.shape != Dims{len} || bias.shape != Dims{len})
        fail(n, "weight and bias must be (" + std::to_string(len) + ")");
      const float eps = static_cast<float>(n.attrs.eps);
      return rows(n, x, len, [&](const float* xr, float* y, int64_t) {
        const float mean = sum(xr, len) / static_cast<float>(len);
        float var = 0;
        for (int64_t j = 0; j < len; ++j) var += (xr[j] - mean) * (xr[j] - mean);
        const float inv = 1 / std::sqrt(var / static_cast<float>(len) + eps);
        for (int64_t j = 0; j < len; ++j)
          y[j] = (xr[j] - mean) * inv * w.data[static_cast<size_t>(j)] + bias.data[static_cast<size_t>(j)];
      });
    }
    case Op::Reshape: return reshape(n, arg(0), b);
    case Op::Transpose: return transpose(n, arg(0));
    case Op::Slice: return slice(n, arg(0), b);
    case Op::RepeatKV: return repeat_kv(n, arg(0));
    case Op::MatMul: return matmul(n, arg(0), arg(1));
    case Op::Attention: {
      const TensorValue* mask = n.inputs.size() > 3 ? &arg(3) : nullptr;
      return attention(n, arg(0), arg(1), arg(2), n.attrs.mask_offset.eval(b), mask);
    }
    case Op::KVWrite: return kv_write(n, arg(0), arg(1), n.attrs.row.eval(b));
    case Op::Embedding: return embedding(n, arg(0), arg(1));
  }
  fail(n, "unknown op");
}

std::vector<TensorValue> run(const Graph& g, const Feeds& feeds, const Binding& b) {
  std::vector<TensorValue> vals(g.size());
  std::vector<const TensorValue*> args;
  for (size_t id = 0; id < g.size(); ++id) {
    const Node& n = g.nodes()[id];
    const Dims expect = eval_shape(n.shape, b);
    auto where = [&] { return node_str(g, static_cast<NodeId>(id)); };
    if (n.op == Op::Input) {
      auto it = feeds.find(n.attrs.name);
      if (it == feeds.end()) throw std::runtime_error(where() + ": no feed for input '" + n.attrs.name + "'");
      const TensorValue& f = it->second;
      if (f.shape != expect || count(f.shape) != static_cast<int64_t>(f.data.size()))
        throw std::runtime_error(where() + ": feed for input '" + n.attrs.name + "' has shape " + dims_str(f.shape) +
                                 " and " + std::to_string(f.data.size()) + " values, expected " + dims_str(expect));
      vals[id] = f;
      continue;
    }
    args.clear();
    for (NodeId i : n.inputs) {
      if (i < 0 || static_cast<size_t>(i) >= id) throw std::runtime_error(where() + ": input does not come earlier");
      args.push_back(&vals[static_cast<size_t>(i)]);
    }
    try {
      vals[id] = eval_node(n, args, b);
    } catch (const UnboundSymbol&) {
      throw;  // keep the type: callers catch it to ask for a binding
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(where() + ": " + e.what());
    }
    // The interpreter derives shapes from the values; a mismatch means infer_shape and the op disagree.
    if (vals[id].shape != expect)
      throw std::runtime_error(where() + ": computed shape " + dims_str(vals[id].shape) + ", inferred " + dims_str(expect));
  }
  std::vector<TensorValue> outs;
  for (NodeId o : g.outputs()) {
    if (o < 0 || static_cast<size_t>(o) >= g.size()) throw std::runtime_error("output %" + std::to_string(o) + " does not exist");
    outs.push_back(vals[static_cast<size_t>(o)]);
  }
  return outs;
}

}  // namespace fl
