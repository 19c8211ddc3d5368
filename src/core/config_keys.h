// Every key of a configuration, declared once: its name in the settings, the
// URL and the JS API and, dashed, on the command line (kv_heads: --kv-heads);
// its section; what values it takes; what a preset sets; its lines in
// --help; its label and help on the page (zh and en). The settings apply the
// keys in this order, the CLI's help lists them, the numbers' ranges and the
// sidebar's labels come from here.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/analysis.h"
#include "core/config.h"
#include "core/i18n.h"

namespace fl {

enum class KeyGroup : unsigned char {
  Run,       // which demo, in which language
  Model,     // a model preset and the numbers it sets
  Workload,  // what runs on the model: sizes, dtypes, how attention is written, the compiler
  Hardware,  // a GPU preset and the numbers it sets
};

// What a preset sets: choosing the model sets its layer's numbers and its
// sizes (a hand-edited number makes the layer custom; the sizes stand apart),
// choosing a GPU its numbers.
enum class SetBy : unsigned char { Nothing, ModelLayer, ModelSize, Hardware };

struct ConfigKey {
  std::string_view key;
  KeyGroup group;
  SetBy set_by;
  NumberRange range;          // a number's range (range.key empty: not a number)
  std::string_view metavar;   // in --help: "--kv-heads N"
  std::string_view usage;     // in --help, English; "{choices}" stands for the valid values
  Text label, help;           // the sidebar's, zh and en; Text::Count where the sidebar shows no field
  bool on_cli = true;         // false: the CLI reads it otherwise (the source: --model-file)

  constexpr bool number() const { return !range.key.empty(); }
  constexpr bool on_sidebar() const { return label != Text::Count; }
};

// Every key, in the order the settings apply them: the demo, the presets,
// then what overrides them.
std::span<const ConfigKey> config_keys();
std::span<const std::string_view> config_key_names();  // the same keys' names
const ConfigKey* find_config_key(std::string_view key);

// The values a key takes where it names them ("zh, en"; the presets' keys),
// empty for a number.
std::string key_choices(std::string_view key);

// The command-line option of a key: "--kv-heads".
std::string cli_flag(std::string_view key);

// Sets the key's field of `c` from text; throws ConfigError naming the key
// (unknown key, not a number, unknown choice). The ranges are checked later,
// on the whole configuration (validate).
void apply_key(AnalysisConfig& c, std::string_view key, const std::string& value);

// The key's value in `c`, as text; none for the presets' names (model,
// hardware), which a configuration holds as model_key and hardware_key.
std::optional<std::string> key_value(const AnalysisConfig& c, std::string_view key);

// The key that `key` also sets unless it is given too: dtype sets the weights'
// dtype (as --dtype does); "" for every other key.
std::string_view implied_key(std::string_view key);

// What --help says of a key, its choices and the default of demos 2 and 3 filled in.
std::string key_usage(const ConfigKey& k);

}  // namespace fl
