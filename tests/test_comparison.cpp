// Measured torch.compile runs beside our model of the compiler: the runs the
// core carries are the data file's, and each ratio is what it says.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/measured/comparison.h"
#include "core/analysis.h"
#include "core/report_json.h"
#include "core/settings.h"
#include "json_helpers.h"

using namespace fl;

TEST_CASE("the core carries every run of the measured sweep, in the file's order") {
  std::ifstream in(std::string(FUSIONLAB_DATA_DIR) + "/measured/h200-inductor/sweep.jsonl");
  REQUIRE(in);
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) ids.push_back(nlohmann::json::parse(line)["id"].get<std::string>());
  const auto runs = h200_inductor_runs();
  REQUIRE(runs.size() == ids.size());
  for (size_t i = 0; i < ids.size(); ++i) CHECK(runs[i].id == ids[i]);
  const MeasuredRun& first = runs.front();
  CHECK(first.model == "llama-3.1-8b");
  CHECK(first.tokens == 512);
  CHECK(first.launches.size() == 19);
  CHECK(first.compiled_cuda_graph_ms < first.compiled_ms);
}

TEST_CASE("each measured run beside our model: the same kernels, and ratios of the times shown") {
  const CompilerComparison c = compare_with_measured();
  REQUIRE(c.runs.size() == h200_inductor_runs().size() - c.not_modelled.size());
  std::vector<double> ratios;
  for (const RunComparison& r : c.runs) {
    INFO(r.run->id);
    CHECK(r.kernels == r.measured_kernels);  // the launch lists themselves: test_inductor.cpp
    CHECK(r.predicted_s == Approx(r.roofline_s + r.kernels * c.launch_s));
    CHECK(r.predicted_graph_s < r.predicted_s);
    CHECK(r.ratio() == Approx(r.predicted_s / (r.run->compiled_ms * 1e-3)));
    ratios.push_back(r.ratio());
  }
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  CHECK(c.median_ratio == Approx(n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2));
  // The roofline leaves out what a real call costs: every prediction is short of the measurement.
  CHECK(c.median_ratio < c.median_graph_ratio);
  CHECK(c.median_graph_ratio < 1);
  const nlohmann::json j = parsed(c);
  CHECK(j["runs"].size() == c.runs.size());
  CHECK(j["runs"][0].contains("graph_ratio"));
}

TEST_CASE("under the H200's calibrated model each run costs its kernels at the fitted peaks plus the fitted fixed cost, and prefill comes closer to the measurement") {
  const CompilerComparison c = compare_with_measured();
  const std::optional<FittedCalibration> fitted = calibration_for(c.hardware_key);
  REQUIRE(fitted);
  std::vector<double> graph_prefill;
  for (const RunComparison& r : c.runs) {
    INFO(r.run->id);
    REQUIRE(r.calibrated_s);
    // At least the roofline at the peaks plus the fitted fixed cost per kernel (efficiencies are at most 1).
    CHECK(*r.calibrated_s >= r.roofline_s + r.kernels * fitted->calibration.fixed_s - 1e-12);
    if (!r.run->decode) graph_prefill.push_back(r.graph_ratio());
  }
  REQUIRE(c.median_calibrated_prefill);
  REQUIRE(c.median_calibrated_decode);
  // Prefill is bound by the GEMMs, whose fitted efficiency explains most of the gap.
  std::sort(graph_prefill.begin(), graph_prefill.end());
  const double roofline_prefill = graph_prefill[graph_prefill.size() / 2];
  CHECK(std::abs(*c.median_calibrated_prefill - 1) < std::abs(roofline_prefill - 1));
}

TEST_CASE("a run of a mode the lab does not model has no configuration") {
  MeasuredRun r = h200_inductor_runs().front();
  r.mode = "max-autotune";
  CHECK_FALSE(config_of(r).has_value());
  r.mode = "gpt-fast";
  REQUIRE(config_of(r).has_value());
  CHECK(config_of(r)->compiler == Compiler::GptFast);
  CHECK(config_of(r)->tokens == 512);
  CHECK(config_of(r)->hardware_key == "h200");
}

namespace {
std::vector<std::string> observation_ids(const std::vector<Setting>& s) {
  const nlohmann::json j = analyzed(config_from_settings(s));
  std::vector<std::string> ids;
  for (const auto& o : j["observations"]) ids.push_back(o["id"].get<std::string>());
  return ids;
}
bool has(const std::vector<std::string>& ids, const char* id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }
}  // namespace

