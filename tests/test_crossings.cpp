// Crossings: where a sweep's fixed-overhead share and its matmuls' bound change,
// interpolated exactly, and true at the configurations on either side.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/crossings.h"
#include "core/settings.h"
#include "json_helpers.h"

using namespace fl;

namespace {

// A point of the four partitions, each with `share` of its time fixed and no matmuls.
SweepPoint point_with_share(int64_t value, double share) {
  SweepPoint p{value, std::vector<GraphCost>(std::size(kAllPartitions)), std::vector<MatmulTimes>(std::size(kAllPartitions))};
  for (GraphCost& g : p.partitions) g.overhead = share, g.t_total = 1;
  return p;
}

const std::vector<PartitionId> kFour(std::begin(kAllPartitions), std::end(kAllPartitions));

const Crossing* find(const std::vector<Crossing>& all, CrossingKind kind, PartitionId id) {
  for (const Crossing& c : all)
    if (c.kind == kind && c.partition == id) return &c;
  return nullptr;
}

constexpr size_t kDecomposed = 1, kFused = 2, kFlash = 3;

}  // namespace

TEST_CASE("a crossing is where the straight line on log x meets the threshold") {
  // Share 0.6 at 1, 0.4 at 100: 0.5 is halfway, at 10 on a log axis.
  Sweep s{SweepKey::Tokens, false, kH100, AttentionForm::Lecture, kFour, {point_with_share(1, 0.6), point_with_share(100, 0.4)}};
  std::vector<Crossing> all = crossings(s);
  REQUIRE(all.size() == 4);  // one per partition: 0.5 crossed, 0.1 not, no matmuls
  for (const Crossing& c : all) {
    CHECK(c.kind == CrossingKind::FixedHalf);
    CHECK(c.value == Approx(10));
    CHECK_FALSE(c.rising);
  }
  // Rising the other way round, and 0.1 crossed between 0.05 and 0.2.
  s.points = {point_with_share(1, 0.05), point_with_share(16, 0.2)};
  all = crossings(s);
  REQUIRE(all.size() == 4);
  CHECK(all[0].kind == CrossingKind::FixedTenth);
  CHECK(all[0].rising);
  CHECK(all[0].value == Approx(std::exp(std::log(16.0) / 3)));  // a third of the way: 0.05 → 0.1 of 0.05 → 0.2
}

TEST_CASE("prefill on an H100: the matmuls pass the ridge point and the fixed overhead fades as T grows") {
  const AnalysisConfig c = config_from_settings({{"demo", "2"}});
  const std::vector<Crossing> all = crossings(sweep(c, {SweepKey::Tokens, 64, 1, 0}));
  // True of single analyses a fifth either side of each crossing.
  const auto below = [&](const Crossing* x) { return static_cast<int64_t>(std::floor(x->value / 1.2)); };
  const auto above = [&](const Crossing* x) { return static_cast<int64_t>(std::ceil(x->value * 1.2)); };
  const auto at = [&](int64_t t) { return sweep(c, {SweepKey::Tokens, 2, t, t + 1}).points.front(); };

  // Unfused, the decomposed layer's 40-odd kernels cost more in fixed overhead than in traffic at T = 1.
  const Crossing* half = find(all, CrossingKind::FixedHalf, PartitionId::Decomposed);
  const Crossing* tenth = find(all, CrossingKind::FixedTenth, PartitionId::Decomposed);
  REQUIRE(half);
  REQUIRE(tenth);
  CHECK_FALSE(half->rising);
  CHECK(half->value < tenth->value);
  CHECK(fixed_share(at(below(half)).partitions[kDecomposed]) > 0.5);
  CHECK(fixed_share(at(above(half)).partitions[kDecomposed]) < 0.5);
  CHECK(fixed_share(at(below(tenth)).partitions[kDecomposed]) > 0.1);
  CHECK(fixed_share(at(above(tenth)).partitions[kDecomposed]) < 0.1);
  // Fused, the fixed overhead never reaches half: the weights' traffic outweighs it even at T = 1.
  CHECK_FALSE(find(all, CrossingKind::FixedHalf, PartitionId::Fused));

  // With FlashAttention, the projections' GEMMs pass the ridge once, near T ≈ peak / bandwidth (295 FLOP/B).
  const Crossing* ridge = find(all, CrossingKind::MatmulRidge, PartitionId::FusedFlash);
  REQUIRE(ridge);
  CHECK(ridge->rising);
  CHECK(ridge->value > 150);
  CHECK(ridge->value < 600);
  CHECK(matmul_balance(at(below(ridge)).matmuls[kFlash]) < 1);
  CHECK(matmul_balance(at(above(ridge)).matmuls[kFlash]) > 1);
  // Without it, attention's T × T score matmuls come to dominate and pull the matmuls back below the ridge.
  std::vector<const Crossing*> fused_ridge;
  for (const Crossing& x : all)
    if (x.kind == CrossingKind::MatmulRidge && x.partition == PartitionId::Fused) fused_ridge.push_back(&x);
  REQUIRE(fused_ridge.size() == 2);
  CHECK(fused_ridge[0]->rising);
  CHECK_FALSE(fused_ridge[1]->rising);
  CHECK(matmul_balance(at(below(fused_ridge[1])).matmuls[kFused]) > 1);
  CHECK(matmul_balance(at(above(fused_ridge[1])).matmuls[kFused]) < 1);
}

TEST_CASE("decode at batch 1 never reaches the ridge point, and a crossing reads as a sentence") {
  const AnalysisConfig c = config_from_settings({{"demo", "3"}});
  const Sweep s = sweep(c, {SweepKey::KvLen, 32, 1, 0});
  const std::vector<Crossing> all = crossings(s);
  CHECK_FALSE(find(all, CrossingKind::MatmulRidge, PartitionId::Fused));
  for (const SweepPoint& p : s.points) CHECK(matmul_balance(p.matmuls[kFused]) < 1);
  const Crossing c1{CrossingKind::FixedTenth, PartitionId::Fused, 1234.5, false};
  CHECK(crossing_sentence(c1, s, Lang::En) ==
        "S ≈ 1230: the fixed overhead falls below a tenth of the total time (decomposed + fused)");
  Sweep over_batch = s;
  over_batch.key = SweepKey::Batch;
  const Crossing c2{CrossingKind::MatmulRidge, PartitionId::Fused, 7.25, true};
  CHECK(crossing_sentence(c2, over_batch, Lang::En).find("batch ≈ 7.2: the matmul kernels, taken together, pass the ridge point (295 FLOP/B)") == 0);
  const nlohmann::json j = parsed(s);
  CHECK(j["sweep"]["crossings"].size() == all.size());
}

TEST_CASE("a sweep of a layer written as PyTorch code names its partitions for what they hold") {
  const Sweep s = sweep(config_from_settings({{"demo", "3"}, {"attention", "math"}}), {SweepKey::KvLen, 8, 1, 0});
  CHECK(s.attention == AttentionForm::Math);
  const Crossing c{CrossingKind::FixedHalf, PartitionId::FusedFlash, 100, false};
  const std::string sentence = crossing_sentence(c, s, Lang::En);
  CHECK(sentence.find("this form does not match") != std::string::npos);
  CHECK(sentence.find("as FlashAttention") == std::string::npos);
  const Sweep lecture = sweep(config_from_settings({{"demo", "3"}}), {SweepKey::KvLen, 8, 1, 0});
  CHECK(crossing_sentence(c, lecture, Lang::En).find("as FlashAttention") != std::string::npos);
}
