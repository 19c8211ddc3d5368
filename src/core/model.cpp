#include "core/model.h"

#include <cmath>
#include <functional>
#include <set>

#include "core/enum_names.h"
#include "core/model_lang/model.h"
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
  TraceOptions opt;
  Rng rng;

  Tensor matrix(const std::string& name, int64_t rows, int64_t cols) {
    double a = std::sqrt(3.0 / static_cast<double>(rows));
    return param(name, {rows, cols}, opt.weights, [&] { return (2 * rng.uniform() - 1) * a; });
  }
  Tensor norm(const std::string& name, int64_t n) {
    return param(name, {n}, opt.act, [&] { return 1.0 + 0.2 * (rng.uniform() - 0.5); });
  }

 private:
  template <class Draw>
  Tensor param(const std::string& name, Shape shape, DType dtype, Draw draw) {
    Values v;
    if (mode.real) {
      auto data = std::make_shared<std::vector<float>>(static_cast<size_t>(numel(shape).constant()));
      for (float& x : *data) x = static_cast<float>(draw());
      v = std::move(data);
    }
    return {&g, g.param(name, std::move(shape), std::move(v), dtype)};
  }
};

struct Layer {
  Tensor attn_norm, wq, wk, wv, wo, mlp_norm, w_gate, w_up, w_down;
};

Layer make_layer(Weights& w, const LayerCfg& c, const std::string& p) {
  return {w.norm(p + "attn_norm", c.d),        w.matrix(p + "wq", c.d, c.H * c.dh), w.matrix(p + "wk", c.d, c.G * c.dh),
          w.matrix(p + "wv", c.d, c.G * c.dh), w.matrix(p + "wo", c.H * c.dh, c.d), w.norm(p + "mlp_norm", c.d),
          w.matrix(p + "w_gate", c.d, c.f),    w.matrix(p + "w_up", c.d, c.f),      w.matrix(p + "w_down", c.f, c.d)};
}

// Where the layer runs: T new tokens per sequence, their RoPE tables
// (broadcast over batch and heads), and for decode the caches to update.
struct Step {
  Dim B;
  Dim T;
  Tensor cos_t, sin_t;
  Dim mask_offset;  // query i sees keys j <= i + offset
  bool decode;
  AttentionForm form = AttentionForm::Lecture;
  std::optional<Tensor> mask;  // the boolean mask of the math form, and of SDPA at decode: true where a query sees a key
  DType act = DType::BF16;
};

// q * cos + rot_pairs(q) * sin. One statement per op: the trace order must
// not depend on the compiler's order of evaluating operands.
Tensor rope(const Tensor& x, const Tensor& cos_t, const Tensor& sin_t) {
  Tensor a = x * cos_t;
  Tensor b = rot_pairs(x) * sin_t;
  return a + b;
}

// (B*T, heads*dh) -> (B*heads, T, dh), with RoPE applied on (B, T, heads, dh).
Tensor heads_first(const Tensor& t, const Step& s, int64_t heads, int64_t dh, bool with_rope) {
  Tensor x = reshape(t, {s.B, s.T, heads, dh});
  if (with_rope) x = rope(x, s.cos_t, s.sin_t);
  return reshape(transpose(x, {0, 2, 1, 3}), {s.B * heads, s.T, dh});
}

