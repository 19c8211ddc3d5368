#include "core/model.h"

#include <cmath>

#include "core/trace.h"

namespace fl {

namespace {

// Deterministic weights: uniform with the variance of a 1/sqrt(fan_in) init.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double uniform() {  // splitmix64 -> [0, 1)
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }

 private:
  uint64_t state_;
};

struct Weights {
  Graph& g;
  ParamMode mode;
  Rng rng;

  Tensor matrix(const std::string& name, int64_t rows, int64_t cols) {
    double a = std::sqrt(3.0 / static_cast<double>(rows));
    return param(name, {rows, cols}, [&] { return (2 * rng.uniform() - 1) * a; });
  }
  Tensor norm(const std::string& name, int64_t n) {
    return param(name, {n}, [&] { return 1.0 + 0.2 * (rng.uniform() - 0.5); });
  }

 private:
  template <class Draw>
  Tensor param(const std::string& name, Shape shape, Draw draw) {
    Values v;
    if (mode.real) {
      auto data = std::make_shared<std::vector<float>>(static_cast<size_t>(numel(shape).constant()));
      for (float& x : *data) x = static_cast<float>(draw());
      v = std::move(data);
    }
    return {&g, g.param(name, std::move(shape), std::move(v))};
  }
};

struct Layer {
  Tensor attn_norm, wq, wk, wv, wo, mlp_norm, w_gate, w_up, w_down;
};

Layer make_layer(Weights& w, const LayerCfg& c) {
  return {w.norm("attn_norm", c.d),         w.matrix("wq", c.d, c.H * c.dh), w.matrix("wk", c.d, c.G * c.dh),
          w.matrix("wv", c.d, c.G * c.dh),  w.matrix("wo", c.H * c.dh, c.d), w.norm("mlp_norm", c.d),
          w.matrix("w_gate", c.d, c.f),     w.matrix("w_up", c.d, c.f),      w.matrix("w_down", c.f, c.d)};
}

// q * cos + rot_pairs(q) * sin, on (T, heads, dh) with tables broadcast over heads.
// One statement per op: the trace order must not depend on the compiler.
Tensor rope(const Tensor& x, const Tensor& cos_t, const Tensor& sin_t) {
  Tensor a = x * cos_t;
  Tensor b = rot_pairs(x) * sin_t;
  return a + b;
}

// Causal GQA attention. q (H, Tq, dh); k, v (G, Tk, dh) -> (H, Tq, dh).
Tensor attention(const LayerCfg& c, const Tensor& q, const Tensor& k, const Tensor& v, Dim offset) {
  Tensor kh = repeat_kv(k, c.H / c.G);
  Tensor vh = repeat_kv(v, c.H / c.G);
  Tensor scores = matmul(q, transpose(kh, {0, 2, 1})) / std::sqrt(static_cast<double>(c.dh));  // (H, Tq, Tk)
  return matmul(softmax(causal_mask(scores, std::move(offset))), vh);
}

// Everything after attention: merge heads, O projection + residual, MLP + residual.
Tensor finish_layer(const LayerCfg& c, const Layer& L, const Tensor& x, const Tensor& attn, Dim T) {
  Tensor merged = reshape(transpose(attn, {1, 0, 2}), {T, c.H * c.dh});  // (T, H*dh)
  Tensor h = x + matmul(merged, L.wo);
  Tensor n = rmsnorm(h, L.mlp_norm, kRmsEps);
  Tensor gate = silu(matmul(n, L.w_gate));  // (T, f)
  Tensor up = matmul(n, L.w_up);
  return h + matmul(gate * up, L.w_down);
}

// Split heads: (T, heads*dh) -> (T, heads, dh).
Tensor split_heads(const Tensor& t, Dim T, int64_t heads, int64_t dh) { return reshape(t, {T, heads, dh}); }

