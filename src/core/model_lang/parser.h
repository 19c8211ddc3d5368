// Reads a model's source into its syntax tree (docs/model-language.md has
// the grammar). Throws SourceError, naming the line and column, for a
// source that does not follow it.
#pragma once

#include <string>
#include <string_view>

#include "core/model_lang/ast.h"
#include "core/model_lang/lexer.h"

namespace fl::lang {

Program parse(std::string_view source);

// The source of a program, formatted (four spaces an indent, one statement a
// line): parse(format(p)) gives p again.
std::string format(const Program& p);

}  // namespace fl::lang
