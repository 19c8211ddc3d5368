// Our ops by the names of the ATen ops PyTorch's graph holds for them: the
// words of an Inductor kernel's name (triton_poi_fused_add_mul_0 lists the
// sorted ATen ops whose code the kernel runs).
#pragma once

#include <string_view>
#include <vector>

#include "core/graph.h"

namespace fl::inductor {

// The ATen ops node `n` stands for (RoPE's rotation, written rotate_half in
// the measured layer, is a cat of a negated half: {"cat", "neg"}).
std::vector<std::string_view> aten_names(const Node& n);

}  // namespace fl::inductor
