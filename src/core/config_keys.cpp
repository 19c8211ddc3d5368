#include "core/config_keys.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdlib>

#include "core/analysis.h"
#include "core/enum_names.h"
#include "core/model_lang/model.h"
#include "core/presets.h"
#include "core/settings.h"
#include "core/units.h"

namespace fl {

namespace {

template <class Presets>
std::string preset_keys(const Presets& presets) {
  std::string out;
  for (const auto& p : presets) out.append(out.empty() ? "" : ", ").append(p.key);
  return out;
}

int64_t to_int(std::string_view key, const std::string& v) {
  const std::string k(key);
  int64_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec == std::errc::result_out_of_range) throw ConfigError(k, Text::ErrTooBig, {k, v});
  if (ec != std::errc() || end != v.data() + v.size() || v.empty()) throw ConfigError(k, Text::ErrNotInteger, {k, v});
  return out;
}

double to_real(std::string_view key, const std::string& v) {
  char* end = nullptr;
  double out = v.empty() || std::isspace(static_cast<unsigned char>(v[0])) ? NAN : std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(out))
    throw ConfigError(std::string(key), Text::ErrNotNumber, {std::string(key), v});
  return out == 0 ? 0.0 : out;  // "-0" is 0, and is shown and linked as 0
}

[[noreturn]] void unknown_choice(std::string_view key, const std::string& v) {
  throw ConfigError(std::string(key), Text::ErrUnknownChoice, {std::string(key), v, key_choices(key)});
}

template <class E, size_t N, class NameOf>
E to_choice(const E (&all)[N], NameOf name_of, std::string_view key, const std::string& v) {
  if (auto e = enum_named(all, name_of, v)) return *e;
  unknown_choice(key, v);
}

bool to_bit(std::string_view key, const std::string& v) {
  if (v != "0" && v != "1") unknown_choice(key, v);
  return v == "1";
}

// demo=N starts from that demo's defaults; the language stays.
AnalysisConfig for_demo_keeping_lang(const AnalysisConfig& c, int64_t demo) {
  AnalysisConfig fresh = AnalysisConfig::for_demo(static_cast<int>(std::clamp<int64_t>(demo, -1, 99)));
  fresh.lang = c.lang;
  return fresh;
}

using Choices = std::string (*)();
using Apply = void (*)(AnalysisConfig&, std::string_view key, const std::string& value);  // throws ConfigError
using Read = std::string (*)(const AnalysisConfig&);
constexpr Choices kNoChoices = nullptr;
constexpr Read kNoRead = nullptr;  // a preset's name: settings_of writes it when the preset is used as it is

template <auto& kAll, auto kNameOf>
std::string names() {
  return enum_names(kAll, kNameOf);
}

struct KeyEntry {
  ConfigKey key;
  Choices choices;
  Apply apply;
  Read read;
};

// A key that names one value of an enum (its values kAll, named by kNameOf),
// kept in the configuration's member kField.
template <auto& kAll, auto kNameOf, auto kField>
constexpr KeyEntry choice_key(ConfigKey key) {
  return {key, names<kAll, kNameOf>,
          [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.*kField = to_choice(kAll, kNameOf, k, v); },
          [](const AnalysisConfig& c) { return std::string(kNameOf(c.*kField)); }};
}

constexpr NumberRange kNotNumber{"", 0, 0, false};
constexpr NumberRange integer(std::string_view key, int64_t max) { return {key, 1, static_cast<double>(max), true}; }
constexpr NumberRange real(std::string_view key, double lo, double hi) { return {key, lo, hi, false}; }

using G = KeyGroup;
using S = SetBy;
constexpr Text kNoField = Text::Count;

