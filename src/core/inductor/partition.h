// The Inductor model's kernels as a partition of the layer: costed by the
// same roofline as the lecture's four, each kernel named as Inductor names it.
#pragma once

#include "core/partitions.h"

namespace fl::inductor {

// `traced`: the layer as traced (any attention form). Inductor sees it
// decomposed, without attention matching or the lecture's weight folding.
Partition inductor_partition(const Graph& traced, const Binding& bind, const Hardware& hw);

}  // namespace fl::inductor
