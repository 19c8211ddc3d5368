#include "core/measured/calibration.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fl {

namespace {

// The unknowns: the inverse efficiencies (time per roofline second on each
// side, at least 1) and the fixed costs per kernel and per GEMM (at least 0).
enum Unknown { kMatmul, kVector, kMemory, kMatmulMemory, kFixed, kMatmulFixed, kUnknowns };
bool is_fixed(int u) { return u == kFixed || u == kMatmulFixed; }
using Vec = std::array<double, kUnknowns>;

// A GEMM's traffic (its weights, streamed) and other kernels' (rows read and
// written once) reach different fractions of the HBM peak.
Unknown memory_unknown(const KernelSides& k) { return k.gemm() ? kMatmulMemory : kMemory; }

bool compute_bound(const KernelSides& k, const Vec& x) {
  return k.matmul_s * x[kMatmul] + k.vector_s * x[kVector] >= k.memory_s * x[memory_unknown(k)];
}

// The op's time as a linear function of the unknowns, each kernel on the side
// that bounds it at `x`.
Vec coefficients(const TimedOp& op, const Vec& x) {
  Vec a{};
  for (const KernelSides& k : op.kernels) {
    if (compute_bound(k, x)) {
      a[kMatmul] += k.matmul_s;
      a[kVector] += k.vector_s;
    } else {
      a[memory_unknown(k)] += k.memory_s;
    }
    a[k.gemm() ? kMatmulFixed : kFixed] += 1;
  }
  return a;
}

// Solves the weighted least squares for the unknowns not held, by the normal
// equations (six unknowns at most: Gaussian elimination with partial pivoting).
// False when they are singular (an unknown no measurement depends on).
bool solve(const std::vector<Vec>& rows, const std::vector<double>& targets, const std::array<bool, kUnknowns>& held, Vec& x) {
  std::vector<int> free;
  for (int u = 0; u < kUnknowns; ++u)
    if (!held[u]) free.push_back(u);
  const size_t n = free.size();
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0));
  for (size_t r = 0; r < rows.size(); ++r) {
    double rest = targets[r];  // what the held unknowns leave to explain
    for (int u = 0; u < kUnknowns; ++u)
      if (held[u]) rest -= rows[r][u] * x[u];
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) m[i][j] += rows[r][free[i]] * rows[r][free[j]];
      m[i][n] += rows[r][free[i]] * rest;
    }
  }
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r][c]) > std::abs(m[pivot][c])) pivot = r;
    if (std::abs(m[pivot][c]) < 1e-300) return false;
    std::swap(m[c], m[pivot]);
    for (size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = m[r][c] / m[c][c];
      for (size_t k = c; k <= n; ++k) m[r][k] -= f * m[c][k];
    }
  }
  for (size_t i = 0; i < n; ++i) x[free[i]] = m[i][n] / m[i][i];
  return true;
}

}  // namespace

KernelSides kernel_sides(const Kernel& k, const Hardware& peak) {
  return {k.matmul_flops / peak.matmul_flops, k.other_flops / peak.other_flops, static_cast<double>(k.bytes()) / peak.bandwidth};
}

double Calibration::seconds(const KernelSides& k) const {
  const double memory = k.memory_s / (k.gemm() ? matmul_bandwidth_efficiency : bandwidth_efficiency);
  return std::max(k.matmul_s / matmul_efficiency + k.vector_s / vector_efficiency, memory) + (k.gemm() ? matmul_fixed_s : fixed_s);
}

double Calibration::seconds(const TimedOp& op) const {
  double t = 0;
  for (const KernelSides& k : op.kernels) t += seconds(k);
  return t;
}

Calibration fit_calibration(const std::vector<TimedOp>& ops) {
  Vec x{1, 1, 1, 1, 0, 0};  // the roofline
  std::array<bool, kUnknowns> held{};
  for (int round = 0; round < 50; ++round) {
    // Each measured time divided by itself: the fit weighs relative errors.
    std::vector<Vec> rows;
    std::vector<double> targets;
    std::array<bool, kUnknowns> used{};
    for (const TimedOp& op : ops) {
      if (op.measured_s <= 0) continue;
      Vec a = coefficients(op, x);
      for (int u = 0; u < kUnknowns; ++u) {
        used[u] = used[u] || a[u] > 0;
        a[u] /= op.measured_s;
      }
      rows.push_back(a);
      targets.push_back(1);
    }
    // An unknown no kernel depends on keeps its roofline value; one that
    // leaves its bound (faster than the peak, a negative fixed cost) is held
    // at the bound and the rest solved again.
    for (int u = 0; u < kUnknowns; ++u) held[u] = !used[u];
    Vec next = x;
    for (int u = 0; u < kUnknowns; ++u)
      if (held[u]) next[u] = is_fixed(u) ? 0 : 1;
    for (int pass = 0; pass < kUnknowns; ++pass) {
      if (!solve(rows, targets, held, next)) break;
      bool clamped = false;
      for (int u = 0; u < kUnknowns; ++u) {
        const double bound = is_fixed(u) ? 0 : 1;
        if (!held[u] && next[u] < bound) {
          next[u] = bound;
          held[u] = clamped = true;
        }
      }
      if (!clamped) break;
    }
    bool same_sides = true;
    for (const TimedOp& op : ops)
      for (const KernelSides& k : op.kernels) same_sides = same_sides && compute_bound(k, x) == compute_bound(k, next);
    x = next;
    if (same_sides) break;
  }
  Calibration c;
  c.matmul_at_peak = held[kMatmul];
  c.vector_at_peak = held[kVector];
  c.bandwidth_at_peak = held[kMemory];
  c.matmul_bandwidth_at_peak = held[kMatmulMemory];
  c.matmul_efficiency = 1 / x[kMatmul];
  c.vector_efficiency = 1 / x[kVector];
  c.bandwidth_efficiency = 1 / x[kMemory];
  c.matmul_bandwidth_efficiency = 1 / x[kMatmulMemory];
  c.fixed_s = x[kFixed];
  c.matmul_fixed_s = x[kMatmulFixed];
  for (const TimedOp& op : ops) {
    if (op.measured_s <= 0) continue;
    ++c.samples;
    const Vec a = coefficients(op, x);
    c.matmul_fitted = c.matmul_fitted || a[kMatmul] > 0;
    c.vector_fitted = c.vector_fitted || a[kVector] > 0;
    c.bandwidth_fitted = c.bandwidth_fitted || a[kMemory] > 0;
    c.matmul_bandwidth_fitted = c.matmul_bandwidth_fitted || a[kMatmulMemory] > 0;
    c.matmul_fixed_fitted = c.matmul_fixed_fitted || a[kMatmulFixed] > 0;
  }
  c.matmul_at_peak = c.matmul_at_peak && c.matmul_fitted;
  c.vector_at_peak = c.vector_at_peak && c.vector_fitted;
  c.bandwidth_at_peak = c.bandwidth_at_peak && c.bandwidth_fitted;
  c.matmul_bandwidth_at_peak = c.matmul_bandwidth_at_peak && c.matmul_bandwidth_fitted;
  return c;
}

}  // namespace fl
