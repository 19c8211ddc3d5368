// The reality check: each shipped profile's findings are computed from its
// rows, and the published end-to-end speeds sit beside our whole model's.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/measured/reality.h"
#include "core/model.h"
#include "core/presets.h"

using namespace fl;

namespace {

const Observation* finding(const RealityProfile& p, std::string_view id) {
  auto it = std::find_if(p.findings.begin(), p.findings.end(), [&](const Observation& o) { return o.id == id; });
  return it == p.findings.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("every shipped profile shows the peaks not reached, the fixed cost, the bandwidth and the steps") {
  const RealityReport r = reality_report(Lang::En);
  REQUIRE(r.profiles.size() == shipped_profiles().size());
  for (const RealityProfile& p : r.profiles) {
    INFO(p.shipped->file);
    CHECK(finding(p, "gemm_below_peak"));
    CHECK(finding(p, "small_ops_fixed_cost"));  // every profile: microseconds where the roofline says nanoseconds
    CHECK(finding(p, "gemm_bandwidth"));
    CHECK(finding(p, "gemm_steps"));
    // The peak sentence names the slowest GEMM's ratio at the largest token count, from the rows.
    int64_t t_max = 0;
    for (const OpValidation& row : p.validation.rows) t_max = std::max(t_max, row.num_tokens);
    double worst = 0;
    for (const OpValidation& row : p.validation.rows)
      if (row.num_tokens == t_max && row.op == ProfiledOp::MlpUpProj) worst = std::max(worst, row.measured_us / row.roofline_us);
    CHECK(worst > 1);
  }
}

TEST_CASE("a profile whose small ops run at the roofline shows no fixed cost") {
  // The H100 profile with every small op's time set to its roofline time.
  ShippedProfile s = shipped_profiles().front();
  ProfileValidation v = validate_profile(s.profile);
  for (ProfileRow& row : s.profile.rows)
    for (const OpValidation& o : v.rows)
      if (o.num_tokens == row.num_tokens && o.op != ProfiledOp::AttnPreProj && o.op != ProfiledOp::AttnPostProj &&
          o.op != ProfiledOp::MlpUpProj && o.op != ProfiledOp::MlpDownProj)
        row.measured_us[static_cast<size_t>(o.op)] = o.roofline_us;
  const RealityProfile p = check_profile(s, Lang::En);
  CHECK(finding(p, "small_ops_near_roofline"));
  CHECK_FALSE(finding(p, "small_ops_fixed_cost"));
  CHECK(finding(p, "gemm_steps"));  // the GEMMs kept their measured times
}

TEST_CASE("the published speeds sit beside our whole model's, bounded by reading the weights once per token") {
  const RealityReport r = reality_report(Lang::En);
  REQUIRE(r.end_to_end.size() == published_speeds().size());
  for (const EndToEndCheck& e : r.end_to_end) {
    const PublishedSpeed& p = *e.published;
    INFO(p.id);
    TraceOptions o;
    o.layers = p.layers;
    o.vocab = p.vocab;
    const double weights = static_cast<double>(model_parameter_bytes(p.layer, p.layers, p.vocab, false, o));
    const double bandwidth = find_hardware(p.hardware)->hw.bandwidth;
    // One token reads every weight once: no faster than bandwidth / weights,
    // and at S = 200 the weights are nearly all the traffic.
    CHECK(e.roofline_tokens_per_s <= bandwidth / weights);
    CHECK(e.roofline_tokens_per_s > 0.8 * bandwidth / weights);
    // The calibrated model reaches less of the peaks and adds a fixed time per kernel.
    CHECK(e.calibrated_tokens_per_s < e.roofline_tokens_per_s);
    // The roofline, an upper bound, is faster than the measurement.
    CHECK(e.roofline_tokens_per_s > p.tokens_per_s);
    CHECK(e.finding.text.find(p.source) != std::string::npos);
    // Where the calibrated model's time goes: the traffic at its bandwidth, and whether the measurement leaves room.
    const bool no_room = e.finding.text.find("leaves no room") != std::string::npos;
    const bool rest = e.finding.text.find("is left for fixed costs") != std::string::npos;
    CHECK(no_room != rest);
  }
}
