// The model: one Llama decoder layer, traced in prefill and in decode.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "core/config.h"
#include "core/graph.h"

namespace fl {

namespace lang {
class Model;  // a layer written in the model language (core/model_lang/model.h)
}

// Parameters as shapes only (an 8B layer, nothing in memory) or as seeded
// random values (small configs, so constant folding and numerics work).
struct ParamMode {
  bool real = false;
  uint64_t seed = 0;
  static ParamMode shapes() { return {}; }
  static ParamMode random(uint64_t seed = 1) { return {true, seed}; }
};

// How the layer's attention is written.
enum class AttentionForm : uint8_t {
  Lecture,  // the lecture's: q·kᵀ scaled, causal mask, softmax, ·v, in the activations' dtype
  Math,     // as PyTorch users write it: / √dh, masked_fill with a boolean mask input, softmax in float32
  Sdpa,     // F.scaled_dot_product_attention: one attention op
};
inline constexpr AttentionForm kAttentionForms[] = {AttentionForm::Lecture, AttentionForm::Math, AttentionForm::Sdpa};
std::string_view attention_form_key(AttentionForm f);  // "lecture", "math", "sdpa"
std::optional<AttentionForm> attention_form_named(std::string_view key);

// A layer written in the model language, shared by the configurations made
// from it and compared by its text: two readings of one source are one layer
// (so that an edit of T does not recompile a layer the URL gave as text).
class LayerSource {
 public:
  LayerSource() = default;
  LayerSource(std::shared_ptr<const lang::Model> model) : model_(std::move(model)) {}  // NOLINT: implicit on purpose
  const lang::Model* operator->() const { return model_.get(); }
  const lang::Model& operator*() const { return *model_; }
  explicit operator bool() const { return model_ != nullptr; }
  bool operator==(const LayerSource& other) const;

 private:
  std::shared_ptr<const lang::Model> model_;
};

// What is traced besides the layer's shape: batch, dtypes, and whether to
// trace one decoder layer or the whole model (embedding lookup, `layers`
// decoder layers, final norm, LM head over every position).
struct TraceOptions {
  int64_t batch = 1;
  DType act = DType::BF16;      // activations, norms, KV cache
  DType weights = DType::BF16;  // projection and embedding matrices
  int64_t layers = 0;           // 0: one decoder layer; N: the whole model with N layers
  int64_t vocab = 0;            // whole model: vocabulary size
  bool tied_embeddings = false; // whole model: the LM head is the embedding table, transposed
  bool symbolic_batch = false;  // the batch as the symbol B (`batch` is then unused), bound when costing
  AttentionForm attention = AttentionForm::Lecture;
  // The layer as source, traced in place of the built-in Llama layer; the
  // LayerCfg given with it must be its sizes (lang::Model::layer()).
  LayerSource source;
  bool operator==(const TraceOptions&) const = default;
};

inline constexpr double kRmsEps = 1e-5;
inline constexpr double kRopeBase = 500000.0;

// x (T, d) -> (T, d): RMSNorm, Q/K/V, RoPE, causal GQA attention, O + residual,
// RMSNorm, SiLU-gated MLP + residual. Positions pos0 .. pos0+T-1.
Graph prefill_layer(const LayerCfg& cfg, int64_t T, int64_t pos0, ParamMode params, const TraceOptions& opt = {});

// The same with T and the batch the symbols T and B (shapes only): compiled
// once, costed under any binding of them (see AnalysisConfig::binding()).
Graph prefill_layer_symbolic(const LayerCfg& cfg, const TraceOptions& opt = {});

// One new token at symbolic position P with a KV cache of symbolic length S:
// inputs x (1, d), k_cache and v_cache (G, S, dh), cos and sin (1, 1, dh).
// Outputs the new x and both caches after kv_write.
// With a batch B, sequences are folded into the head axis: caches are
// (B*G, S, dh), x is (B, d), and the whole model takes token ids instead of x.
Graph decode_layer(const LayerCfg& cfg, ParamMode params, const TraceOptions& opt = {});

// Bytes of every parameter (weights and norms) in a traced graph.
int64_t parameter_bytes(const Graph& g);

// The same for the whole model of `layers` layers, without tracing it.
int64_t model_parameter_bytes(const LayerCfg& c, int64_t layers, int64_t vocab, bool tied, const TraceOptions& o);

// Bytes of the KV caches a traced decode graph updates: the inputs its
// kv_writes write into, under the binding `b` (which gives S).
int64_t cache_bytes(const Graph& g, const Binding& b);

// KV cache bytes of `layers` layers for a batch of sequences of length S, in
// the activations' dtype. A layer from source has the caches it writes (none
// if it has no attention): one traced decode layer's are counted.
int64_t kv_cache_bytes(const LayerCfg& c, int64_t layers, int64_t batch, int64_t S, const TraceOptions& o);

// The symbols: the KV-cache length and the new token's position (decode), the tokens (prefill).
inline Dim sym_S() { return Dim::symbol("S"); }
inline Dim sym_T() { return Dim::symbol("T"); }  // prefill's tokens per sequence, when traced symbolically
inline Dim sym_B() { return Dim::symbol("B"); }  // the batch, when traced symbolically
inline Dim sym_P() { return Dim::symbol("P"); }

}  // namespace fl
