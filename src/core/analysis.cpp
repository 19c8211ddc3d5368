#include "core/analysis.h"

#include "core/compiled.h"

#include "core/demos/demos.h"
#include "core/presets.h"
#include "core/report_json.h"
#include "core/units.h"

namespace fl {

namespace {
constexpr double kMaxTrafficBytes = 1e18;  // int64 holds 9.2e18
}  // namespace

AnalysisConfig AnalysisConfig::for_demo(int demo) {
  AnalysisConfig c;
  c.demo = demo;
  if (demo == 1) {
    c.use_model("small");
    c.tokens = 16;
  }
  return c;
}

bool AnalysisConfig::use_model(std::string_view key) {
  const ModelPreset* m = find_model(key);
  if (!m) return false;
  model = m->layer;
  model_key = m->key;
  layers = m->layers;
  vocab = m->vocab;
  tied_embeddings = m->tied_embeddings;
  return true;
}

bool AnalysisConfig::use_hardware(std::string_view key) {
  const HardwarePreset* h = find_hardware(key);
  if (!h) return false;
  hw = h->hw;
  hardware_key = h->key;
  return true;
}

Graph AnalysisConfig::traced_graph(bool decode) const {
  return decode ? decode_layer(model, ParamMode::shapes(), trace_options())
                : prefill_layer(model, tokens, 0, ParamMode::shapes(), trace_options());
}

TraceOptions AnalysisConfig::trace_options() const {
  TraceOptions o;
  o.batch = batch;
  o.act = act;
  o.weights = weights;
  o.attention = traced_attention();
  o.source = source;
  if (whole_model) {
    o.layers = layers;
    o.vocab = vocab;
    o.tied_embeddings = tied_embeddings;
  }
  return o;
}

void validate(const AnalysisConfig& c) {
  if (c.demo < 1 || c.demo > 4) throw ConfigError("demo", Text::ErrRange, {"demo", std::to_string(c.demo), "4"});
  validate(c.model);
  validate_tokens("tokens", c.tokens, Limits::kMaxTokens);
  validate_tokens("kv_len", c.kv_len, Limits::kMaxKvLen);
  validate_tokens("layers", c.layers, Limits::kMaxLayers);
  validate_tokens("vocab", c.vocab, Limits::kMaxVocab);
  validate_tokens("batch", c.batch, Limits::kMaxBatch);
  if (c.act == DType::FP8 || c.act == DType::I32) throw ConfigError("dtype", Text::ErrActDtype, {"dtype", std::string(dtype_name(c.act))});
  if (c.weights == DType::I32) throw ConfigError("weights_dtype", Text::ErrWeightDtype, {"weights_dtype", std::string(dtype_name(c.weights))});
  validate(c.hw);
  if (c.shown_compiler() != Compiler::Lecture && c.whole_model)
    throw ConfigError("compiler", Text::ErrCompilerOneLayer, {std::string(compiler_key(c.compiler))});
  // Keep every byte count far inside 64 bits: the largest tensors are the
  // score matrices (B·H·T² per layer, written and read several times).
  double layers = c.whole_model ? static_cast<double>(c.layers) : 1.0;
  double per_layer = static_cast<double>(c.batch) * static_cast<double>(c.model.H) * static_cast<double>(c.tokens) *
                         static_cast<double>(c.tokens) * 16 +
                     static_cast<double>(c.batch) * static_cast<double>(c.kv_len) * static_cast<double>(c.model.H) *
                         static_cast<double>(c.model.dh) * 16 +
                     static_cast<double>(c.model.d) * static_cast<double>(c.model.f) * 16;
  if (per_layer * layers * 4 > kMaxTrafficBytes)
    throw ConfigError("tokens", Text::ErrTooLarge, {fmt_bytes(per_layer * layers * 4), fmt_bytes(kMaxTrafficBytes)});
}

std::string analyze(const AnalysisConfig& c) {
  PhaseCompiler compiler;
  return analyze(c, compiler);
}

std::string analyze(const AnalysisConfig& c, PhaseCompiler& compiler) {
  validate(c);
  switch (c.demo) {
    case 1: return json_text(kernels_report(c));
    case 2: return json_text(prefill_report(c, compiler.phase(c, false)));
    case 3: return json_text(decode_report(c, compiler.phase(c, true)));
    default: return json_text(ablation_report(c));
  }
}

}  // namespace fl