// The attention's output (B*H, T, dh) in the step's form. q (B*H, T, dh);
// kh, vh (B*H, Tk, dh), the KV heads repeated for GQA.
Tensor attention_heads(const LayerCfg& c, const Step& s, const Tensor& q, const Tensor& kh, const Tensor& vh) {
  Graph& g = q.graph();
  const double root = std::sqrt(static_cast<double>(c.dh));
  switch (s.form) {
    case AttentionForm::Lecture: {
      g.set_origin(Origin::Scores);
      Tensor scores = matmul(q, transpose(kh, {0, 2, 1})) / root;  // (B*H, T, Tk)
      g.set_origin(Origin::Softmax);
      Tensor p = softmax(causal_mask(scores, s.mask_offset));
      g.set_origin(Origin::AttnValues);
      return matmul(p, vh);
    }
    case AttentionForm::Math: {  // scores.masked_fill(~mask, -inf); softmax(scores.float()).to(dtype) @ v
      g.set_origin(Origin::Scores);
      Tensor scores = matmul(q, transpose(kh, {0, 2, 1})) / root;
      g.set_origin(Origin::Softmax);
      Tensor masked = masked_fill(scores, logical_not(*s.mask), -INFINITY);
      Tensor p = cast(softmax(cast(masked, DType::FP32)), s.act);
      g.set_origin(Origin::AttnValues);
      return matmul(p, vh);
    }
    case AttentionForm::Sdpa:
      g.set_origin(Origin::Attention);
      // At decode the mask comes as attn_mask (as gpt-fast passes it); prefill is causal (is_causal).
      if (s.mask) return attention(q, kh, vh, 1 / root, s.mask_offset, *s.mask);
      return attention(q, kh, vh, 1 / root, s.mask_offset);
  }
  throw GraphError("unknown attention form");
}

// Causal GQA attention. q (B*H, T, dh); k, v (B*G, Tk, dh) -> (B*T, H*dh).
Tensor attention(const LayerCfg& c, const Step& s, const Tensor& q, const Tensor& k, const Tensor& v) {
  Graph& g = q.graph();
  g.set_origin(Origin::GqaRepeat);
  Tensor kh = repeat_kv(k, c.H / c.G);  // head b*H + h reads kv head b*G + h / (H/G)
  Tensor vh = repeat_kv(v, c.H / c.G);
  Tensor o = attention_heads(c, s, q, kh, vh);  // (B*H, T, dh)
  g.set_origin(Origin::MergeHeads);
  Tensor merged = transpose(reshape(o, {s.B, c.H, s.T, c.dh}), {0, 2, 1, 3});                      // (B, T, H, dh)
  return reshape(merged, {s.B * s.T, c.H * c.dh});
}

// One decoder layer on x (B*T, d). Decode writes the new k and v into the
// caches (B*G, S, dh) at row P and returns the updated caches in `caches`.
Tensor decoder_layer(const LayerCfg& c, const Layer& L, const Step& s, const Tensor& x, std::vector<Tensor>* caches) {
  Graph& g = x.graph();
  const OriginRestore restore(g);
  g.set_origin(Origin::AttnNorm);
  Tensor n = rmsnorm(x, L.attn_norm, kRmsEps);
  g.set_origin(Origin::QProj);
  Tensor q_rows = matmul(n, L.wq);
  g.set_origin(Origin::QRope);
  Tensor q = heads_first(q_rows, s, c.H, c.dh, true);
  g.set_origin(Origin::KProj);
  Tensor k_rows = matmul(n, L.wk);
  g.set_origin(Origin::KRope);
  Tensor k = heads_first(k_rows, s, c.G, c.dh, true);
  g.set_origin(Origin::VProj);
  Tensor v = heads_first(matmul(n, L.wv), s, c.G, c.dh, false);
  if (s.decode) {
    g.set_origin(Origin::KvWrite);
    k = kv_write((*caches)[0], k, sym_P());  // row P now holds k
    v = kv_write((*caches)[1], v, sym_P());
    *caches = {k, v};
  }
  Tensor attended = attention(c, s, q, k, v);
  g.set_origin(Origin::OProj);
  Tensor o = matmul(attended, L.wo);
  g.set_origin(Origin::AttnResidual);
  Tensor h = x + o;
  g.set_origin(Origin::MlpNorm);
  Tensor m = rmsnorm(h, L.mlp_norm, kRmsEps);
  g.set_origin(Origin::GateProj);
  Tensor gate_rows = matmul(m, L.w_gate);  // (B*T, f)
  g.set_origin(Origin::Silu);
  Tensor gate = silu(gate_rows);
  g.set_origin(Origin::UpProj);
  Tensor up = matmul(m, L.w_up);
  g.set_origin(Origin::GateMul);
  Tensor gated = gate * up;
  g.set_origin(Origin::DownProj);
  Tensor down = matmul(gated, L.w_down);
  g.set_origin(Origin::MlpResidual);
  return h + down;
}

