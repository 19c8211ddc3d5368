// Which compiler partitions a layer into kernels besides the lecture's four
// partitions: the lecture's own rules only, or also a model of TorchInductor
// (core/inductor), whose kernels then follow as a fifth partition.
#pragma once

#include <optional>
#include <string_view>

namespace fl {

enum class Compiler : unsigned char {
  Lecture,   // the lecture's rules (the seed's figures)
  Inductor,  // torch.compile, mode="default" (cuBLAS matmuls, no templates, no CUDA graphs)
  GptFast,   // the same with gpt-fast's setting (coordinate_descent_tuning): decode GEMVs as Triton reductions
};
inline constexpr Compiler kCompilers[] = {Compiler::Lecture, Compiler::Inductor, Compiler::GptFast};
std::string_view compiler_key(Compiler c);  // "lecture", "inductor", "gpt-fast"
std::optional<Compiler> compiler_named(std::string_view key);

}  // namespace fl
