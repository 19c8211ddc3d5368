#include "core/crossings.h"

#include <cmath>

#include "core/units.h"

namespace fl {

namespace {

constexpr double kHalf = 0.5, kTenth = 0.1;

// The measure and the threshold it crosses, on a scale where crossing is
// linear enough between two log-spaced points: the share itself, and the
// log of compute / memory (whose threshold, 1, is log 0).
double measure(CrossingKind k, const SweepPoint& p, size_t partition) {
  switch (k) {
    case CrossingKind::FixedHalf: return fixed_share(p.partitions[partition]) - kHalf;
    case CrossingKind::FixedTenth: return fixed_share(p.partitions[partition]) - kTenth;
    case CrossingKind::MatmulRidge: return std::log(matmul_balance(p.matmuls[partition]));
  }
  return 0;
}

bool defined(CrossingKind k, const SweepPoint& p, size_t partition) {
  return k != CrossingKind::MatmulRidge || matmul_balance(p.matmuls[partition]) > 0;
}

std::string_view key_symbol(SweepKey k) {
  switch (k) {
    case SweepKey::Tokens: return "T";
    case SweepKey::KvLen: return "S";
    case SweepKey::Batch: return "batch";
  }
  return "";
}

// Three significant digits, never in exponent form: "37", "1230", "2.5", "17,900".
std::string approx(double v) {
  if (v < 10) return fmt_fixed(v, 1);
  const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2);
  return fmt_count(unit < 1 ? std::round(v) : std::round(v / unit) * unit);
}

Text sentence(CrossingKind k, bool rising) {
  switch (k) {
    case CrossingKind::FixedHalf: return rising ? Text::CrossFixedHalfUp : Text::CrossFixedHalfDown;
    case CrossingKind::FixedTenth: return rising ? Text::CrossFixedTenthUp : Text::CrossFixedTenthDown;
    case CrossingKind::MatmulRidge: return rising ? Text::CrossRidgeUp : Text::CrossRidgeDown;
  }
  return Text::CrossRidgeUp;
}

}  // namespace

std::string_view crossing_key(CrossingKind k) {
  switch (k) {
    case CrossingKind::FixedHalf: return "fixed_50";
    case CrossingKind::FixedTenth: return "fixed_10";
    case CrossingKind::MatmulRidge: return "matmul_ridge";
  }
  return "";
}

Text crossing_label(CrossingKind k) {
  switch (k) {
    case CrossingKind::FixedHalf: return Text::CrossLabelHalf;
    case CrossingKind::FixedTenth: return Text::CrossLabelTenth;
    case CrossingKind::MatmulRidge: return Text::CrossLabelRidge;
  }
  return Text::CrossLabelRidge;
}

double fixed_share(const GraphCost& c) { return c.t_total > 0 ? c.overhead / c.t_total : 0; }

double matmul_balance(const MatmulTimes& m) { return m.memory > 0 ? m.compute / m.memory : 0; }

std::vector<Crossing> crossings(const Sweep& s) {
  std::vector<Crossing> out;
  for (size_t part = 0; part < s.partitions.size(); ++part)
    for (CrossingKind kind : kCrossingKinds)
      for (size_t i = 1; i < s.points.size(); ++i) {
        const SweepPoint &a = s.points[i - 1], &b = s.points[i];
        if (!defined(kind, a, part) || !defined(kind, b, part)) continue;
        const double ma = measure(kind, a, part), mb = measure(kind, b, part);
        if ((ma >= 0) == (mb >= 0)) continue;
        // Where the straight line between the two points meets zero, on log x.
        const double la = std::log(static_cast<double>(a.value)), lb = std::log(static_cast<double>(b.value));
        const double at = std::exp(la + (lb - la) * ma / (ma - mb));
        out.push_back({kind, s.partitions[part], at, mb > ma});
      }
  return out;
}

std::string crossing_sentence(const Crossing& c, const Sweep& s, Lang lang) {
  const std::string ridge = fmt_fixed(matmul_ridge(s.hw), 0);
  return tr(sentence(c.kind, c.rising), lang,
            {std::string(key_symbol(s.key)), approx(c.value), std::string(tr(sweep_partition_text(s, c.partition), lang)), ridge});
}

std::string no_crossing_sentence(const Sweep& s, PartitionId p, Lang lang) {
  return tr(Text::SweepNone, lang,
            {std::string(tr(sweep_partition_text(s, p), lang)), fmt_count(static_cast<double>(s.points.front().value)),
             fmt_count(static_cast<double>(s.points.back().value))});
}

}  // namespace fl
