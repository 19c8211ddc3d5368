// What the user chose: the view, the models, the hardware, the language.
//
// Settings are the page's whole state: they round-trip through the URL query
// and through window.fusionlab.getState()/setState(), with the same keys as
// the CLI's options (d, heads, kv_heads, head_dim, ffn, tokens, kv_len,
// matmul_tflops, other_tflops, bandwidth_tbs, launch_us).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"

namespace fl::web {

enum class View { Kernels, Prefill, Decode, Ablation };  // demos 1..4
inline constexpr View kViews[] = {View::Kernels, View::Prefill, View::Decode, View::Ablation};
std::string_view ViewKey(View v);  // "kernels", "prefill", "decode", "ablation"
int ViewDemo(View v);              // 1..4

enum class Preset { Small, Llama8B, Custom };
inline constexpr Preset kPresets[] = {Preset::Small, Preset::Llama8B, Preset::Custom};
std::string_view PresetKey(Preset p);  // "small", "llama8b", "custom"
std::optional<LayerCfg> PresetModel(Preset p);

// A model and its sequence lengths. Demo 1 has its own (the seed's small
// layer); demos 2 and 3 share one (the Llama-3.1-8B layer), which demo 4's
// observations also use.
struct Workload {
  Preset preset;
  LayerCfg model;
  int64_t tokens;  // T, prefill
  int64_t kv_len;  // S, decode
  bool operator==(const Workload&) const = default;
};

struct Settings {
  View view = View::Kernels;
  Lang lang = Lang::Zh;
  bool embed = false;
  Workload kernels_workload = DefaultWorkload(View::Kernels);
  Workload layer_workload = DefaultWorkload(View::Prefill);
  Hardware hw = kH100;
  int partition = 2;  // demos 2 and 3: the partition whose kernels are charted
  int kernel = -1;    // demo 1: the selected kernel, -1 for none
  bool operator==(const Settings&) const = default;

  static Workload DefaultWorkload(View v);
};

// The workload the view shows; nullptr for the ablation (published data).
Workload* ActiveWorkload(Settings& s);
const Workload* ActiveWorkload(const Settings& s);

// The analysis request for a demo under these settings.
AnalysisConfig MakeAnalysisConfig(const Settings& s, int demo);

// Applies key=value pairs (URL query or setState). Unknown keys and invalid
// values are skipped and described in the returned messages; `view` is
// applied first, so model keys go to that view's workload.
std::vector<std::string> ApplySettings(Settings& s, const std::vector<std::pair<std::string, std::string>>& pairs);

bool IsHardwareKey(std::string_view key);

// The state as key=value pairs: every key needed to reproduce the view.
std::vector<std::pair<std::string, std::string>> SettingsPairs(const Settings& s);

std::vector<std::pair<std::string, std::string>> ParseQuery(std::string_view query);
std::string FormatQuery(const std::vector<std::pair<std::string, std::string>>& pairs);

// A JSON object (getState/setState, analyze configs) as key=value pairs.
std::vector<std::pair<std::string, std::string>> JsonPairs(const nlohmann::json& obj);
nlohmann::json PairsJson(const std::vector<std::pair<std::string, std::string>>& pairs);

// window.fusionlab.analyze(config): the CLI's option keys plus `demo`.
// Throws ConfigError / std::invalid_argument on an invalid config.
AnalysisConfig AnalysisConfigFromJson(const nlohmann::json& config);

}  // namespace fl::web