// RoPE tables for positions pos0 .. pos0+T-1, built in the graph from two
// small constants so that constant folding has real work: (T, 1, dh) each.
// A symbolic T has no values (shapes only).
std::pair<Tensor, Tensor> rope_tables(Graph& g, const LayerCfg& c, Dim T, int64_t pos0, bool real, DType act) {
  Values pos, freq;
  if (real) {
    auto p = std::make_shared<std::vector<float>>(static_cast<size_t>(T.constant()));
    for (int64_t t = 0; t < T.constant(); ++t) (*p)[static_cast<size_t>(t)] = static_cast<float>(pos0 + t);
    auto f = std::make_shared<std::vector<float>>(static_cast<size_t>(c.dh));
    for (int64_t i = 0; i < c.dh; ++i)  // both elements of pair i turn by the same angle
      (*f)[static_cast<size_t>(i)] =
          static_cast<float>(std::pow(kRopeBase, -static_cast<double>(i / 2 * 2) / static_cast<double>(c.dh)));
    pos = std::move(p);
    freq = std::move(f);
  }
  const OriginRestore restore(g);
  g.set_origin(Origin::RopeTables);
  Tensor positions(&g, g.constant({T, 1}, pos, act));
  Tensor angle = positions * Tensor(&g, g.constant({1, c.dh}, freq, act));  // (T, dh)
  Tensor cos_t = reshape(cos(angle), {T, 1, c.dh});
  return {cos_t, reshape(sin(angle), {T, 1, c.dh})};
}

// The batch as traced: a number, or the symbol B.
Dim batch_dim(const TraceOptions& o) { return o.symbolic_batch ? sym_B() : Dim(o.batch); }

void validate_options(const TraceOptions& o) {
  validate_tokens("batch", o.batch, Limits::kMaxBatch);
  if (o.layers < 0 || o.layers > Limits::kMaxLayers)
    throw ConfigError("layers", Text::ErrRange, {"layers", std::to_string(o.layers), std::to_string(Limits::kMaxLayers)});
  if (o.layers > 0) validate_tokens("vocab", o.vocab, Limits::kMaxVocab);
}

// The names of layer i's parameters and caches begin with "l<i>.".
std::string layer_prefix(int64_t i) { return std::string(1, 'l').append(std::to_string(i)).append(1, '.'); }

// One layer on an input x (tokens, d), or the whole model around the layers:
// token ids → embedding → layers → final norm → LM head. Returns the output.
template <class LayerFn>
Tensor model_body(Graph& g, const LayerCfg& c, const TraceOptions& o, Dim tokens, Weights& w, LayerFn layer_fn) {
  if (o.layers == 0) {
    Tensor x(&g, g.input("x", {tokens, c.d}, o.act));  // before the weights: a fixed trace order
    return layer_fn("", x);
  }
  Tensor table = w.matrix("embed", o.vocab, c.d);
  Tensor ids(&g, g.input("ids", {tokens}, DType::I32));
  const OriginRestore restore(g);
  g.set_origin(Origin::Embedding);
  Tensor x(&g, g.add(Op::Embedding, {table.id(), ids.id()}, {}, {}, o.act));
  g.set_origin(Origin::None);
  for (int64_t i = 0; i < o.layers; ++i) x = layer_fn(layer_prefix(i), x);
  Tensor final_norm = w.norm("final_norm", c.d);
  g.set_origin(Origin::FinalNorm);
  Tensor n = rmsnorm(x, final_norm, kRmsEps);
  g.set_origin(Origin::LmHead);
  Tensor head = o.tied_embeddings ? transpose(table, {1, 0}) : w.matrix("lm_head", c.d, o.vocab);
  return matmul(n, head);  // (B*T, vocab)
}

