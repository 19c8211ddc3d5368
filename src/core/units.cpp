#include "core/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fl {

namespace {
std::string sig3(double v, const char* unit) {
  char buf[48];
  int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, unit);
  return buf;
}
}  // namespace

std::string fmt_bytes(double b) {
  if (b >= 1e15) return sig3(b / 1e15, "PB");
  if (b >= 1e12) return sig3(b / 1e12, "TB");
  if (b >= 1e9) return sig3(b / 1e9, "GB");
  if (b >= 1e6) return sig3(b / 1e6, "MB");
  if (b >= 1e3) return sig3(b / 1e3, "KB");
  return sig3(b, "B");
}

std::string fmt_time(double s) {
  if (s >= 1) return sig3(s, "s");
  if (s >= 1e-3) return sig3(s * 1e3, "ms");
  if (s >= 1e-6) return sig3(s * 1e6, "µs");
  return sig3(s * 1e9, "ns");
}

std::string fmt_fixed(double x, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string fmt_ratio(double x) { return fmt_fixed(x, 2) + "×"; }

std::string fmt_percent(double f) { return fmt_fixed(std::round(f * 100), 0) + "%"; }

std::string fmt_number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", x);  // 10 digits: reads back as the value a person typed
  return buf;
}

std::string fmt_exact(double x) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string fmt_count(double x) {
  std::string digits = fmt_fixed(std::round(std::fabs(x)), 0);
  if (digits.size() > 4)  // four digits read at a glance; from five on, group them
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), 1, ',');
  if (x < 0) digits.insert(0, 1, '-');
  return digits;
}

std::string fmt_decade(int e) {
  static const char* kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  if (e >= 0 && e < 21) return std::string(e % 3 == 0 ? "1" : e % 3 == 1 ? "10" : "100") + kPrefix[e / 3];
  if (e < 0 && e >= -3) return "0." + std::string(static_cast<size_t>(-e - 1), '0') + "1";
  return "1e" + std::to_string(e);
}

std::string fmt_gflops(double flops) {
  const double g = flops / 1e9;
  if (!(g > 0) || g >= 100) return fmt_count(g);
  // A token's prefill is a fraction of a GFLOP: three significant digits, never "0".
  const int decimals = std::min(6, 2 - static_cast<int>(std::floor(std::log10(g))));
  return fmt_fixed(g, decimals);
}

}  // namespace fl
