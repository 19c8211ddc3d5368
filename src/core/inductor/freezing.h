// Inductor's freezing (config.freezing): with the weights constants, matmuls
// that read one input, and are all of its readers, with weights of one shape
// become one matmul over their weights concatenated column-wise, its output
// split back into theirs (the freezing patterns' concatenation of linears).
// Measured on the H200 (data/measured/h200-inductor/ablation.jsonl): gate and
// up (4096 x 14336 each) became one GEMM; q, k and v, of two shapes, did not.
#pragma once

#include "core/graph.h"

namespace fl::inductor {

Graph concat_frozen_matmuls(const Graph& g);

}  // namespace fl::inductor