// One layer, built in or from source, its parameters named with `prefix`
// and made first; then (decode) the caches `make_caches` gives, which it
// writes into `written`.
Tensor one_layer(const LayerCfg& c, const TraceOptions& o, Weights& w, const Step& s, const std::string& prefix,
                 const Tensor& x, const std::function<std::vector<Tensor>()>& make_caches, std::vector<NodeId>* written) {
  if (!o.source) {
    const Layer L = make_layer(w, c, prefix);
    if (!make_caches) return decoder_layer(c, L, s, x, nullptr);
    std::vector<Tensor> caches = make_caches();
    Tensor y = decoder_layer(c, L, s, x, &caches);
    written->push_back(caches[0].id());
    written->push_back(caches[1].id());
    return y;
  }
  lang::LayerEnv env{x, s.B, s.T, s.mask_offset, sym_P(), s.cos_t, s.sin_t, s.mask, {}, s.decode,
                     std::string(attention_form_key(s.form)), s.act, {}, nullptr};
  env.param = [&](const std::string& name, const Shape& shape) {
    if (shape.size() == 2) return w.matrix(prefix + name, shape[0].constant(), shape[1].constant());
    if (shape.size() == 1) return w.norm(prefix + name, shape[0].constant());
    throw GraphError("a parameter is a matrix [rows, cols] or a vector [n]: " + name);
  };
  std::vector<Tensor> out;
  if (make_caches) {
    env.caches = [&] {
      const std::vector<Tensor> caches = make_caches();
      return std::pair{caches[0], caches[1]};
    };
    env.written = &out;
  }
  Tensor y = o.source->trace(env);
  for (const Tensor& t : out) written->push_back(t.id());
  return y;
}

// A layer from source may leave what the tracer made for it unread (RoPE's
// tables, a mask): dropped, so that eager runs no kernel for it.
void drop_unread(Graph& g, const TraceOptions& o) {
  if (!o.source) return;
  std::vector<char> live(g.size(), 0);
  for (NodeId out : g.outputs()) live[static_cast<size_t>(out)] = 1;
  for (size_t i = g.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : g.node(static_cast<NodeId>(i)).inputs) live[static_cast<size_t>(in)] = 1;
  g.keep_only(live);
}

// Prefill of T tokens per sequence, T a number or the symbol T.
Graph prefill_graph(const LayerCfg& c, Dim T, int64_t pos0, ParamMode params, const TraceOptions& o) {
  validate(c);
  validate_options(o);
  Graph g;
  Weights w{g, params, o, Rng(params.seed)};
  auto [cos_t, sin_t] = rope_tables(g, c, T, pos0, params.real, o.act);
  Step s{batch_dim(o), T, cos_t, sin_t, 0, false, o.attention, std::nullopt, o.act};
  if (o.attention == AttentionForm::Math) s.mask = Tensor(&g, g.input("mask", {T, T}, DType::Bool));  // tril
  Tensor out = model_body(g, c, o, batch_dim(o) * T, w, [&](const std::string& prefix, const Tensor& in) {
    return one_layer(c, o, w, s, prefix, in, {}, nullptr);
  });
  g.set_outputs({out.id()});
  drop_unread(g, o);
  return g;
}

}  // namespace

Graph prefill_layer(const LayerCfg& c, int64_t T, int64_t pos0, ParamMode params, const TraceOptions& o) {
  validate(c);  // before the tokens: the first error a caller sees
  validate_tokens("tokens", T, Limits::kMaxTokens);
  return prefill_graph(c, T, pos0, params, o);
}

Graph prefill_layer_symbolic(const LayerCfg& c, const TraceOptions& o) {
  TraceOptions symbolic = o;
  symbolic.symbolic_batch = true;
  return prefill_graph(c, sym_T(), 0, ParamMode::shapes(), symbolic);
}

