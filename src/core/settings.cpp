#include "core/settings.h"

#include <algorithm>

#include "core/config_keys.h"
#include "core/measured/cost_model.h"
#include "core/presets.h"

namespace fl {

std::span<const std::string_view> setting_keys() { return config_key_names(); }

AnalysisConfig config_from_settings(const std::vector<Setting>& settings, int default_demo) {
  AnalysisConfig c = AnalysisConfig::for_demo(default_demo);
  auto given = [&](std::string_view key) {
    return std::any_of(settings.begin(), settings.end(), [&](const Setting& kv) { return kv.first == key; });
  };
  for (std::string_view key : setting_keys())  // presets before what overrides them, whatever the input's order
    for (const auto& [k, v] : settings)
      if (k == key) {
        apply_key(c, k, v);
        if (std::string_view also = implied_key(k); !also.empty() && !given(also)) apply_key(c, also, v);
      }
  for (const auto& [k, v] : settings)
    if (!find_config_key(k)) throw ConfigError(k, Text::ErrUnknownKey, {k});
  // A preset edited by hand is a custom one.
  if (const ModelPreset* m = find_model(c.model_key); !m || !(m->layer == c.model)) c.model_key = "custom";
  if (const HardwarePreset* h = find_hardware(c.hardware_key); !h || !(h->hw == c.hw)) c.hardware_key = "custom";
  apply_cost_model(c);
  validate(c);
  return c;
}

std::vector<Setting> all_values_of(const AnalysisConfig& c) {
  std::vector<Setting> out;
  for (std::string_view key : setting_keys())
    if (std::optional<std::string> v = key_value(c, key)) out.emplace_back(key, std::move(*v));
  return out;
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
  if (c.cost == CostModel::Roofline) std::erase_if(s, [](const Setting& kv) { return kv.first == "cost"; });
  if (c.hardware_key != "custom") {
    drop(SetBy::Hardware);
    s.insert(s.begin() + 2, {"hardware", c.hardware_key});
  }
  return s;
}

}  // namespace fl
