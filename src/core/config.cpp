#include "core/config.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace fl {

namespace {

// A key or value echoed in a message, cut to a few dozen characters (on a
// UTF-8 boundary): a 50 KB bogus URL key must not fill the page.
std::vector<std::string> cut_echoes(std::vector<std::string> args) {
  constexpr size_t kMaxEcho = 40;
  for (size_t i = 0; i < std::min<size_t>(2, args.size()); ++i) {  // every message puts what it echoes first
    std::string& a = args[i];
    if (a.size() <= kMaxEcho) continue;
    size_t end = kMaxEcho;
    while (end > 0 && (static_cast<unsigned char>(a[end]) & 0xC0) == 0x80) --end;
    a = a.substr(0, end) + "…";
  }
  return args;
}

}  // namespace

ConfigError::ConfigError(std::string f, Text t, std::vector<std::string> a)
    : ConfigError(std::move(f), t, cut_echoes(std::move(a)), 0) {}

ConfigError::ConfigError(std::string f, Text t, std::vector<std::string> cut, int)
    : std::runtime_error(format(tr(t, Lang::En), cut)), field(std::move(f)), text(t), args(std::move(cut)) {}

std::string ConfigError::message(Lang lang) const { return format(tr(text, lang), args); }

namespace {
void check_range(const char* field, int64_t v, int64_t max) {
  if (v < 1 || v > max) throw ConfigError(field, Text::ErrRange, {field, std::to_string(v), std::to_string(max)});
}
}  // namespace

void validate(const LayerCfg& c) {
  check_range("d", c.d, Limits::kMaxHidden);
  check_range("heads", c.H, Limits::kMaxHeads);
  check_range("kv_heads", c.G, Limits::kMaxHeads);
  check_range("head_dim", c.dh, Limits::kMaxHeadDim);
  check_range("ffn", c.f, Limits::kMaxFfn);
  if (c.H % c.G != 0) throw ConfigError("kv_heads", Text::ErrGqa, {"heads", "kv_heads", std::to_string(c.H), std::to_string(c.G)});
  if (c.dh % 2 != 0) throw ConfigError("head_dim", Text::ErrEvenHeadDim, {"head_dim", std::to_string(c.dh)});
  if (c.H * c.dh > Limits::kMaxHidden)
    throw ConfigError("heads", Text::ErrRange, {"heads*head_dim", std::to_string(c.H * c.dh),
                                                std::to_string(Limits::kMaxHidden)});
}

void validate_tokens(const char* field, int64_t value, int64_t max) { check_range(field, value, max); }

void validate(const Hardware& hw) {
  auto check = [](const char* field, double v) {
    const NumberRange& r = *find_number_range(field);
    if (!std::isfinite(v) || v < r.lo || v > r.hi)
      throw ConfigError(field, Text::ErrRangeReal, {field, fmt_number(v), fmt_number(r.lo), fmt_number(r.hi)});
  };
  check("matmul_tflops", hw.matmul_flops / 1e12);
  check("other_tflops", hw.other_flops / 1e12);
  check("bandwidth_tbs", hw.bandwidth / 1e12);
  check("launch_us", hw.launch * 1e6);
  check("memory_gb", hw.memory / 1e9);
  check("graph_launch_us", hw.graph_launch * 1e6);
}

}  // namespace fl
