#include "web/settings.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace fl::web {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

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

// The shortest decimal that reads back as the same double.
std::string format_real(double v) {
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

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

// The hardware keys, in the units people quote them in.
struct HardwareKey {
  const char* key;
  double Hardware::*field;
  double unit;
};
constexpr HardwareKey kHardwareKeys[] = {
    {"matmul_tflops", &Hardware::matmul_flops, 1e12},
    {"other_tflops", &Hardware::other_flops, 1e12},
    {"bandwidth_tbs", &Hardware::bandwidth, 1e12},
    {"launch_us", &Hardware::launch, 1e-6},
};

struct ModelKey {
  const char* key;
  int64_t LayerCfg::*field;
};
constexpr ModelKey kModelKeys[] = {
    {"d", &LayerCfg::d},   {"heads", &LayerCfg::H}, {"kv_heads", &LayerCfg::G},
    {"head_dim", &LayerCfg::dh}, {"ffn", &LayerCfg::f},
};

Preset matching_preset(const LayerCfg& m) {
  for (Preset p : kPresets)
    if (PresetModel(p) == m) return p;
  return Preset::Custom;
}

// Applies one key to the settings; false when the key or value is invalid.
bool apply_pair(Settings& s, const std::string& key, const std::string& value) {
  Workload* w = ActiveWorkload(s);
  if (key == "view") {
    for (View v : kViews)
      if (value == ViewKey(v)) return s.view = v, true;
    return false;
  }
  if (key == "lang") {
    if (value == "zh" || value == "en") return s.lang = value == "zh" ? Lang::Zh : Lang::En, true;
    return false;
  }
  if (key == "embed") {
    if (value == "1" || value == "true") return s.embed = true, true;
    if (value == "0" || value == "false") return s.embed = false, true;
    return false;
  }
  if (key == "model") {
    if (!w) return false;
    for (Preset p : kPresets) {
      if (value != PresetKey(p)) continue;
      w->preset = p;
      if (auto m = PresetModel(p)) w->model = *m;
      return true;
    }
    return false;
  }
  for (const ModelKey& mk : kModelKeys) {
    if (key != mk.key) continue;
    auto v = parse_int(value);
    if (!w || !v) return false;
    w->model.*mk.field = *v;
    w->preset = matching_preset(w->model);
    return true;
  }
  if (key == "tokens" || key == "kv_len") {
    auto v = parse_int(value);
    if (!w || !v) return false;
    (key == "tokens" ? w->tokens : w->kv_len) = *v;
    return true;
  }
  for (const HardwareKey& hk : kHardwareKeys) {
    if (key != hk.key) continue;
    auto v = parse_real(value);
    if (!v) return false;
    s.hw.*hk.field = *v * hk.unit;
    return true;
  }
  if (key == "partition" || key == "kernel") {
    auto v = parse_int(value);
    if (!v || *v < (key == "kernel" ? -1 : 0) || *v > 1000000) return false;
    (key == "partition" ? s.partition : s.kernel) = static_cast<int>(*v);
    return true;
  }
  return false;
}

bool is_numeric_key(const std::string& key) {
  if (key == "tokens" || key == "kv_len" || key == "partition" || key == "kernel") return true;
  for (const ModelKey& mk : kModelKeys)
    if (key == mk.key) return true;
  for (const HardwareKey& hk : kHardwareKeys)
    if (key == hk.key) return true;
  return false;
}

}  // namespace

std::string_view ViewKey(View v) {
  switch (v) {
    case View::Kernels: return "kernels";
    case View::Prefill: return "prefill";
    case View::Decode: return "decode";
    case View::Ablation: return "ablation";
  }
  return "";
}

int ViewDemo(View v) { return static_cast<int>(v) + 1; }

std::string_view PresetKey(Preset p) {
  switch (p) {
    case Preset::Small: return "small";
    case Preset::Llama8B: return "llama8b";
    case Preset::Custom: return "custom";
  }
  return "";
}

std::optional<LayerCfg> PresetModel(Preset p) {
  switch (p) {
    case Preset::Small: return kSmallCfg;
    case Preset::Llama8B: return kLlama8B;
    case Preset::Custom: return std::nullopt;
  }
  return std::nullopt;
}

Workload Settings::DefaultWorkload(View v) {
  const AnalysisConfig seed = AnalysisConfig::for_demo(ViewDemo(v));
  return {v == View::Kernels ? Preset::Small : Preset::Llama8B, seed.model, seed.tokens, seed.kv_len};
}

Workload* ActiveWorkload(Settings& s) {
  switch (s.view) {
    case View::Kernels: return &s.kernels_workload;
    case View::Prefill:
    case View::Decode: return &s.layer_workload;
    case View::Ablation: return nullptr;
  }
  return nullptr;
}

const Workload* ActiveWorkload(const Settings& s) { return ActiveWorkload(const_cast<Settings&>(s)); }