// {default} in a usage line is the value demos 2 and 3 start from.
constexpr KeyEntry kKeys[] = {
    {{"demo", G::Run, S::Nothing, kNotNumber, "N", "1..4 (default: all four)", kNoField, kNoField}, kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c = for_demo_keeping_lang(c, to_int(k, v)); },
     [](const AnalysisConfig& c) { return std::to_string(c.demo); }},
    choice_key<kLangs, lang_key, &AnalysisConfig::lang>({"lang", G::Run, S::Nothing, kNotNumber, "zh|en",
                                                         "language of tables and observations (default {default})",
                                                         kNoField, kNoField}),
    {{"model", G::Model, S::Nothing, kNotNumber, "NAME", "{choices}", Text::LabelModelPreset, Text::HelpModel},
     [] { return preset_keys(model_presets()); },
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { if (!c.use_model(v)) unknown_choice(k, v); },
     kNoRead},
    {{"hardware", G::Hardware, S::Nothing, kNotNumber, "NAME", "{choices}", Text::LabelGpu, Text::HelpGpu},
     [] { return preset_keys(hardware_presets()); },
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { if (!c.use_hardware(v)) unknown_choice(k, v); },
     kNoRead},
    // The layer as source (docs/model-language.md): its sizes are the source's.
    {{"source", G::Model, S::Nothing, kNotNumber, "TEXT", "the decoder layer in the model language", kNoField, kNoField,
      false},
     kNoChoices, [](AnalysisConfig& c, std::string_view, const std::string& v) { c.use_source(v); },
     [](const AnalysisConfig& c) -> std::string { return c.source ? c.source->source() : ""; }},
    {{"d", G::Model, S::ModelLayer, integer("d", Limits::kMaxHidden), "N", "hidden size (default: the model's)",
      Text::LabelHidden, Text::HelpHidden},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.model.d = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.model.d); }},
    {{"heads", G::Model, S::ModelLayer, integer("heads", Limits::kMaxHeads), "N", "query heads", Text::LabelHeads,
      Text::HelpHeads},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.model.H = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.model.H); }},
    {{"kv_heads", G::Model, S::ModelLayer, integer("kv_heads", Limits::kMaxHeads), "N",
      "KV heads (grouped-query attention: a divisor of --heads)", Text::LabelKvHeads, Text::HelpKvHeads},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.model.G = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.model.G); }},
    {{"head_dim", G::Model, S::ModelLayer, integer("head_dim", Limits::kMaxHeadDim), "N", "size of one head (even)",
      Text::LabelHeadDim, Text::HelpHeadDim},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.model.dh = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.model.dh); }},
    {{"ffn", G::Model, S::ModelLayer, integer("ffn", Limits::kMaxFfn), "N", "MLP hidden size", Text::LabelFfn, Text::HelpFfn},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.model.f = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.model.f); }},
    {{"model_layers", G::Model, S::ModelSize, integer("model_layers", Limits::kMaxLayers), "N",
      "the model's decoder layers (default: the model's; tokens/s counts them)", kNoField, kNoField},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.layers = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.layers); }},
    {{"vocab", G::Model, S::ModelSize, integer("vocab", Limits::kMaxVocab), "N",
      "vocabulary size, for the embedding and the LM head (default: the model's)", kNoField, kNoField},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.vocab = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.vocab); }},
    {{"tied_embeddings", G::Model, S::ModelSize, kNotNumber, "0|1",
      "the LM head reuses the embedding table (default: the model's)", kNoField, kNoField},
     [] { return std::string("0, 1"); },
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.tied_embeddings = to_bit(k, v); },
     [](const AnalysisConfig& c) { return std::string(c.tied_embeddings ? "1" : "0"); }},
    {{"layers", G::Model, S::Nothing, kNotNumber, "one|all|N",
      "one decoder layer (default), or the whole model: embedding, all (or N) layers, final norm, LM head; tokens/s "
      "then comes from it",
      Text::LabelLayers, Text::HelpLayers},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) {
       c.whole_model = v != "one";  // "one": one decoder layer; "all": the whole model; N: the whole model of N layers
       if (v != "one" && v != "all") c.layers = to_int(k, v);
     },
     [](const AnalysisConfig& c) { return std::string(c.whole_model ? "all" : "one"); }},
    {{"tokens", G::Workload, S::Nothing, integer("tokens", Limits::kMaxTokens), "T",
      "prefill tokens per sequence (default {default})", Text::LabelTokens, Text::HelpTokens},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.tokens = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.tokens); }},
    {{"kv_len", G::Workload, S::Nothing, integer("kv_len", Limits::kMaxKvLen), "S", "decode KV length (default {default})",
      Text::LabelKvLen, Text::HelpKvLen},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.kv_len = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.kv_len); }},
    {{"batch", G::Workload, S::Nothing, integer("batch", Limits::kMaxBatch), "B", "sequences (default {default})",
      Text::LabelBatch, Text::HelpBatch},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.batch = to_int(k, v); },
     [](const AnalysisConfig& c) { return std::to_string(c.batch); }},
    choice_key<kActDTypes, dtype_name, &AnalysisConfig::act>({"dtype", G::Workload, S::Nothing, kNotNumber, "D",
      "activations and KV cache, and the weights unless --weights-dtype: {choices} (default {default})",
      Text::LabelActDtype, Text::HelpActDtype}),
    choice_key<kWeightDTypes, dtype_name, &AnalysisConfig::weights>({"weights_dtype", G::Workload, S::Nothing, kNotNumber,
                                                                     "D", "weight matrices: {choices} (default: as --dtype)",
                                                                     Text::LabelWeightsDtype, Text::HelpWeightsDtype}),
    choice_key<kAttentionForms, attention_form_key, &AnalysisConfig::attention>({"attention", G::Workload, S::Nothing, kNotNumber, "F",
      "demos 2 and 3: how the layer writes attention: lecture (default), math (as PyTorch code does: / sqrt(dh), "
      "masked_fill with a boolean mask, softmax in float32) or sdpa (F.scaled_dot_product_attention, one op)",
      Text::LabelAttention, Text::HelpAttention}),
    choice_key<kCompilers, compiler_key, &AnalysisConfig::compiler>({"compiler", G::Workload, S::Nothing, kNotNumber, "C",
      "demos 2 and 3, one layer: lecture (default: the four partitions), inductor (also a model of torch.compile's "
      "default mode, as a fifth partition named \"inductor\", its kernels named as Inductor names them) or gpt-fast "
      "(the same with gpt-fast's setting: decode GEMVs as Triton reductions; fifth partition \"gpt_fast\")",
      Text::LabelCompiler, Text::HelpCompiler}),
    choice_key<kCostModels, cost_model_key, &AnalysisConfig::cost>({"cost", G::Hardware, S::Nothing, kNotNumber, "M",
      "how kernels are costed: roofline (default: the GPU's peaks) or calibrated (the fractions of the peaks and the "
      "fixed time per kernel fitted to the profiles measured on this GPU; a GPU without one keeps the roofline)",
      Text::LabelCost, Text::HelpCost}),
    {{"matmul_tflops", G::Hardware, S::Hardware, real("matmul_tflops", 0.1, 1e5), "X",
      "matmul throughput, TFLOP/s (default: the GPU's)", Text::LabelMatmulTflops, Text::HelpMatmulTflops},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.matmul_flops = to_real(k, v) * 1e12; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.matmul_flops / 1e12); }},
    {{"other_tflops", G::Hardware, S::Hardware, real("other_tflops", 0.1, 1e5), "X",
      "throughput of every other op, TFLOP/s", Text::LabelOtherTflops, Text::HelpOtherTflops},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.other_flops = to_real(k, v) * 1e12; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.other_flops / 1e12); }},
    {{"bandwidth_tbs", G::Hardware, S::Hardware, real("bandwidth_tbs", 0.01, 1e3), "X", "HBM bandwidth, TB/s",
      Text::LabelBandwidth, Text::HelpBandwidth},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.bandwidth = to_real(k, v) * 1e12; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.bandwidth / 1e12); }},
    {{"launch_us", G::Hardware, S::Hardware, real("launch_us", 0, 1e4), "X", "fixed cost per kernel launch, µs",
      Text::LabelLaunch, Text::HelpLaunch},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.launch = to_real(k, v) * 1e-6; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.launch * 1e6); }},
    {{"graph_launch_us", G::Hardware, S::Hardware, real("graph_launch_us", 0, 1e4), "X",
      "fixed cost per kernel replayed from a CUDA Graph (ablation, timeline), µs", Text::LabelGraphLaunch,
      Text::HelpGraphLaunch},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.graph_launch = to_real(k, v) * 1e-6; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.graph_launch * 1e6); }},
    {{"memory_gb", G::Hardware, S::Hardware, real("memory_gb", 0.1, 1e5), "X",
      "GPU memory, GB: whether the weights and the KV cache fit", Text::LabelMemoryGb, Text::HelpMemoryGb},
     kNoChoices,
     [](AnalysisConfig& c, std::string_view k, const std::string& v) { c.hw.memory = to_real(k, v) * 1e9; },
     [](const AnalysisConfig& c) { return fmt_number(c.hw.memory / 1e9); }},
};

