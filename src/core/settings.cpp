#include "core/settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "core/config_keys.h"
#include "core/enum_names.h"
#include "core/presets.h"
#include "core/units.h"

namespace fl {

namespace {

int64_t to_int(const std::string& key, const std::string& v) {
  int64_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range) throw ConfigError(key, Text::ErrTooBig, {key, v});
  if (ec != std::errc() || end != v.data() + v.size() || v.empty()) throw ConfigError(key, Text::ErrNotInteger, {key, v});
  return out;
}

double to_real(const std::string& key, const std::string& v) {
  char* end = nullptr;
  double out = v.empty() || std::isspace(static_cast<unsigned char>(v[0])) ? NAN : std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(out)) throw ConfigError(key, Text::ErrNotNumber, {key, v});
  return out == 0 ? 0.0 : out;  // "-0" is 0, and is shown and linked as 0
}

[[noreturn]] void unknown_choice(const std::string& key, const std::string& v) {
  throw ConfigError(key, Text::ErrUnknownChoice, {key, v, key_choices(key)});
}

DType to_dtype(const std::string& key, const std::string& v) {
  if (auto t = enum_named(kConfigDTypes, dtype_name, v)) return *t;
  unknown_choice(key, v);
}

void apply(AnalysisConfig& c, const std::string& key, const std::string& v) {
  auto set_int = [&](int64_t& field) { field = to_int(key, v); };
  if (key == "demo") c = [&] {
    AnalysisConfig fresh = AnalysisConfig::for_demo(static_cast<int>(std::clamp<int64_t>(to_int(key, v), -1, 99)));
    fresh.lang = c.lang;
    return fresh;
  }();
  else if (key == "lang") {
    if (v != "zh" && v != "en") unknown_choice(key, v);
    c.lang = v == "zh" ? Lang::Zh : Lang::En;
  } else if (key == "model") {
    if (!c.use_model(v)) unknown_choice(key, v);
  } else if (key == "hardware") {
    if (!c.use_hardware(v)) unknown_choice(key, v);
  } else if (key == "d") set_int(c.model.d);
  else if (key == "heads") set_int(c.model.H);
  else if (key == "kv_heads") set_int(c.model.G);
  else if (key == "head_dim") set_int(c.model.dh);
  else if (key == "ffn") set_int(c.model.f);
  else if (key == "model_layers") set_int(c.layers);
  else if (key == "vocab") set_int(c.vocab);
  else if (key == "tied_embeddings") {
    if (v != "0" && v != "1") unknown_choice(key, v);
    c.tied_embeddings = v == "1";
  } else if (key == "layers") {  // "one": one decoder layer; "all": the whole model; N: the whole model of N layers
    c.whole_model = v != "one";
    if (v != "one" && v != "all") set_int(c.layers);
  } else if (key == "tokens") set_int(c.tokens);
  else if (key == "kv_len") set_int(c.kv_len);
  else if (key == "batch") set_int(c.batch);
  else if (key == "dtype") c.act = c.weights = to_dtype(key, v);
  else if (key == "weights_dtype") c.weights = to_dtype(key, v);
  else if (key == "attention") {
    const std::optional<AttentionForm> form = attention_form_named(v);
    if (!form) unknown_choice(key, v);
    c.attention = *form;
  } else if (key == "compiler") {
    const std::optional<Compiler> compiler = compiler_named(v);
    if (!compiler) unknown_choice(key, v);
    c.compiler = *compiler;
  }
  else if (key == "matmul_tflops") c.hw.matmul_flops = to_real(key, v) * 1e12;
  else if (key == "other_tflops") c.hw.other_flops = to_real(key, v) * 1e12;
  else if (key == "bandwidth_tbs") c.hw.bandwidth = to_real(key, v) * 1e12;
  else if (key == "launch_us") c.hw.launch = to_real(key, v) * 1e-6;
  else if (key == "graph_launch_us") c.hw.graph_launch = to_real(key, v) * 1e-6;
  else if (key == "memory_gb") c.hw.memory = to_real(key, v) * 1e9;
  else throw ConfigError(key, Text::ErrUnknownKey, {key});
}

}  // namespace

