#include "core/config_keys.h"

#include <algorithm>
#include <array>

#include "core/analysis.h"
#include "core/enum_names.h"
#include "core/presets.h"
#include "core/settings.h"

namespace fl {

namespace {

template <class Presets>
std::string preset_keys(const Presets& presets) {
  std::string out;
  for (const auto& p : presets) out.append(out.empty() ? "" : ", ").append(p.key);
  return out;
}

using Choices = std::string (*)();
constexpr Choices kNoChoices = nullptr;

struct KeyEntry {
  ConfigKey key;
  Choices choices;
};

constexpr NumberRange kNotNumber{"", 0, 0, false};
constexpr NumberRange integer(std::string_view key, int64_t max) { return {key, 1, static_cast<double>(max), true}; }
constexpr NumberRange real(std::string_view key, double lo, double hi) { return {key, lo, hi, false}; }

using G = KeyGroup;
using S = SetBy;
constexpr Text kNoField = Text::Count;

// {default} in a usage line is the value demos 2 and 3 start from.
constexpr KeyEntry kKeys[] = {
    {{"demo", G::Run, S::Nothing, kNotNumber, "N", "1..4 (default: all four)", kNoField, kNoField}, kNoChoices},
    {{"lang", G::Run, S::Nothing, kNotNumber, "zh|en", "language of tables and observations (default {default})", kNoField,
      kNoField},
     [] { return std::string("zh, en"); }},
    {{"model", G::Model, S::Nothing, kNotNumber, "NAME", "{choices}", Text::UiModelPreset, Text::HelpModel},
     [] { return preset_keys(model_presets()); }},
    {{"hardware", G::Hardware, S::Nothing, kNotNumber, "NAME", "{choices}", Text::UiGpu, Text::HelpGpu},
     [] { return preset_keys(hardware_presets()); }},
    {{"d", G::Model, S::ModelLayer, integer("d", Limits::kMaxHidden), "N", "hidden size (default: the model's)",
      Text::UiHidden, Text::HelpHidden},
     kNoChoices},
    {{"heads", G::Model, S::ModelLayer, integer("heads", Limits::kMaxHeads), "N", "query heads", Text::UiHeads,
      Text::HelpHeads},
     kNoChoices},
    {{"kv_heads", G::Model, S::ModelLayer, integer("kv_heads", Limits::kMaxHeads), "N",
      "KV heads (grouped-query attention: a divisor of --heads)", Text::UiKvHeads, Text::HelpKvHeads},
     kNoChoices},
    {{"head_dim", G::Model, S::ModelLayer, integer("head_dim", Limits::kMaxHeadDim), "N", "size of one head (even)",
      Text::UiHeadDim, Text::HelpHeadDim},
     kNoChoices},
    {{"ffn", G::Model, S::ModelLayer, integer("ffn", Limits::kMaxFfn), "N", "MLP hidden size", Text::UiFfn, Text::HelpFfn},
     kNoChoices},
    {{"model_layers", G::Model, S::ModelSize, integer("model_layers", Limits::kMaxLayers), "N",
      "the model's decoder layers (default: the model's; tokens/s counts them)", kNoField, kNoField},
     kNoChoices},
    {{"vocab", G::Model, S::ModelSize, integer("vocab", Limits::kMaxVocab), "N",
      "vocabulary size, for the embedding and the LM head (default: the model's)", kNoField, kNoField},
     kNoChoices},
    {{"tied_embeddings", G::Model, S::ModelSize, kNotNumber, "0|1",
      "the LM head reuses the embedding table (default: the model's)", kNoField, kNoField},
     [] { return std::string("0, 1"); }},
    {{"layers", G::Model, S::Nothing, kNotNumber, "one|all|N",
      "one decoder layer (default), or the whole model: embedding, all (or N) layers, final norm, LM head; tokens/s "
      "then comes from it",
      Text::UiLayers, Text::HelpLayers},
     kNoChoices},
    {{"tokens", G::Workload, S::Nothing, integer("tokens", Limits::kMaxTokens), "T",
      "prefill tokens per sequence (default {default})", Text::UiTokens, Text::HelpTokens},
     kNoChoices},
    {{"kv_len", G::Workload, S::Nothing, integer("kv_len", Limits::kMaxKvLen), "S", "decode KV length (default {default})",
      Text::UiKvLen, Text::HelpKvLen},
     kNoChoices},
    {{"batch", G::Workload, S::Nothing, integer("batch", Limits::kMaxBatch), "B", "sequences (default {default})",
      Text::UiBatch, Text::HelpBatch},
     kNoChoices},
    {{"dtype", G::Workload, S::Nothing, kNotNumber, "D",
      "activations and KV cache, and the weights unless --weights-dtype: {choices} (default {default})",
      Text::UiActDtype, Text::HelpActDtype},
     [] { return enum_names(kConfigDTypes, dtype_name); }},
    {{"weights_dtype", G::Workload, S::Nothing, kNotNumber, "D", "weight matrices: {choices} (default: as --dtype)",
      Text::UiWeightsDtype, Text::HelpWeightsDtype},
     [] { return enum_names(kConfigDTypes, dtype_name); }},
    {{"attention", G::Workload, S::Nothing, kNotNumber, "F",
      "demos 2 and 3: how the layer writes attention: lecture (default), math (as PyTorch code does: / sqrt(dh), "
      "masked_fill with a boolean mask, softmax in float32) or sdpa (F.scaled_dot_product_attention, one op)",
      Text::UiAttention, Text::HelpAttention},
     [] { return enum_names(kAttentionForms, attention_form_key); }},
    {{"compiler", G::Workload, S::Nothing, kNotNumber, "C",
      "demos 2 and 3, one layer: lecture (default: the four partitions), inductor (also a model of torch.compile's "
      "default mode, as a fifth partition named \"inductor\", its kernels named as Inductor names them) or gpt-fast "
      "(the same with gpt-fast's setting: decode GEMVs as Triton reductions; fifth partition \"gpt_fast\")",
      Text::UiCompiler, Text::HelpCompiler},
     [] { return enum_names(kCompilers, compiler_key); }},
    {{"matmul_tflops", G::Hardware, S::Hardware, real("matmul_tflops", 0.1, 1e5), "X",
      "matmul throughput, TFLOP/s (default: the GPU's)", Text::UiMatmulTflops, Text::HelpMatmulTflops},
     kNoChoices},
    {{"other_tflops", G::Hardware, S::Hardware, real("other_tflops", 0.1, 1e5), "X",
      "throughput of every other op, TFLOP/s", Text::UiOtherTflops, Text::HelpOtherTflops},
     kNoChoices},
    {{"bandwidth_tbs", G::Hardware, S::Hardware, real("bandwidth_tbs", 0.01, 1e3), "X", "HBM bandwidth, TB/s",
      Text::UiBandwidth, Text::HelpBandwidth},
     kNoChoices},
    {{"launch_us", G::Hardware, S::Hardware, real("launch_us", 0, 1e4), "X", "fixed cost per kernel launch, µs",
      Text::UiLaunch, Text::HelpLaunch},
     kNoChoices},
    {{"graph_launch_us", G::Hardware, S::Hardware, real("graph_launch_us", 0, 1e4), "X",
      "fixed cost per kernel replayed from a CUDA Graph (ablation, timeline), µs", Text::UiGraphLaunch,
      Text::HelpGraphLaunch},
     kNoChoices},
    {{"memory_gb", G::Hardware, S::Hardware, real("memory_gb", 0.1, 1e5), "X",
      "GPU memory, GB: whether the weights and the KV cache fit", Text::UiMemoryGb, Text::HelpMemoryGb},
     kNoChoices},
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

std::string key_usage(const ConfigKey& k) {
  std::string text(k.usage);
  replace_all(text, "{choices}", key_choices(k.key));
  for (const auto& [key, value] : all_values_of(AnalysisConfig::for_demo(2)))
    if (key == k.key) replace_all(text, "{default}", value);
  return text;
}

}  // namespace fl