TEST_CASE("where the page's configuration was measured, an observation sets the measurement beside the model") {
  const std::vector<Setting> measured{{"demo", "2"}, {"compiler", "inductor"}, {"attention", "math"}, {"hardware", "h200"}};
  CHECK(has(observation_ids(measured), "compiler_measured_roofline_short"));
  std::vector<Setting> other = measured;
  other.push_back({"tokens", "2047"});  // not measured: no such sentence
  const std::vector<std::string> ids = observation_ids(other);
  CHECK_FALSE(std::any_of(ids.begin(), ids.end(), [](const std::string& id) { return id.rfind("compiler_measured", 0) == 0; }));
  std::vector<Setting> slow_launch = measured;
  slow_launch.push_back({"launch_us", "200"});  // the model's fixed cost, not the GPU: still the measured run
  CHECK(has(observation_ids(slow_launch), "compiler_measured_roofline_over"));
  CHECK_FALSE(has(observation_ids({{"demo", "2"}, {"attention", "math"}, {"hardware", "h200"}}), "compiler_measured_roofline_short"));
}

TEST_CASE("launch by launch: each Triton kernel has its profiler time, the rest of the GPU time is the extern calls'") {
  for (const RunComparison& r : compare_with_measured().runs) {
    INFO(r.run->id);
    REQUIRE(r.kernel_rows.size() == r.run->launches.size());
    double triton = 0, profiled = 0;
    for (const KernelComparison& k : r.kernel_rows) {
      CHECK(k.measured_us.has_value() == (k.launch.rfind("triton_", 0) == 0));
      if (k.measured_us) triton += *k.measured_us;
    }
    for (const ProfiledKernel& p : r.run->profile) profiled += p.calls_per_step * p.us_per_call;
    CHECK(r.triton_measured_us == Approx(triton));
    CHECK(r.triton_measured_us + r.extern_measured_us == Approx(profiled));  // every profiler row counted once
    CHECK(r.triton_measured_us + r.extern_measured_us <= r.measured_graph_s * 1e6 * 1.05);  // GPU time within the call
  }
}

namespace {
// "triton_poi_fused_add_cat_3" -> "poi_3": a Triton kernel's kind and number, its origins left out.
std::string kind_and_number(const std::string& name) {
  if (name.rfind("triton_", 0) != 0) return name;
  return name.substr(7, 3) + name.substr(name.rfind('_'));
}
}  // namespace

TEST_CASE("inductor's numbering: a kernel launched again with the same code keeps its name, the next number follows") {
  int compared = 0;
  for (const RunComparison& r : compare_with_measured().runs) {
    if (r.run->mode != "default") continue;
    std::string measured, ours;
    for (const KernelComparison& k : r.kernel_rows) {
      measured.append(" ").append(kind_and_number(k.launch));
      ours.append(" ").append(kind_and_number(k.name));
    }
    INFO(r.run->id);
    CHECK(ours == measured);
    ++compared;
  }
  CHECK(compared == 16);
}

TEST_CASE("inductor: each Triton kernel's name lists the ATen ops PyTorch's graph held, as the measured name does") {
  // Every one of the 144 Triton launches of the 16 default runs; among them
  // the prefill GQA repeat's copy, whose name lists k's RoPE because lowering
  // the repeat realized k to read it again (v's repeat runs the same code
  // under the same name); the kernels of SDPA's operands, realized as SDPA is
  // lowered, listing SDPA and its mask's conversion (scalar_tensor, where);
  // the softmax over a row of 32768 in five kernels, its statistics as
  // prepare_softmax_online in both parts of each split reduction.
  // Under gpt-fast's setting every one of the 10 too: its GEMVs computed in
  // Triton list mm, t and view; a load of a GEMV's output another Triton
  // kernel computed lists mm, and of a norm's mean, mean and pow (the mean's
  // division by the row's length is done where it is loaded).
  std::map<std::string, std::pair<int, int>> by_mode;  // launches, equal
  for (const RunComparison& r : compare_with_measured().runs) {
    REQUIRE(r.kernel_rows.size() == r.run->launches.size());
    for (const KernelComparison& k : r.kernel_rows) {
      if (k.launch.rfind("triton_", 0) != 0) continue;
      ++by_mode[r.run->mode].first;
      by_mode[r.run->mode].second += k.name == k.launch;
    }
  }
  CHECK(by_mode["default"] == std::pair{144, 144});
  CHECK(by_mode["gpt-fast"] == std::pair{10, 10});
}
