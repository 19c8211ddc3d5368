// The built-in Llama decoder layer written in the model language: what
// `fusionlab --print-model NAME` prints, and what traces, node for node, the
// graph core/model.cpp traces for the same sizes (tests/test_model_lang.cpp).
#pragma once

#include <string>
#include <string_view>

#include "core/config.h"

namespace fl::lang {

// `title`: the first comment line (the preset's name and where its numbers come from).
std::string llama_source(const LayerCfg& c, std::string_view title);

}  // namespace fl::lang
