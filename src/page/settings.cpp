#include "page/settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "core/config_keys.h"
#include "core/partitions.h"
#include "core/presets.h"
#include "core/units.h"

namespace fl::web {

namespace {

int from_hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && from_hex(s[i + 1]) >= 0 && from_hex(s[i + 2]) >= 0) {
      out += static_cast<char>(from_hex(s[i + 1]) * 16 + from_hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string url_encode(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

constexpr std::string_view kPageKeys[] = {"view", "embed", "partition", "kernel", "scale", "controls", "hide", "theme"};

template <class Keys>
bool one_of(std::string_view key, const Keys& keys) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

// The configuration's keys that `preset` sets (core/config_keys.cpp).
std::vector<std::string_view> keys_set_by(SetBy preset) {
  std::vector<std::string_view> out;
  for (const ConfigKey& k : config_keys())
    if (k.set_by == preset) out.push_back(k.key);
  return out;
}
const std::vector<std::string_view> kModelKeys = keys_set_by(SetBy::ModelLayer);
const std::vector<std::string_view> kHardwareKeys = keys_set_by(SetBy::Hardware);

// The numbers an embed may show as controls: every number of the sidebar.
std::vector<std::string_view> control_keys() {
  std::vector<std::string_view> out;
  for (const ConfigKey& k : config_keys())
    if (k.number() && k.on_sidebar()) out.push_back(k.key);
  return out;
}
const std::vector<std::string_view> kControlKeys = control_keys();

bool has_key(const Pairs& pairs, std::string_view key) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const Setting& p) { return p.first == key; });
}

void erase_key(Pairs& pairs, std::string_view key) {
  std::erase_if(pairs, [&](const Setting& p) { return p.first == key; });
}

std::string value_of(const Pairs& pairs, std::string_view key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return "";
}

// The settings of a valid configuration the page links and edits: without
// the demo and the language, which the page keeps, and what a preset implies.
Pairs canonical(const AnalysisConfig& c) {
  Pairs out = settings_of(c);
  erase_key(out, "demo");
  erase_key(out, "lang");
  return out;
}

std::optional<int64_t> parse_int(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0') return std::nullopt;
  return v;
}

std::optional<double> parse_real(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

int page_int(const std::string& key, const std::string& value, int lo, int hi) {
  auto v = parse_int(value);
  if (!v) throw ConfigError(key, Text::ErrNotInteger, {key, value});
  if (*v < lo || *v > hi) throw ConfigError(key, Text::ErrRange, {key, value, std::to_string(hi)});
  return static_cast<int>(*v);
}

// A partition by its id (what links carry: "fused_flash"), or by the 0-based
// index that links carried before (partition=3 is FlashAttention's).
int partition_of(const std::string& key, const std::string& value) {
  std::string ids;
  for (PartitionId id : kPartitionIds) {
    if (value == partition_key(id)) return static_cast<int>(id);
    ids.append(ids.empty() ? "" : ", ").append(partition_key(id));
  }
  if (!parse_int(value)) throw ConfigError(key, Text::ErrUnknownChoice, {key, value, ids});
  return page_int(key, value, 0, static_cast<int>(std::size(kAllPartitions)) - 1);  // older links knew the four
}

// The partition a row index names: one of the lecture's four, or past them the compiler's.
PartitionId shown_partition_id(const Settings& s) {
  const int last = static_cast<int>(std::size(kAllPartitions)) - 1;
  if (s.partition <= last) return kAllPartitions[static_cast<size_t>(std::max(0, s.partition))];
  return compiler_partition(ActiveWorkload(s).config.compiler).value_or(kAllPartitions[static_cast<size_t>(last)]);
}

std::string joined(const std::vector<std::string_view>& keys) {
  std::string out;
  for (std::string_view k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

std::vector<std::string> split_commas(const std::string& value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    if (comma > start) out.push_back(value.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

double scale_of(const std::string& key, const std::string& value) {
  auto v = parse_real(value);
  if (!v) throw ConfigError(key, Text::ErrNotNumber, {key, value});
  if (*v < kMinScale || *v > kMaxScale)
    throw ConfigError(key, Text::ErrRangeReal, {key, value, fmt_number(kMinScale), fmt_number(kMaxScale)});
  return *v;
}

std::vector<std::string> controls_of(const std::string& key, const std::string& value) {
  std::vector<std::string> out = split_commas(value);
  for (const std::string& k : out)
    if (!one_of(k, kControlKeys)) throw ConfigError(key, Text::ErrUnknownChoice, {key, k, joined(kControlKeys)});
  return out;
}

View view_of(const std::string& key, const std::string& value) {
  std::string names;
  for (View v : kViews) {
    if (key == "view" ? value == ViewKey(v) : value == std::to_string(ViewDemo(v))) return v;
    names += (names.empty() ? "" : ", ") + (key == "view" ? std::string(ViewKey(v)) : std::to_string(ViewDemo(v)));
  }
  throw ConfigError(key, Text::ErrUnknownChoice, {key, value, key == "view" ? names : "1, 2, 3, 4"});
}

}  // namespace

std::string_view ViewKey(View v) {
  switch (v) {
    case View::Kernels: return "kernels";
    case View::Prefill: return "prefill";
    case View::Decode: return "decode";
    case View::Ablation: return "ablation";
    case View::Passes: return "passes";
    case View::Roofline: return "roofline";
    case View::Timeline: return "timeline";
    case View::Sweep: return "sweep";
    case View::Reality: return "reality";
    case View::Compilers: return "compilers";
    case View::Source: return "source";
  }
  return "";
}

int ViewDemo(View v) {
  switch (v) {
    case View::Passes: return 1;
    case View::Roofline: return 2;
    case View::Timeline: return 3;
    case View::Sweep: return 2;
    case View::Compilers: return 2;  // the layer's workload, in the phase the view chooses
    case View::Source: return 2;  // the layer's workload, whose source it edits
    case View::Reality: return 2;  // the shipped measurements: the sidebar shows the layer's settings, which it leaves alone
    default: return static_cast<int>(v) + 1;
  }
}

Workload Workload::Default(int demo) {
  Workload w;
  w.demo = demo;
  w.config = AnalysisConfig::for_demo(demo);
  w.base_model = w.config.model_key;
  w.base_hardware = w.config.hardware_key;
  return w;
}

std::string Workload::Value(std::string_view key) const {
  if (has_key(refused, key)) return value_of(refused, key);
  return key_value(config, key).value_or("");
}

Workload& ActiveWorkload(Settings& s) { return ViewDemo(s.view) == 1 ? s.kernels_workload : s.layer_workload; }

const Workload& ActiveWorkload(const Settings& s) { return ActiveWorkload(const_cast<Settings&>(s)); }

std::string Workload::PresetValue(std::string_view key) const {
  AnalysisConfig preset = AnalysisConfig::for_demo(demo);
  preset.use_model(base_model);
  preset.use_hardware(base_hardware);
  return key_value(preset, key).value_or("");
}

Pairs ResetPairs(const Workload& w, std::string_view key) {
  const Pairs reset{{std::string(key), w.PresetValue(key)}};
  Workload after = w;
  try {
    ApplyConfig(after, reset, w.config.lang);
  } catch (const ConfigError&) {
    return reset;  // the core names what else is wrong
  }
  auto all_equal = [&](const auto& keys) {
    return std::all_of(std::begin(keys), std::end(keys), [&](std::string_view k) { return after.Value(k) == w.PresetValue(k); });
  };
  if (one_of(key, kModelKeys) && after.config.model_key == "custom" && all_equal(kModelKeys))
    return {{"model", w.base_model}};
  if (one_of(key, kHardwareKeys) && after.config.hardware_key == "custom" && all_equal(kHardwareKeys))
    return {{"hardware", w.base_hardware}};
  return reset;
}

AnalysisConfig MakeAnalysisConfig(const Settings& s, int demo) {
  AnalysisConfig cfg = (demo == 1 ? s.kernels_workload : s.layer_workload).config;
  cfg.demo = demo;
  cfg.lang = s.lang;
  return cfg;
}

void ApplyConfig(Workload& w, const Pairs& pairs, Lang lang) {
  const Pairs edits = overlay_settings(w.refused, pairs);
  try {
    AnalysisConfig c = edit_config(w.config, edits);
    c.lang = lang;
    w.config = std::move(c);
    w.refused.clear();
    if (w.config.model_key != "custom") w.base_model = w.config.model_key;
    if (w.config.hardware_key != "custom") w.base_hardware = w.config.hardware_key;
  } catch (const ConfigError&) {
    w.refused = edits;
    throw;
  }
}

bool IsPageKey(std::string_view key) { return one_of(key, kPageKeys); }

void ApplySettings(Settings& s, const Pairs& pairs) {
  Settings next = s;
  for (const auto& [key, value] : pairs)
    if (key == "view" || key == "demo") next.view = view_of(key, value);
  Pairs config;
  for (const auto& [key, value] : pairs) {
    if (key == "view" || key == "demo") continue;
    if (key == "lang") {
      if (value != "zh" && value != "en") throw ConfigError(key, Text::ErrUnknownChoice, {key, value, "zh, en"});
      next.lang = value == "zh" ? Lang::Zh : Lang::En;
    } else if (key == "embed") {
      if (value != "1" && value != "0" && value != "true" && value != "false")
        throw ConfigError(key, Text::ErrUnknownChoice, {key, value, "0, 1"});
      next.embed = value == "1" || value == "true";
    } else if (key == "partition") {
      next.partition = partition_of(key, value);
    } else if (key == "scale") {
      next.scale = scale_of(key, value);
    } else if (key == "controls") {
      next.controls = controls_of(key, value);
    } else if (key == "hide") {
      next.hide_buttons = false;
      for (const std::string& item : split_commas(value)) {
        if (item != "buttons") throw ConfigError(key, Text::ErrUnknownChoice, {key, item, "buttons"});
        next.hide_buttons = true;
      }
    } else if (key == "theme") {
      if (value != "light" && value != "dark") throw ConfigError(key, Text::ErrUnknownChoice, {key, value, "light, dark"});
      next.theme = value == "dark" ? Theme::Dark : Theme::Light;
    } else if (key == "kernel") {
      next.kernel = page_int(key, value, -1, 1000000);
    } else {
      config.emplace_back(key, value);
    }
  }
  if (!config.empty()) ApplyConfig(ActiveWorkload(next), config, next.lang);
  s = std::move(next);
}

Pairs SettingsPairs(const Settings& s) {
  Pairs out{{"view", std::string(ViewKey(s.view))}, {"lang", std::string(lang_key(s.lang))}};
  if (s.embed) out.emplace_back("embed", "1");
  // The last valid configuration: a value being typed, or refused, never reaches a link.
  const Pairs valid = canonical(ActiveWorkload(s).config);
  out.insert(out.end(), valid.begin(), valid.end());
  if (ViewDemo(s.view) == 2 || ViewDemo(s.view) == 3)
    out.emplace_back("partition", std::string(partition_key(shown_partition_id(s))));
  if (s.scale != 1) out.emplace_back("scale", fmt_exact(s.scale));
  if (!s.controls.empty()) {
    std::string list;
    for (const std::string& k : s.controls) list += (list.empty() ? "" : ",") + k;
    out.emplace_back("controls", list);
  }
  if (s.hide_buttons) out.emplace_back("hide", "buttons");
  if (s.theme == Theme::Dark) out.emplace_back("theme", "dark");
  if ((ViewDemo(s.view) == 1 || s.view == View::Roofline || s.view == View::Timeline) && s.kernel >= 0)
    out.emplace_back("kernel", std::to_string(s.kernel));
  return out;
}

Pairs ParseQuery(std::string_view query) {
  Pairs out;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    out.emplace_back(url_decode(item.substr(0, eq)),
                     eq == std::string_view::npos ? std::string{} : url_decode(item.substr(eq + 1)));
  }
  return out;
}

std::string FormatQuery(const Pairs& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += '&';
    out += url_encode(key) + "=" + url_encode(value);
  }
  return out;
}

Pairs JsonPairs(const nlohmann::json& obj) {
  if (!obj.is_object()) throw std::invalid_argument("expected an object");
  Pairs out;
  for (const auto& [key, value] : obj.items()) {
    if (value.is_string()) out.emplace_back(key, value.get<std::string>());
    else if (value.is_boolean()) out.emplace_back(key, value.get<bool>() ? "1" : "0");
    // Unsigned first: a value of 2^63 or more would wrap as an int64_t.
    else if (value.is_number_unsigned()) out.emplace_back(key, std::to_string(value.get<uint64_t>()));
    else if (value.is_number_integer()) out.emplace_back(key, std::to_string(value.get<int64_t>()));
    else if (value.is_number()) out.emplace_back(key, fmt_exact(value.get<double>()));
    else out.emplace_back(key, value.dump());  // the core names the key and shows the value
  }
  return out;
}

nlohmann::json PairsJson(const Pairs& pairs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : pairs) {
    if (key == "embed") out[key] = value == "1";
    else if (auto i = parse_int(value)) out[key] = *i;
    else if (auto r = parse_real(value); r && key != "model" && key != "hardware") out[key] = *r;
    else out[key] = value;
  }
  return out;
}

}  // namespace fl::web
