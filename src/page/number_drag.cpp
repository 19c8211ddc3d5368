#include "page/number_drag.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace fl::web {

namespace {

double round_significant(double v, int digits) {
  if (v == 0) return 0;
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(v))) - (digits - 1));
  return std::round(v / unit) * unit;
}

double within(const NumberRange& r, double v) {
  v = std::clamp(v, r.lo, r.hi);
  if (r.integer) v = std::clamp(std::round(v), r.lo, r.hi);
  return v;
}

}  // namespace

double DraggedValue(const NumberRange& r, double start, double dx_px, bool snap) {
  double v = 0;
  if (Additive(r)) {
    v = start + dx_px * kUnitsPerPx;
    v = snap ? std::round(v) : std::round(v * 10) / 10;
  } else {
    v = std::max(start, r.lo) * std::exp2(dx_px / kPxPerDoubling);
    v = snap ? std::exp2(std::round(std::log2(v))) : r.integer ? v : round_significant(v, 3);
  }
  return within(r, v);
}

double SteppedValue(const NumberRange& r, double value, int direction) {
  if (Additive(r)) return within(r, std::round((value + direction * kAddStep) * 10) / 10);
  const double v = direction > 0 ? value * 2 : value / 2;
  // An integer halved from 1 or an odd number still moves by at least one.
  if (r.integer && std::round(v) == value) return within(r, value + direction);
  return within(r, v);
}

std::string NumberText(const NumberRange& r, double value) {
  if (r.integer) return std::to_string(static_cast<long long>(std::llround(value)));
  return fmt_number(value);  // 10 digits: a rounded drag reads as typed
}

}  // namespace fl::web
