// Where the picture changes along a sweep: the values of the swept size at
// which the fixed cost per kernel stops (or starts) dominating a partition's
// time, and at which its matmul kernels turn from memory-bound to
// compute-bound. Read off the sweep's own points, interpolated on log x.
#pragma once

#include <vector>

#include "core/i18n.h"
#include "core/sweep.h"

namespace fl {

enum class CrossingKind {
  FixedHalf,    // the fixed cost per kernel (launches) is 50 % of the time
  FixedTenth,   // ... 10 %
  MatmulRidge,  // the matmul kernels' summed compute time equals their memory time: the ridge point
};
inline constexpr CrossingKind kCrossingKinds[] = {CrossingKind::FixedHalf, CrossingKind::FixedTenth,
                                                  CrossingKind::MatmulRidge};
std::string_view crossing_key(CrossingKind k);  // "fixed_50", "fixed_10", "matmul_ridge"

struct Crossing {
  CrossingKind kind;
  PartitionId partition;
  double value;  // of the swept key, between two sweep points (log-interpolated)
  bool rising;   // the measure (fixed share, matmul compute / memory) grows through the threshold
};

// The fixed cost's share of a partition's time, and its matmul kernels'
// compute time over their memory time (0 without matmuls).
double fixed_share(const GraphCost& c);
double matmul_balance(const MatmulTimes& m);

// Every crossing of every partition, in ascending value per partition and kind.
std::vector<Crossing> crossings(const Sweep& s);

// One sentence: "T ≈ 37: the fixed cost per kernel falls below half of the time", in `lang`.
std::string crossing_sentence(const Crossing& c, const Sweep& s, Lang lang);
// For a partition with no crossing in the sweep's range: that none of the lines is crossed there.
std::string no_crossing_sentence(const Sweep& s, PartitionId p, Lang lang);
// The chart's short label: "50 % fixed", "ridge".
Text crossing_label(CrossingKind k);

}  // namespace fl
