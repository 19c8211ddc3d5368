#include "core/config.h"

#include <cmath>

#include "core/units.h"

namespace fl {

ConfigError::ConfigError(std::string f, Text t, std::vector<std::string> a)
    : std::runtime_error(format(tr(t, Lang::En), a)), field(std::move(f)), text(t), args(std::move(a)) {}

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
  if (c.H % c.G != 0) throw ConfigError("kv_heads", Text::ErrGqa, {std::to_string(c.H), std::to_string(c.G)});
  if (c.dh % 2 != 0) throw ConfigError("head_dim", Text::ErrEvenHeadDim, {std::to_string(c.dh)});
  if (c.H * c.dh > Limits::kMaxHidden)
    throw ConfigError("heads", Text::ErrRange, {"heads*head_dim", std::to_string(c.H * c.dh),
                                                std::to_string(Limits::kMaxHidden)});
}

void validate_tokens(const char* field, int64_t value, int64_t max) { check_range(field, value, max); }

void validate(const Hardware& hw) {
  auto check = [](const char* field, double v, double lo, double hi) {
    if (!std::isfinite(v) || v < lo || v > hi)
      throw ConfigError(field, Text::ErrRangeReal, {field, fmt_number(v), fmt_number(lo), fmt_number(hi)});
  };
  check("matmul_tflops", hw.matmul_flops / 1e12, 0.1, 1e5);
  check("other_tflops", hw.other_flops / 1e12, 0.1, 1e5);
  check("bandwidth_tbs", hw.bandwidth / 1e12, 0.01, 1e3);
  check("launch_us", hw.launch * 1e6, 0, 1e4);
  check("memory_gb", hw.memory / 1e9, 0.1, 1e5);
  check("graph_launch_us", hw.graph_launch * 1e6, 0, 1e4);
}

}  // namespace fl
