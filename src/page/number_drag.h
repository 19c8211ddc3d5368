// How a number follows the hand, apart from any widget: the value a sideways
// drag of dx pixels asks for, and the value an arrow key steps to.
//
// Sizes, counts and rates scale: a drag multiplies (one doubling per
// kPxPerDoubling pixels, so T sweeps 1 to 131072 within a hand's reach) and a
// step doubles or halves. The fixed costs in µs, which may be 0, add.
#pragma once

#include <string>

#include "core/config.h"

namespace fl::web {

inline constexpr double kPxPerDoubling = 24;
inline constexpr double kUnitsPerPx = 0.05;  // fixed costs: 0.1 µs per 2 px
inline constexpr double kAddStep = 0.5;      // fixed costs: an arrow key's step, µs

// Whether a drag adds to the number (its range starts at 0) or multiplies it.
inline bool Additive(const NumberRange& r) { return r.lo <= 0; }

// `start` dragged by `dx_px`, within the range; integers rounded, reals to
// three significant digits (additive ones to 0.1). `snap` (a modifier key
// held): the nearest power of two, or whole units for an additive number.
double DraggedValue(const NumberRange& r, double start, double dx_px, bool snap);

// One step up (direction +1) or down (-1) from `value`, within the range.
double SteppedValue(const NumberRange& r, double value, int direction);

// The value as a setting's text: an integer's digits, a real as typed.
std::string NumberText(const NumberRange& r, double value);

}  // namespace fl::web
