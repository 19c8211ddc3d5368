// Real torch.compile runs of one Llama layer on an NVIDIA H200: for each
// configuration, the kernels one call launched and how long it took
// (data/measured/h200-inductor/sweep.jsonl, compiled into the core).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"

namespace fl {

// Where the runs come from, as the CLI and the page cite them.
inline constexpr std::string_view kH200InductorSource =
    "data/measured/h200-inductor: PyTorch 2.11.0 + Triton 3.6.0 on one NVIDIA H200, measured for this project on "
    "2026-12-04 (medians of 20 CUDA-event timings)";

// One row of the profiler over the compiled call: a GPU kernel (a Triton
// kernel by its launch name; cuBLAS, cuDNN and copies by their own names).
struct ProfiledKernel {
  std::string name;
  double calls_per_step = 0;
  double us_per_call = 0;
};

struct MeasuredRun {
  std::string id;         // <model>-<phase>-<attention>-<mode>-B<batch>-T<T>-S<S>
  std::string model;      // a model preset's key: llama-3.1-8b, small
  bool decode = false;
  std::string attention;  // math, sdpa
  std::string mode;       // default, gpt-fast, max-autotune
  int64_t batch = 1;
  int64_t tokens = 0;     // prefill's T
  int64_t kv_len = 0;     // decode's S
  std::vector<std::string> launches;  // the kernels of one call, in order, as Inductor names them
  double eager_ms = 0;
  double compiled_ms = 0;             // the compiled call, launched from Python
  double compiled_cuda_graph_ms = 0;  // the same call replayed as one CUDA graph
  std::vector<ProfiledKernel> profile;  // the compiled call's GPU kernels

  // A launch's measured time per call (a Triton kernel's profiler row), if it has its own row.
  std::optional<double> launch_us(const std::string& launch) const;
  // The GPU time of one call outside its Triton kernels: cuBLAS, cuDNN, copies, memsets.
  double extern_us() const;
};

// Every run of sweep.jsonl, in its order (parsed once).
std::span<const MeasuredRun> h200_inductor_runs();

// The configuration that reproduces a run: its model, batch, attention and
// size, on the H200 preset, under the compiler of its mode (default: inductor;
// gpt-fast); none for a mode the lab does not model.
std::optional<AnalysisConfig> config_of(const MeasuredRun& run);

// The run measured for `c`'s phase, if any: the same layer, batch, dtypes,
// attention, compiler and size (T or S) on the H200 (its peaks and bandwidth:
// the fixed costs per kernel are the model's to vary).
const MeasuredRun* measured_run_for(const AnalysisConfig& c, bool decode);

// Whether `c`'s phase is the one `measured` reproduces: the same layer, batch,
// dtypes, attention, compiler and size (T or S) on a GPU of the same peaks and bandwidth.
bool same_measured_setup(const AnalysisConfig& measured, const AnalysisConfig& c, bool decode);

}  // namespace fl
