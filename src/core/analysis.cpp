#include "core/analysis.h"

#include "core/compiled.h"

#include "core/demos/demos.h"
#include "core/model_lang/model.h"
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

namespace {

ConfigError source_error(const lang::SourceError& e) {
  return ConfigError("source", Text::ErrSource, {"source", std::to_string(e.at.line), std::to_string(e.at.col), e.message});
}

// A layer from source: the sizes are its own.
void validate_source_sizes(const AnalysisConfig& c) {
  const LayerCfg& l = c.source->layer();
  const std::pair<const char*, int64_t> sizes[] = {
      {"d", c.model.d - l.d}, {"heads", c.model.H - l.H}, {"kv_heads", c.model.G - l.G}, {"head_dim", c.model.dh - l.dh}, {"ffn", c.model.f - l.f}};
  const int64_t source_sizes[] = {l.d, l.H, l.G, l.dh, l.f};
  for (size_t i = 0; i < std::size(sizes); ++i)
    if (sizes[i].second != 0)
      throw ConfigError(sizes[i].first, Text::ErrSizeFromSource, {sizes[i].first, std::to_string(source_sizes[i])});
}

}  // namespace

void check_source(const AnalysisConfig& c) {
  TraceOptions one = c.trace_options();
  one.layers = 0;
  try {
    prefill_layer(c.model, 2, 0, ParamMode::shapes(), one);
    decode_layer(c.model, ParamMode::shapes(), one);
  } catch (const lang::SourceError& e) {
    throw source_error(e);
  }
}

void AnalysisConfig::use_source(const LayerSource& read) {
  source = read;
  model = source->layer();
  model_key = "custom";
}

void AnalysisConfig::use_source(const std::string& text, std::string name) {
  try {
    use_source(LayerSource(std::make_shared<const lang::Model>(text, std::move(name))));
  } catch (const lang::SourceError& e) {
    throw source_error(e);
  }
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
  if (c.source) validate_source_sizes(c);
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