constexpr std::array<ConfigKey, std::size(kKeys)> keys_only() {
  std::array<ConfigKey, std::size(kKeys)> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = kKeys[i].key;
  return out;
}
constexpr std::array<ConfigKey, std::size(kKeys)> kConfigKeys = keys_only();

constexpr std::array<std::string_view, std::size(kKeys)> names_only() {
  std::array<std::string_view, std::size(kKeys)> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = kKeys[i].key.key;
  return out;
}
constexpr std::array<std::string_view, std::size(kKeys)> kKeyNames = names_only();

consteval bool ranges_named_by_their_keys() {
  for (const ConfigKey& k : kConfigKeys)
    if (k.number() && k.range.key != k.key) return false;
  return true;
}
static_assert(ranges_named_by_their_keys(), "a number's range carries its own key");

const KeyEntry* entry_of(std::string_view key) {
  for (const KeyEntry& e : kKeys)
    if (e.key.key == key) return &e;
  return nullptr;
}

void replace_all(std::string& s, std::string_view what, const std::string& with) {
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size())) s.replace(at, what.size(), with);
}

}  // namespace

std::span<const ConfigKey> config_keys() { return kConfigKeys; }
std::span<const std::string_view> config_key_names() { return kKeyNames; }

const ConfigKey* find_config_key(std::string_view key) {
  for (const ConfigKey& k : kConfigKeys)
    if (k.key == key) return &k;
  return nullptr;
}

