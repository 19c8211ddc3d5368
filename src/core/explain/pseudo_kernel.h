// A kernel as students would write it: a loop nest in a Triton-like notation,
// generated from the kernel's nodes. Loads from HBM, the computation that
// stays on chip, stores to HBM.
#pragma once

#include <string>

#include "core/fusion.h"

namespace fl {

std::string pseudo_kernel(const Graph& g, const Kernel& k, int index, const Binding& bind = {});

}  // namespace fl
