// The model language's tokens: names, numbers, strings, operators, and the
// line structure (NEWLINE, INDENT, DEDENT) of an indented source, as Python's.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model_lang/ast.h"

namespace fl::lang {

// A source that cannot be read: "line:col: message".
struct SourceError : std::runtime_error {
  Position at;
  std::string message;
  SourceError(Position at, std::string message);
};

struct Token {
  enum class Kind { Name, Number, String, Op, Newline, Indent, Dedent, End };
  Kind kind = Kind::End;
  Position at;
  std::string text;  // Name, String, Op: its text; Number: as written
  double number = 0;
};

// Limits that keep any input cheap to read (the parser is fuzzed).
inline constexpr size_t kMaxSourceBytes = 1 << 16;
inline constexpr int kMaxNesting = 100;  // brackets, blocks and operators within each other

std::vector<Token> tokenize(std::string_view source);

}  // namespace fl::lang