Graph decode_layer(const LayerCfg& c, ParamMode params, const TraceOptions& o) {
  validate(c);
  validate_options(o);
  Graph g;
  Dim S = sym_S();
  Tensor cos_t(&g, g.input("cos", {1, 1, c.dh}, o.act));
  Tensor sin_t(&g, g.input("sin", {1, 1, c.dh}, o.act));
  Weights w{g, params, o, Rng(params.seed)};
  const Dim B = batch_dim(o);
  Step s{B, 1, cos_t, sin_t, sym_P(), true, o.attention, std::nullopt, o.act};  // the query at P sees keys 0..P
  if (o.attention != AttentionForm::Lecture) s.mask = Tensor(&g, g.input("mask", {1, S}, DType::Bool));  // keys <= P
  std::vector<NodeId> written;
  Tensor out = model_body(g, c, o, B, w, [&](const std::string& p, const Tensor& in) {
    auto caches = [&] {
      return std::vector<Tensor>{Tensor(&g, g.input(p + "k_cache", {B * c.G, S, c.dh}, o.act)),
                                 Tensor(&g, g.input(p + "v_cache", {B * c.G, S, c.dh}, o.act))};
    };
    return one_layer(c, o, w, s, p, in, caches, &written);
  });
  written.insert(written.begin(), out.id());
  g.set_outputs(written);
  drop_unread(g, o);
  return g;
}

std::string_view attention_form_key(AttentionForm f) {
  switch (f) {
    case AttentionForm::Lecture: return "lecture";
    case AttentionForm::Math: return "math";
    case AttentionForm::Sdpa: return "sdpa";
  }
  return "?";
}

std::optional<AttentionForm> attention_form_named(std::string_view key) {
  return enum_named(kAttentionForms, attention_form_key, key);
}

int64_t parameter_bytes(const Graph& g) {
  int64_t bytes = 0;
  for (const Node& n : g.nodes())
    if (n.op == Op::Param) bytes += numel(n.shape).constant() * dtype_bytes(n.dtype);
  return bytes;
}

bool LayerSource::operator==(const LayerSource& other) const {
  if (!model_ || !other.model_) return model_ == other.model_;
  return model_ == other.model_ || (model_->source() == other.model_->source() && model_->name() == other.model_->name());
}

int64_t model_parameter_bytes(const LayerCfg& c, int64_t layers, int64_t vocab, bool tied, const TraceOptions& o) {
  const int64_t w = dtype_bytes(o.weights), a = dtype_bytes(o.act);
  const int64_t matrices = c.d * c.H * c.dh * 2 + c.d * c.G * c.dh * 2 + 3 * c.d * c.f;  // wq, wo; wk, wv; MLP
  int64_t per_layer = matrices * w + 2 * c.d * a;                                         // and two norms
  if (o.source) {  // a layer from source declares its own parameters: count one traced layer's
    TraceOptions one = o;
    one.layers = 0;
    per_layer = parameter_bytes(prefill_layer(c, 1, 0, ParamMode::shapes(), one));
  }
  return layers * per_layer + vocab * c.d * w * (tied ? 1 : 2) + c.d * a;
}

int64_t cache_bytes(const Graph& g, const Binding& b) {
  std::set<NodeId> caches;
  for (const Node& n : g.nodes())
    if (n.op == Op::KVWrite && g.node(n.inputs[0]).op == Op::Input) caches.insert(n.inputs[0]);
  int64_t bytes = 0;
  for (NodeId id : caches) bytes += eval_numel(g.node(id).shape, b) * dtype_bytes(g.node(id).dtype);
  return bytes;
}

int64_t kv_cache_bytes(const LayerCfg& c, int64_t layers, int64_t batch, int64_t S, const TraceOptions& o) {
  if (o.source) {
    TraceOptions one = o;
    one.layers = 0;
    one.batch = batch;
    one.symbolic_batch = false;
    return layers * cache_bytes(decode_layer(c, ParamMode::shapes(), one), {{"S", S}});
  }
  return 2 * layers * batch * c.G * S * c.dh * dtype_bytes(o.act);
}

}  // namespace fl
