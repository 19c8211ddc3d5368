// Measured per-op GPU times of one Llama layer (the format of
// data/measured/op-profiles: Vidur's profiles and the project's own), and
// our roofline time of the kernels that do each op, row by row.
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"
#include "core/measured/calibration.h"

namespace fl {

// The ops a profile times, in its columns' order (`<op>_us`).
enum class ProfiledOp {
  Emb, InputLayernorm, AttnPreProj, AttnRope, AttnPostProj, PostAttentionLayernorm, MlpUpProj, MlpAct, MlpDownProj, Add
};
inline constexpr ProfiledOp kProfiledOps[] = {
    ProfiledOp::Emb,       ProfiledOp::InputLayernorm,         ProfiledOp::AttnPreProj, ProfiledOp::AttnRope,
    ProfiledOp::AttnPostProj, ProfiledOp::PostAttentionLayernorm, ProfiledOp::MlpUpProj, ProfiledOp::MlpAct,
    ProfiledOp::MlpDownProj, ProfiledOp::Add};
std::string_view profiled_op_name(ProfiledOp op);  // "attn_pre_proj": the column without "_us"

// A malformed profile: the line it is on (0: the file as a whole).
struct ProfileError : std::runtime_error {
  int line;
  ProfileError(int line, const std::string& message) : std::runtime_error(message), line(line) {}
};

struct ProfileRow {
  int line = 0;
  int64_t num_tokens = 0;
  std::array<double, std::size(kProfiledOps)> measured_us{};  // by ProfiledOp
};

struct OpProfile {
  std::string gpu, model;  // as the file names them
  AnalysisConfig config;   // the layer of its shape columns on the preset of its gpu column
  std::vector<ProfileRow> rows;
};

// Reads a profile's text; throws ProfileError (missing column, a value that
// is not a number, a negative time, an unknown GPU, rows of different shapes,
// an empty file).
OpProfile parse_op_profile(std::string_view text);

// One row's op: the roofline time of the eager partition's kernels that do
// it, and the op as the profiled implementation ran it, for the calibrated
// model: one kernel (data/measured/op-profiles/README.md: q, k and v as one
// GEMM, gate and up as one, each other op one kernel), its FLOPs and traffic
// those of our kernels together (one of the layer's two residual adds).
struct ProfiledTime {
  int64_t num_tokens = 0;
  ProfiledOp op;
  int eager_kernels = 0;  // our eager partition's kernels doing the op (two residual adds)
  double roofline_s = 0;  // theirs (one add's)
  TimedOp timed;
};

// Every row's every op (the fit's and the validation's input).
std::vector<ProfiledTime> profiled_times(const OpProfile& p);

// The profiles shipped in data/measured/op-profiles (compiled in), with their
// file names.
struct ShippedProfile {
  std::string_view file;
  OpProfile profile;
};
const std::vector<ShippedProfile>& shipped_profiles();

// The calibrated cost model of a hardware preset, fitted to the shipped
// profiles measured on it; nullopt for a GPU without one.
// RoPE's times are left out of the fit: our eager partition runs it as
// several kernels (`rope_kernels`), each reading and writing q or k anew,
// where the profiled implementation runs one: their traffic is not what was timed.
struct FittedCalibration {
  Calibration calibration;
  std::vector<std::string_view> files;  // the profiles it was fitted to
  int rope_kernels = 0;                 // RoPE's kernels in their eager partition (the first profile's)
};
std::optional<FittedCalibration> calibration_for(std::string_view hardware_key);

struct OpValidation {
  int64_t num_tokens = 0;
  ProfiledOp op;
  double measured_us = 0, roofline_us = 0;
  std::optional<double> calibrated_us;  // with a calibration of the GPU
  // The op as the profiled implementation ran it, at the GPU's peaks: its traffic's time and its FLOPs'.
  double memory_us = 0, compute_us = 0;
};

struct OpSummary {
  ProfiledOp op;
  int rows = 0;
  double median_error = 0, p90_error = 0;  // of |roofline / measured - 1|
  std::optional<double> calibrated_median_error, calibrated_p90_error;
};

struct ProfileValidation {
  std::vector<OpValidation> rows;
  std::vector<OpSummary> summary;  // one per op, in kProfiledOps' order
  std::optional<FittedCalibration> calibration;  // of the profile's GPU, if it has one
};

// For every row and op: the measured time, the summed roofline time (without
// the fixed cost per kernel) of the eager partition's kernels that do that op
// at that token count, and their calibrated time where the GPU has a
// calibration (fitted to the shipped profiles, not to this one unless it is one).
ProfileValidation validate_profile(const OpProfile& p);

}  // namespace fl
