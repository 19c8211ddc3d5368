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
// of G, ...) in both languages.
AnalysisConfig config_from_settings(const std::vector<Setting>& settings, int default_demo = 2);

// Settings that reproduce `c` through config_from_settings: a preset used as
// it is appears as its key alone.
std::vector<Setting> settings_of(const AnalysisConfig& c);

// Every number of `c`, presets or not: what a form shows in its inputs.
std::vector<Setting> all_values_of(const AnalysisConfig& c);

}  // namespace fl