// RoPE tables for positions pos0 .. pos0+T-1, built in the graph from two small
// constants so that constant folding has real work: (T, 1, dh) each.
std::pair<Tensor, Tensor> rope_tables(Graph& g, const LayerCfg& c, int64_t T, int64_t pos0, bool real) {
  Values pos, freq;
  if (real) {
    auto p = std::make_shared<std::vector<float>>(static_cast<size_t>(T));
    for (int64_t t = 0; t < T; ++t) (*p)[static_cast<size_t>(t)] = static_cast<float>(pos0 + t);
    auto f = std::make_shared<std::vector<float>>(static_cast<size_t>(c.dh));
    for (int64_t i = 0; i < c.dh; ++i)  // both elements of pair i turn by the same angle
      (*f)[static_cast<size_t>(i)] =
          static_cast<float>(std::pow(kRopeBase, -static_cast<double>(i / 2 * 2) / static_cast<double>(c.dh)));
    pos = std::move(p);
    freq = std::move(f);
  }
  Tensor positions(&g, g.constant({T, 1}, pos));
  Tensor angle = positions * Tensor(&g, g.constant({1, c.dh}, freq));  // (T, dh)
  Tensor cos_t = reshape(cos(angle), {T, 1, c.dh});
  return {cos_t, reshape(sin(angle), {T, 1, c.dh})};
}

}  // namespace

Graph prefill_layer(const LayerCfg& c, int64_t T, int64_t pos0, ParamMode params) {
  validate(c);
  validate_tokens("tokens", T, Limits::kMaxTokens);
  Graph g;
  Tensor x(&g, g.input("x", {T, c.d}));
  Weights w{g, params, Rng(params.seed)};
  Layer L = make_layer(w, c);
  auto [cos_t, sin_t] = rope_tables(g, c, T, pos0, params.real);

  Tensor n = rmsnorm(x, L.attn_norm, kRmsEps);
  Tensor q = rope(split_heads(matmul(n, L.wq), T, c.H, c.dh), cos_t, sin_t);  // (T, H, dh)
  Tensor k = rope(split_heads(matmul(n, L.wk), T, c.G, c.dh), cos_t, sin_t);  // (T, G, dh)
  Tensor v = split_heads(matmul(n, L.wv), T, c.G, c.dh);
  Tensor attn = attention(c, transpose(q, {1, 0, 2}), transpose(k, {1, 0, 2}), transpose(v, {1, 0, 2}), 0);
  g.set_outputs({finish_layer(c, L, x, attn, T).id()});
  return g;
}

Graph decode_layer(const LayerCfg& c, ParamMode params) {
  validate(c);
  Graph g;
  Dim S = sym_S(), P = sym_P();
  Tensor x(&g, g.input("x", {1, c.d}));
  Tensor k_cache(&g, g.input("k_cache", {c.G, S, c.dh}));
  Tensor v_cache(&g, g.input("v_cache", {c.G, S, c.dh}));
  Tensor cos_t(&g, g.input("cos", {1, 1, c.dh}));
  Tensor sin_t(&g, g.input("sin", {1, 1, c.dh}));
  Weights w{g, params, Rng(params.seed)};
  Layer L = make_layer(w, c);

  Tensor n = rmsnorm(x, L.attn_norm, kRmsEps);
  Tensor q = rope(split_heads(matmul(n, L.wq), 1, c.H, c.dh), cos_t, sin_t);  // (1, H, dh)
  Tensor k = rope(split_heads(matmul(n, L.wk), 1, c.G, c.dh), cos_t, sin_t);  // (1, G, dh)
  Tensor v = split_heads(matmul(n, L.wv), 1, c.G, c.dh);
  Tensor k_all = kv_write(k_cache, transpose(k, {1, 0, 2}), P);  // (G, S, dh), row P now holds k
  Tensor v_all = kv_write(v_cache, transpose(v, {1, 0, 2}), P);
  Tensor attn = attention(c, transpose(q, {1, 0, 2}), k_all, v_all, P);  // query at P sees keys 0..P
  g.set_outputs({finish_layer(c, L, x, attn, 1).id(), k_all.id(), v_all.id()});
  return g;
}

}  // namespace fl
