// Sweeps: log-spaced points, and at each point the same costs as one analysis.
#include <catch2/catch.hpp>

#include "core/settings.h"
#include "core/sweep.h"
#include "json_helpers.h"

using namespace fl;

TEST_CASE("log-spaced points are distinct, ascending, and span the range") {
  for (auto [from, to, n] : {std::tuple<int64_t, int64_t, int>{1, 131072, 64}, {1, 64, 64}, {5, 1000, 7}, {1, 1024, 2}}) {
    INFO(from << ".." << to << ", " << n << " points");
    const std::vector<int64_t> v = log_spaced(from, to, n);
    REQUIRE(v.size() == static_cast<size_t>(n));
    CHECK(v.front() == from);
    CHECK(v.back() == to);
    for (size_t i = 1; i < v.size(); ++i) CHECK(v[i] > v[i - 1]);
  }
  // Evenly spaced in log: the middle of 1..1024 in 3 points is 32.
  CHECK(log_spaced(1, 1024, 3) == std::vector<int64_t>{1, 32, 1024});
  CHECK_THROWS_AS(log_spaced(1, 10, 11), ConfigError);  // ten integers cannot hold eleven points
  CHECK_THROWS_AS(log_spaced(0, 10, 3), ConfigError);
  CHECK_THROWS_AS(log_spaced(1, 10, 1), ConfigError);
}

TEST_CASE("a prefill sweep over T: 64 points from 1, bytes never falling, each point as one analysis") {
  const AnalysisConfig c = config_from_settings({{"demo", "2"}});
  const Sweep s = sweep(c, {SweepKey::Tokens, 64, 1, 0});
  REQUIRE(s.points.size() == 64);
  CHECK(s.points.front().value == 1);
  CHECK(s.points.back().value == Limits::kMaxTokens);
  for (size_t i = 1; i < s.points.size(); ++i)
    for (size_t p = 0; p < 4; ++p) {
      INFO("T = " << s.points[i].value << ", partition " << p);
      CHECK(s.points[i].partitions[p].bytes >= s.points[i - 1].partitions[p].bytes);
      CHECK(s.points[i].partitions[p].t_total >= s.points[i - 1].partitions[p].t_total);
    }
  for (size_t i : {size_t{0}, size_t{40}, size_t{63}}) {
    const SweepPoint& point = s.points[i];
    const nlohmann::json one =
        analyzed(config_from_settings({{"demo", "2"}, {"tokens", std::to_string(point.value)}}))["partitions"];
    for (size_t p = 0; p < 4; ++p) {
      CHECK(one[p]["bytes"] == point.partitions[p].bytes);
      CHECK(one[p]["kernels"] == point.partitions[p].kernels);
      CHECK(one[p]["t_total"].get<double>() == point.partitions[p].t_total);
    }
  }
  const nlohmann::json j = parsed(s);
  CHECK(j["sweep"]["key"] == "tokens");
  CHECK(j["sweep"]["points"][5]["tokens"] == s.points[5].value);
  CHECK(j["sweep"]["points"][5]["partitions"][3]["id"] == "fused_flash");
}

TEST_CASE("a decode sweep over S or the batch, and a size the phase does not use is refused") {
  const AnalysisConfig decode = config_from_settings({{"demo", "3"}});
  const Sweep s = sweep(decode, {SweepKey::KvLen, 8, 1024, 131072});
  REQUIRE(s.points.size() == 8);
  CHECK(s.decode);
  CHECK(s.points.back().partitions[3].bytes > s.points.front().partitions[3].bytes);  // the KV cache grows
  CHECK(sweep(decode, {SweepKey::Batch, 4, 1, 64}).points.back().value == 64);
  CHECK_THROWS_AS(sweep(decode, {SweepKey::Tokens, 8, 1, 0}), ConfigError);
  CHECK_THROWS_AS(sweep(config_from_settings({{"demo", "2"}}), {SweepKey::KvLen, 8, 1, 0}), ConfigError);
  CHECK_THROWS_AS(sweep(config_from_settings({{"demo", "1"}}), {SweepKey::Tokens, 8, 1, 0}), ConfigError);
}

TEST_CASE("under a compiler the sweep adds its kernels as a fifth line, each point as one analysis") {
  for (const char* compiler : {"inductor", "gpt-fast"}) {
    const AnalysisConfig decode = config_from_settings({{"demo", "3"}, {"compiler", compiler}});
    const Sweep s = sweep(decode, {SweepKey::KvLen, 5, 16, 65536});
    INFO(compiler);
    REQUIRE(s.partitions.size() == 5);
    CHECK(s.partitions.back() == *compiler_partition(decode.compiler));
    const nlohmann::json j = parsed(s);
    for (size_t i = 0; i < s.points.size(); ++i) {
      const SweepPoint& point = s.points[i];
      REQUIRE(point.partitions.size() == 5);
      const nlohmann::json one = analyzed(config_from_settings(
          {{"demo", "3"}, {"compiler", compiler}, {"kv_len", std::to_string(point.value)}}))["partitions"];
      REQUIRE(one.size() == 5);
      CHECK(one[4]["id"] == j["sweep"]["points"][i]["partitions"][4]["id"]);
      CHECK(one[4]["kernels"] == point.partitions[4].kernels);
      CHECK(one[4]["bytes"] == point.partitions[4].bytes);
      CHECK(one[4]["t_total"].get<double>() == point.partitions[4].t_total);
    }
    // Decode reads the whole cache: the compiler's bytes grow with S as the lecture's do.
    CHECK(s.points.back().partitions[4].bytes > s.points.front().partitions[4].bytes);
  }
  // The lecture's rules keep the four.
  CHECK(sweep(config_from_settings({{"demo", "2"}}), {SweepKey::Tokens, 3, 1, 64}).partitions.size() == 4);
}
