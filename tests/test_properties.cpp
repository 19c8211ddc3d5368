// Properties that hold for every valid configuration, not just the seed's:
// checked on a few hundred random layers (shapes only, fixed seed).
//
//   fused bytes ≤ unfused (decomposed) bytes, and fused kernels ≤ unfused kernels;
//   FlashAttention bytes ≤ the same pipeline's bytes without it;
//   decode moves at least the weights and the KV cache (2·G·S·dh·2 bytes);
//   every kernel's roofline time ≥ its bytes / bandwidth and ≥ its FLOPs of
//   each class / that class's peak; graph_cost's totals are the kernels' sums.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "core/model.h"
#include "core/partitions.h"

using namespace fl;

namespace {

constexpr int kConfigs = 500;

struct Config {
  LayerCfg model;
  int64_t T, S;
  Hardware hw;
};

std::string describe(const Config& c) {
  std::ostringstream os;
  os << "d=" << c.model.d << " H=" << c.model.H << " G=" << c.model.G << " dh=" << c.model.dh << " f=" << c.model.f
     << " T=" << c.T << " S=" << c.S << " hw={" << c.hw.matmul_flops << ", " << c.hw.other_flops << ", "
     << c.hw.bandwidth << ", " << c.hw.launch << "}";
  return os.str();
}

// A random valid configuration: d ≤ 8192, H a multiple of G, dh even,
// H·dh within the limit, f ≤ 32768, T ≤ 8192, S ≤ 65536, and a hardware
// within validate()'s ranges.
Config random_config(std::mt19937& rng) {
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  Config c{};
  for (;;) {
    const int64_t G = uniform(1, 64), rep = uniform(1, 8), dh = 2 * uniform(1, 128);
    c.model = {uniform(0, 1) ? 64 * uniform(1, 128) : uniform(1, 8192), G * rep, G, dh, uniform(1, 32768)};
    if (c.model.H * c.model.dh <= Limits::kMaxHidden) break;
  }
  c.T = uniform(0, 3) ? uniform(1, 8192) : uniform(1, 16);
  c.S = uniform(0, 3) ? uniform(1, 65536) : uniform(1, 16);
  c.hw = kH100;
  if (uniform(0, 1)) {
    c.hw.matmul_flops = real(0.1, 2000) * 1e12;
    c.hw.other_flops = real(0.1, 200) * 1e12;
    c.hw.bandwidth = real(0.01, 10) * 1e12;
    c.hw.launch = real(0, 20) * 1e-6;
  }
  return c;
}

// Empty when every kernel respects the roofline and the totals add up;
// otherwise what broke first.
std::string check_costs(const Partition& p, const Hardware& hw) {
  std::ostringstream why;
  int64_t bytes = 0;
  double flops = 0, t = 0;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const Kernel& k = p.kernels[i];
    const double time = kernel_time(k, hw);
    if (k.reads < 0 || k.writes < 0 || k.matmul_flops < 0 || k.other_flops < 0)
      return (why << "kernel " << i << " has a negative figure", why.str());
    if (time < static_cast<double>(k.bytes()) / hw.bandwidth)
      return (why << "kernel " << i << ": t " << time << " < bytes / bandwidth " << k.bytes() / hw.bandwidth, why.str());
    if (time < k.matmul_flops / hw.matmul_flops)
      return (why << "kernel " << i << ": t " << time << " < matmul FLOPs / peak", why.str());
    if (time < k.other_flops / hw.other_flops)
      return (why << "kernel " << i << ": t " << time << " < other FLOPs / peak", why.str());
    bytes += k.bytes();
    flops += k.flops();
    t += time;
  }
  const GraphCost& c = p.cost;
  if (c.kernels != static_cast<int>(p.kernels.size())) return (why << "kernels " << c.kernels, why.str());
  if (c.bytes != bytes) return (why << "bytes " << c.bytes << ", kernels add up to " << bytes, why.str());
  if (c.flops != Approx(flops).epsilon(1e-12)) return (why << "flops " << c.flops << " vs " << flops, why.str());
  if (c.t != Approx(t).epsilon(1e-12)) return (why << "t " << c.t << " vs " << t, why.str());
  if (c.overhead != Approx(c.kernels * hw.launch).epsilon(1e-12)) return (why << "overhead " << c.overhead, why.str());
  if (c.t_total != Approx(c.t + c.overhead).epsilon(1e-12)) return (why << "t_total " << c.t_total, why.str());
  return {};
}

void check_partitions(const std::vector<Partition>& ps, const Hardware& hw, const char* phase) {
  REQUIRE(ps.size() == 4);
  const Partition &dec = ps[1], &fused = ps[2], &flash = ps[3];
  INFO(phase);
  CHECK(fused.cost.bytes <= dec.cost.bytes);
  CHECK(fused.cost.kernels <= dec.cost.kernels);
  CHECK(flash.cost.bytes <= fused.cost.bytes);
  for (const Partition& p : ps) {
    INFO(partition_key(p.id));
    CHECK(check_costs(p, hw) == "");
  }
}

}  // namespace

TEST_CASE("properties hold on a few hundred random configurations") {
  std::mt19937 rng(20240606);
  for (int i = 0; i < kConfigs; ++i) {
    const Config c = random_config(rng);
    INFO("config " << i << ": " << describe(c));
    REQUIRE_NOTHROW(validate(c.model));

    const Graph prefill = prefill_layer(c.model, c.T, 0, ParamMode::shapes());
    check_partitions(four_partitions(prefill, {}, c.hw), c.hw, "prefill");

    const Graph decode = decode_layer(c.model, ParamMode::shapes());
    const std::vector<Partition> ps = four_partitions(decode, {{"S", c.S}}, c.hw);
    check_partitions(ps, c.hw, "decode");
    // Decode reads every weight and the whole KV cache at least once.
    const int64_t floor = parameter_bytes(decode) + 2 * c.model.G * c.S * c.model.dh * 2;
    for (const Partition& p : ps) {
      INFO("decode " << partition_key(p.id) << ": " << p.cost.bytes << " bytes, weights + KV cache " << floor);
      CHECK(p.cost.bytes >= floor);
    }
  }
  WARN("properties checked on " << kConfigs << " random configurations (prefill and decode, four partitions each)");
}
