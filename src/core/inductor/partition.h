// The Inductor model's kernels as a partition of the layer: costed by the
// same roofline as the lecture's four, each kernel named as Inductor names it.
#pragma once

#include "core/inductor/scheduler.h"
#include "core/partitions.h"

namespace fl::inductor {

// `traced`: the layer as traced (any attention form). Inductor sees it
// decomposed, without attention matching or the lecture's weight folding.
// `id`: the compiler's partition (PartitionId::Inductor or GptFast), `opt` its settings.
Partition inductor_partition(PartitionId id, const Graph& traced, const Binding& bind, const Hardware& hw, const Options& opt);

}  // namespace fl::inductor
