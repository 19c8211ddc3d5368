// The cost option: `cost=calibrated` costs every kernel as the calibrated
// model fitted to the GPU's profiles predicts it, falls back to the roofline
// (and says so) on a GPU without one, and round-trips through the settings.
#include <catch2/catch.hpp>

#include "core/measured/cost_model.h"
#include "core/partitions.h"
#include "core/report.h"
#include "core/settings.h"

using namespace fl;

TEST_CASE("a calibrated kernel costs what the fitted model predicts for it") {
  const AnalysisConfig c = config_from_settings({{"demo", "2"}, {"cost", "calibrated"}, {"hardware", "a100"}});
  const std::optional<FittedCalibration> fitted = calibration_of_gpu(c);
  REQUIRE(fitted);
  const Hardware peaks = c.hw.roofline();
  REQUIRE(c.hw != peaks);
  for (PartitionId id : kAllPartitions) {
    const Partition p = make_partition(id, c.traced_graph(false), c.binding(), c.hw);
    double sum = 0;
    for (const Kernel& k : p.kernels) {
      const double predicted = fitted->calibration.seconds(kernel_sides(k, peaks));
      CHECK(kernel_time(k, c.hw) == Approx(predicted).epsilon(1e-12));
      CHECK(kernel_time(k, c.hw) > kernel_time(k, peaks));  // below the peaks, and a fixed time more
      sum += predicted;
    }
    CHECK(p.cost.t == Approx(sum).epsilon(1e-12));
    CHECK(p.cost.overhead == Approx(p.cost.kernels * c.hw.launch));  // the launch cost stays apart
  }
}

TEST_CASE("the roofline, the default, costs at the peaks and stays out of links") {
  const AnalysisConfig c = config_from_settings({{"demo", "3"}});
  CHECK(c.cost == CostModel::Roofline);
  CHECK(c.hw.achieved == Achieved{});
  CHECK(cost_model_of(c.hw) == CostModel::Roofline);
  for (const Setting& s : settings_of(c)) CHECK(s.first != "cost");
  CHECK(cost_model_note(c, Lang::En).find("roofline model") != std::string::npos);
}

TEST_CASE("the cost model round-trips and follows the GPU chosen after it") {
  const AnalysisConfig c = config_from_settings({{"demo", "3"}, {"cost", "calibrated"}, {"hardware", "h200"}});
  const AnalysisConfig d = config_from_settings(settings_of(c));
  CHECK(d.cost == CostModel::Calibrated);
  CHECK(d.hw == c.hw);
  const AnalysisConfig h100 = config_from_settings({{"cost", "calibrated"}, {"hardware", "h100"}});
  CHECK(h100.hw.achieved != c.hw.achieved);  // each GPU its own fit
  CHECK(h100.hw.achieved.kernel_s == Approx(calibration_of_gpu(h100)->calibration.fixed_s));
}

TEST_CASE("a GPU without a profile keeps the roofline and says so") {
  const AnalysisConfig c = config_from_settings({{"demo", "3"}, {"cost", "calibrated"}, {"hardware", "b200"}, {"lang", "en"}});
  CHECK(c.hw.achieved == Achieved{});
  CHECK(cost_model_of(c.hw) == CostModel::Roofline);
  CHECK(cost_model_note(c, Lang::En).find("no shipped profile was measured on B200") != std::string::npos);
  const PhaseReport r = decode_report(c);
  CHECK(r.title.find("calibrated") == std::string::npos);
}

TEST_CASE("the calibration belongs to the GPU's peaks: a hand-edited launch cost keeps it, another bandwidth does not") {
  const AnalysisConfig launch = config_from_settings({{"cost", "calibrated"}, {"hardware", "h100"}, {"launch_us", "2"}});
  CHECK(launch.hardware_key == "custom");
  CHECK(cost_model_of(launch.hw) == CostModel::Calibrated);
  const AnalysisConfig faster = config_from_settings({{"cost", "calibrated"}, {"hardware", "h100"}, {"bandwidth_tbs", "5"}});
  CHECK(cost_model_of(faster.hw) == CostModel::Roofline);
  CHECK(cost_model_note(faster, Lang::En).find("custom hardware") != std::string::npos);
}

TEST_CASE("calibrated reports say which model they show") {
  const AnalysisConfig c = config_from_settings({{"demo", "2"}, {"cost", "calibrated"}, {"lang", "en"}});
  const PhaseReport r = prefill_report(c);
  CHECK(r.title.find("H100 SXM calibrated model") != std::string::npos);
  for (const Observation& o : r.observations) CHECK(o.text.find("roofline") == std::string::npos);
  CHECK(cost_model_note(c, Lang::En).find("Times come from the calibrated model") != std::string::npos);
  CHECK(cost_model_note(c, Lang::Zh).find("校准模型") != std::string::npos);
  // Below the peaks, each partition takes longer than its roofline.
  const PhaseReport roof = prefill_report(config_from_settings({{"demo", "2"}, {"lang", "en"}}));
  for (size_t i = 0; i < r.partitions.size(); ++i) CHECK(r.partitions[i].cost.t > roof.partitions[i].cost.t);
}
