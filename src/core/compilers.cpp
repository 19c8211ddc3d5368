#include "core/compilers.h"

#include "core/enum_names.h"

namespace fl {

std::string_view compiler_key(Compiler c) {
  switch (c) {
    case Compiler::Lecture: return "lecture";
    case Compiler::Inductor: return "inductor";
    case Compiler::GptFast: return "gpt-fast";
  }
  return "?";
}

std::optional<Compiler> compiler_named(std::string_view key) { return enum_named(kCompilers, compiler_key, key); }

}  // namespace fl