std::span<const std::string_view> setting_keys() { return config_key_names(); }

AnalysisConfig config_from_settings(const std::vector<Setting>& settings, int default_demo) {
  AnalysisConfig c = AnalysisConfig::for_demo(default_demo);
  for (std::string_view key : setting_keys())  // presets before what overrides them, whatever the input's order
    for (const auto& [k, v] : settings)
      if (k == key) apply(c, k, v);
  for (const auto& [k, v] : settings)
    if (!find_config_key(k)) throw ConfigError(k, Text::ErrUnknownKey, {k});
  // A preset edited by hand is a custom one.
  if (const ModelPreset* m = find_model(c.model_key); !m || !(m->layer == c.model)) c.model_key = "custom";
  if (const HardwarePreset* h = find_hardware(c.hardware_key); !h || !(h->hw == c.hw)) c.hardware_key = "custom";
  validate(c);
  return c;
}

std::vector<Setting> all_values_of(const AnalysisConfig& c) {
  return {{"demo", std::to_string(c.demo)},
                            {"lang", std::string(lang_key(c.lang))},
                            {"d", std::to_string(c.model.d)},
                            {"heads", std::to_string(c.model.H)},
                            {"kv_heads", std::to_string(c.model.G)},
                            {"head_dim", std::to_string(c.model.dh)},
                            {"ffn", std::to_string(c.model.f)},
                            {"model_layers", std::to_string(c.layers)},
                            {"vocab", std::to_string(c.vocab)},
                            {"tied_embeddings", c.tied_embeddings ? "1" : "0"},
                            {"layers", c.whole_model ? "all" : "one"},
                            {"tokens", std::to_string(c.tokens)},
                            {"kv_len", std::to_string(c.kv_len)},
                            {"batch", std::to_string(c.batch)},
                            {"dtype", std::string(dtype_name(c.act))},
                            {"weights_dtype", std::string(dtype_name(c.weights))},
                            {"attention", std::string(attention_form_key(c.attention))},
                            {"compiler", std::string(compiler_key(c.compiler))},
                            {"matmul_tflops", fmt_number(c.hw.matmul_flops / 1e12)},
                            {"other_tflops", fmt_number(c.hw.other_flops / 1e12)},
                            {"bandwidth_tbs", fmt_number(c.hw.bandwidth / 1e12)},
                            {"launch_us", fmt_number(c.hw.launch * 1e6)},
                            {"graph_launch_us", fmt_number(c.hw.graph_launch * 1e6)},
                            {"memory_gb", fmt_number(c.hw.memory / 1e9)}};
}

std::vector<Setting> settings_of(const AnalysisConfig& c) {
  std::vector<Setting> s = all_values_of(c);
  // A preset used as it is stands for its numbers: the key alone, and no
  // numbers printed and parsed back with a rounding that would make it custom.
  auto drop = [&](SetBy preset) {
    std::erase_if(s, [&](const Setting& kv) { return find_config_key(kv.first)->set_by == preset; });
  };
  const ModelPreset* m = find_model(c.model_key);
  if (m && m->layers == c.layers && m->vocab == c.vocab && m->tied_embeddings == c.tied_embeddings) drop(SetBy::ModelSize);
  if (c.model_key != "custom") {
    drop(SetBy::ModelLayer);
    s.insert(s.begin() + 2, {"model", c.model_key});
  }
  // The lecture's layer and rules: links as before these options.
  if (c.attention == AttentionForm::Lecture) std::erase_if(s, [](const Setting& kv) { return kv.first == "attention"; });
  if (c.compiler == Compiler::Lecture) std::erase_if(s, [](const Setting& kv) { return kv.first == "compiler"; });
  if (c.hardware_key != "custom") {
    drop(SetBy::Hardware);
    s.insert(s.begin() + 2, {"hardware", c.hardware_key});
  }
  return s;
}

}  // namespace fl
