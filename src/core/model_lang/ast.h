// The model language's syntax tree: what the parser reads from a model's
// source and the evaluator traces into a graph (docs/model-language.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace fl::lang {

// Where a piece of source begins: 1-based line and column (in bytes).
struct Position {
  int line = 1;
  int col = 1;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind { Number, String, Name, List, Unary, Binary, Call };
  Kind kind = Kind::Number;
  Position at;
  double number = 0;                // Number
  std::string text;                 // String: its text; Name, Call: the name; Unary, Binary: the operator
  std::vector<ExprPtr> items;       // List: its items; Call: its arguments; Unary: {x}; Binary: {lhs, rhs}
};

struct Stmt {
  enum class Kind {
    Assign,  // name = value
    Param,   // param name[shape]: a parameter of the layer, in the order declared
    Def,     // def name(params): body
    If,      // if value: body else: orelse
    Return,  // return value
    Step,    // step key: the step of the layer that the nodes traced from here on belong to
  };
  Kind kind = Kind::Assign;
  Position at;
  std::string name;                 // Assign, Param, Def: the name; Step: the step's key
  std::vector<std::string> params;  // Def
  ExprPtr value;                    // Assign, Return, If: the condition; Param: the shape, a List
  std::vector<Stmt> body, orelse;   // Def, If
};

struct Program {
  std::vector<Stmt> stmts;
};

}  // namespace fl::lang
