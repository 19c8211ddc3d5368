// The one way in for a configuration, wherever it comes from: CLI options,
// the URL query, the page's controls, the JS API, JSON. Keys are the CLI's
// option names with underscores (`kv_heads` for --kv-heads); values are text.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis.h"

namespace fl {

using Setting = std::pair<std::string, std::string>;

// The keys, in the order they are applied: the demo, then presets (a model,
// a GPU), then what overrides them.
std::span<const std::string_view> setting_keys();

// The demo's defaults with `settings` applied, validated. Throws ConfigError
// naming the key (unknown keys, non-numbers, out of range, H not a multiple
// of G, ...) in both languages. A layer's source is read and traced in both
// phases (its errors name their line), unless `edited_from`, a configuration
// checked before, has the same source under the same attention form.
AnalysisConfig config_from_settings(const std::vector<Setting>& settings, int default_demo = 2,
                                    const AnalysisConfig* edited_from = nullptr);

// `changes` over `base` as a form applies them. A preset (model, hardware)
// replaces every number it sets, and a whole model takes the new model's
// layer count; a number edited by hand overrides its preset's, which stays,
// so that the preset's other numbers stand (the configuration is then named
// custom, as `--model llama-3.1-70b --ffn 20480` is); "custom" as a preset
// keeps the numbers; a change to a key that implies another (dtype) drops
// the implied one unless it is changed too.
std::vector<Setting> overlay_settings(const std::vector<Setting>& base, const std::vector<Setting>& changes);

// `c` edited as a form: `changes` overlaid on `c`'s own settings, its demo's
// defaults under them. Throws ConfigError as config_from_settings does.
AnalysisConfig edit_config(const AnalysisConfig& c, const std::vector<Setting>& changes);

// Settings that reproduce `c` through config_from_settings: a preset used as
// it is appears as its key alone.
std::vector<Setting> settings_of(const AnalysisConfig& c);

// Every number of `c`, presets or not: what a form shows in its inputs.
std::vector<Setting> all_values_of(const AnalysisConfig& c);

}  // namespace fl
