#include "core/settings.h"

#include <algorithm>

#include "core/config_keys.h"
#include "core/measured/cost_model.h"
#include "core/model_lang/model.h"
#include "core/presets.h"

namespace fl {

std::span<const std::string_view> setting_keys() { return config_key_names(); }

AnalysisConfig config_from_settings(const std::vector<Setting>& settings, int default_demo, const AnalysisConfig* edited_from) {
  AnalysisConfig c = AnalysisConfig::for_demo(default_demo);
  const LayerSource* read = edited_from && edited_from->source ? &edited_from->source : nullptr;
  auto given = [&](std::string_view key) {
    return std::any_of(settings.begin(), settings.end(), [&](const Setting& kv) { return kv.first == key; });
  };
  for (std::string_view key : setting_keys())  // presets before what overrides them, whatever the input's order
    for (const auto& [k, v] : settings)
      if (k == key) {
        if (k == "source" && read && (*read)->source() == v) {
          c.use_source(*read);  // read before: the same text
          continue;
        }
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
  if (c.source && !(read && *read == c.source && edited_from->traced_attention() == c.traced_attention())) check_source(c);
  return c;
}

namespace {

bool has_key(const std::vector<Setting>& settings, std::string_view key) {
  return std::any_of(settings.begin(), settings.end(), [&](const Setting& kv) { return kv.first == key; });
}

void erase_key(std::vector<Setting>& settings, std::string_view key) {
  std::erase_if(settings, [&](const Setting& kv) { return kv.first == key; });
}

void erase_keys_set_by(std::vector<Setting>& settings, SetBy preset) {
  std::erase_if(settings, [&](const Setting& kv) {
    const ConfigKey* k = find_config_key(kv.first);
    return k && k->set_by == preset;
  });
}

// Links made before the presets had their published names.
std::string model_alias(const std::string& v) { return v == "llama8b" ? "llama-3.1-8b" : v; }

}  // namespace

std::vector<Setting> overlay_settings(const std::vector<Setting>& base, const std::vector<Setting>& changes) {
  std::vector<Setting> out = base;
  for (const auto& [k, v] : changes) {
    if (v == "custom") continue;  // keeps the numbers
    if (k == "model") {
      erase_key(out, "source");  // a preset's layer, not the source's
      erase_keys_set_by(out, SetBy::ModelLayer);
      erase_keys_set_by(out, SetBy::ModelSize);
      const auto layers = std::find_if(out.begin(), out.end(), [](const Setting& kv) { return kv.first == "layers"; });
      if (layers != out.end() && layers->second != "one") layers->second = "all";
    } else if (k == "hardware") {
      erase_keys_set_by(out, SetBy::Hardware);
    }
  }
  for (const auto& [k, raw] : changes) {
    if (std::string_view also = implied_key(k); !also.empty() && !has_key(changes, also)) erase_key(out, also);
    erase_key(out, k);
    // "custom" names no preset: the numbers that follow (or the current ones) stand.
    if ((k == "model" || k == "hardware") && raw == "custom") continue;
    out.emplace_back(k, k == "model" ? model_alias(raw) : raw);
  }
  return out;
}

AnalysisConfig edit_config(const AnalysisConfig& c, const std::vector<Setting>& changes) {
  // "custom" as a preset writes out the numbers the preset had set.
  AnalysisConfig current = c;
  for (const auto& [k, v] : changes) {
    if (k == "model" && v == "custom") current.model_key = "custom";
    if (k == "hardware" && v == "custom") current.hardware_key = "custom";
  }
  std::vector<Setting> own = settings_of(current);
  erase_key(own, "demo");
  return config_from_settings(overlay_settings(own, changes), c.demo, &c);
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
  if (c.source) drop(SetBy::ModelLayer);  // the source defines the sizes
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
