// A decoder layer written in the model language (docs/model-language.md):
// read once, then traced into a graph by the tracer's operations, as the
// built-in layer is (core/model.cpp), every time a phase is traced.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"
#include "core/model_lang/ast.h"
#include "core/model_lang/lexer.h"  // SourceError
#include "core/trace.h"

namespace fl::lang {

// What the tracer gives the layer: its input, where it runs, and how to make
// a parameter (named and drawn by the tracer, in the order declared).
struct LayerEnv {
  Tensor x;
  Dim B, T;
  Dim offset;  // query i sees keys j <= i + offset
  Dim P;       // decode: the new token's position
  Tensor cos, sin;
  std::optional<Tensor> mask;               // a boolean mask: true where a query sees a key
  std::function<std::pair<Tensor, Tensor>()> caches;  // decode: makes k_cache and v_cache, after the parameters
  bool decode = false;
  std::string attention;                    // the attention form's key: lecture, math, sdpa
  DType act = DType::BF16;
  std::function<Tensor(const std::string& name, const Shape& shape)> param;
  std::vector<Tensor>* written = nullptr;   // the caches kv_write wrote, in order
};

// The names of the layer's sizes a source must define.
inline constexpr const char* kSizeNames[] = {"d", "heads", "kv_heads", "head_dim", "ffn"};

class Model {
 public:
  // Reads and checks `source`: its syntax, the sizes, a function layer(x).
  // Throws SourceError naming the line and column.
  // `name`: what titles call it (a file's name).
  explicit Model(std::string source, std::string name = "");
  const std::string& source() const { return source_; }
  const std::string& name() const { return name_; }
  const LayerCfg& layer() const { return cfg_; }
  // Traces the layer into env.x's graph; returns its output.
  Tensor trace(const LayerEnv& env) const;

 private:
  std::string source_, name_;
  std::shared_ptr<const Program> program_;
  LayerCfg cfg_{};
};

}  // namespace fl::lang