const NumberRange* find_number_range(std::string_view key) {
  const ConfigKey* k = find_config_key(key);
  return k && k->number() ? &k->range : nullptr;
}

std::string key_choices(std::string_view key) {
  const KeyEntry* e = entry_of(key);
  return e && e->choices ? e->choices() : std::string();
}

std::string cli_flag(std::string_view key) {
  std::string out = "--" + std::string(key);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

void apply_key(AnalysisConfig& c, std::string_view key, const std::string& value) {
  const KeyEntry* e = entry_of(key);
  if (!e) throw ConfigError(std::string(key), Text::ErrUnknownKey, {std::string(key)});
  e->apply(c, key, value);
}

std::optional<std::string> key_value(const AnalysisConfig& c, std::string_view key) {
  const KeyEntry* e = entry_of(key);
  if (!e || !e->read) return std::nullopt;
  std::string value = e->read(c);
  if (value.empty()) return std::nullopt;  // no source
  return value;
}

std::string_view implied_key(std::string_view key) { return key == "dtype" ? "weights_dtype" : ""; }

std::string key_usage(const ConfigKey& k) {
  std::string text(k.usage);
  replace_all(text, "{choices}", key_choices(k.key));
  if (std::optional<std::string> value = key_value(AnalysisConfig::for_demo(2), k.key))
    replace_all(text, "{default}", *value);
  return text;
}

}  // namespace fl