AnalysisConfig MakeAnalysisConfig(const Settings& s, int demo) {
  AnalysisConfig cfg = AnalysisConfig::for_demo(demo);
  const Workload& w = demo == 1 ? s.kernels_workload : s.layer_workload;
  cfg.model = w.model;
  cfg.tokens = w.tokens;
  cfg.kv_len = w.kv_len;
  cfg.hw = s.hw;
  cfg.lang = s.lang;
  return cfg;
}

bool IsHardwareKey(std::string_view key) {
  for (const HardwareKey& hk : kHardwareKeys)
    if (key == hk.key) return true;
  return false;
}

std::vector<std::string> ApplySettings(Settings& s, const Pairs& pairs) {
  std::vector<std::string> rejected;
  for (const auto& [key, value] : pairs)
    if (key == "view" && !apply_pair(s, key, value)) rejected.push_back(key + "=" + value);
  for (const auto& [key, value] : pairs)
    if (key != "view" && !apply_pair(s, key, value)) rejected.push_back(key + "=" + value);
  return rejected;
}

Pairs SettingsPairs(const Settings& s) {
  Pairs out{{"view", std::string(ViewKey(s.view))}, {"lang", s.lang == Lang::Zh ? "zh" : "en"}};
  if (s.embed) out.emplace_back("embed", "1");
  if (const Workload* w = ActiveWorkload(s)) {
    out.emplace_back("model", std::string(PresetKey(w->preset)));
    if (w->preset == Preset::Custom)
      for (const ModelKey& mk : kModelKeys) out.emplace_back(mk.key, std::to_string(w->model.*mk.field));
    out.emplace_back("tokens", std::to_string(w->tokens));
    if (s.view != View::Kernels) out.emplace_back("kv_len", std::to_string(w->kv_len));
  }
  if (s.view != View::Ablation && s.hw != kH100)
    for (const HardwareKey& hk : kHardwareKeys) out.emplace_back(hk.key, format_real(s.hw.*hk.field / hk.unit));
  if (s.view == View::Prefill || s.view == View::Decode) out.emplace_back("partition", std::to_string(s.partition));
  if (s.view == View::Kernels && s.kernel >= 0) out.emplace_back("kernel", std::to_string(s.kernel));
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
    else if (value.is_number_integer()) out.emplace_back(key, std::to_string(value.get<int64_t>()));
    else if (value.is_number()) out.emplace_back(key, format_real(value.get<double>()));
    else out.emplace_back(key, value.dump());
  }
  return out;
}

nlohmann::json PairsJson(const Pairs& pairs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : pairs) {
    if (!is_numeric_key(key)) out[key] = value;
    else if (auto i = parse_int(value)) out[key] = *i;
    else out[key] = parse_real(value).value_or(0.0);
  }
  if (out.contains("embed")) out["embed"] = true;
  return out;
}

AnalysisConfig AnalysisConfigFromJson(const nlohmann::json& config) {
  if (!config.is_object()) throw std::invalid_argument("analyze(config): config must be an object");
  int demo = AnalysisConfig{}.demo;
  if (config.contains("demo")) {
    const nlohmann::json& d = config["demo"];
    if (!d.is_number_integer() || d.get<int>() < 1 || d.get<int>() > 4)
      throw std::invalid_argument("analyze(config): demo must be 1, 2, 3 or 4");
    demo = d.get<int>();
  }
  // As the CLI does: the demo's own defaults, overridden by the given keys.
  AnalysisConfig cfg = AnalysisConfig::for_demo(demo);
  for (const auto& [key, value] : config.items()) {
    if (key == "demo") continue;
    if (key == "lang") {
      if (value != "zh" && value != "en") throw std::invalid_argument("analyze(config): lang must be \"zh\" or \"en\"");
      cfg.lang = value == "zh" ? Lang::Zh : Lang::En;
      continue;
    }
    bool known = false;
    for (const ModelKey& mk : kModelKeys) {
      if (key != mk.key) continue;
      if (!value.is_number_integer()) throw std::invalid_argument("analyze(config): " + key + " must be an integer");
      cfg.model.*mk.field = value.get<int64_t>();
      known = true;
    }
    if (key == "tokens" || key == "kv_len" || key == "layers") {
      if (!value.is_number_integer()) throw std::invalid_argument("analyze(config): " + key + " must be an integer");
      (key == "tokens" ? cfg.tokens : key == "kv_len" ? cfg.kv_len : cfg.layers) = value.get<int64_t>();
      known = true;
    }
    for (const HardwareKey& hk : kHardwareKeys) {
      if (key != hk.key) continue;
      if (!value.is_number()) throw std::invalid_argument("analyze(config): " + key + " must be a number");
      cfg.hw.*hk.field = value.get<double>() * hk.unit;
      known = true;
    }
    if (!known) throw std::invalid_argument("analyze(config): unknown key \"" + key + "\"");
  }
  return cfg;
}

}  // namespace fl::web
