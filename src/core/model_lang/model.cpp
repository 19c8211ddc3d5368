#include "core/model_lang/model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "core/model.h"
#include "core/model_lang/parser.h"
#include "core/origin.h"

namespace fl::lang {

namespace {

struct Value {
  enum class Kind { Number, Dim, String, Tensor, List, Function };
  Kind kind = Kind::Number;
  double number = 0;
  Dim dim;
  std::string text;
  std::optional<Tensor> tensor;
  std::vector<Value> items;
  const Stmt* def = nullptr;

  static Value of(double d) { return Value{Kind::Number, d, {}, {}, {}, {}, nullptr}; }
  static Value of(Dim d) { return Value{Kind::Dim, 0, d, {}, {}, {}, nullptr}; }
  static Value of(std::string s) { return Value{Kind::String, 0, {}, std::move(s), {}, {}, nullptr}; }
  static Value of(Tensor t) { return Value{Kind::Tensor, 0, {}, {}, t, {}, nullptr}; }
};

std::string_view kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Number: return "a number";
    case Value::Kind::Dim: return "a size";
    case Value::Kind::String: return "a string";
    case Value::Kind::Tensor: return "a tensor";
    case Value::Kind::List: return "a list";
    case Value::Kind::Function: return "a function";
  }
  return "?";
}

// A function's return, carried up through its statements.
struct Returned {
  Value value;
};

constexpr int kMaxCallDepth = 64;
constexpr int64_t kMaxSize = int64_t{1} << 24;     // one constant size of a shape
constexpr int64_t kMaxElements = int64_t{1} << 40;  // the constant part of a shape's elements
constexpr size_t kMaxRank = 6;
constexpr int64_t kMaxSteps = 1'000'000;  // expressions evaluated in one trace: no source runs for long

class Interpreter {
 public:
  Interpreter(const Program& p, const LayerEnv* env) : program_(p), env_(env) {
    globals_["inf"] = Value::of(INFINITY);
    if (!env) return;
    globals_["B"] = Value::of(env->B);
    globals_["T"] = Value::of(env->T);
    globals_["P"] = Value::of(env->P);
    globals_["offset"] = Value::of(env->offset);
    globals_["cos"] = Value::of(env->cos);
    globals_["sin"] = Value::of(env->sin);
    globals_["decode"] = Value::of(env->decode ? 1.0 : 0.0);
    globals_["attention"] = Value::of(env->attention);
    globals_["act"] = Value::of(std::string(dtype_name(env->act)));
    if (env->mask) globals_["mask"] = Value::of(*env->mask);
  }

  // The caches, made after the parameters as the built-in layer makes them.
  void add_caches() {
    if (!env_ || !env_->caches) return;
    const auto [k, v] = env_->caches();
    globals_["k_cache"] = Value::of(k);
    globals_["v_cache"] = Value::of(v);
  }

  // The top level: constants, and (with a layer's environment) parameters and functions.
  void run_top() {
    for (const Stmt& s : program_.stmts) {
      switch (s.kind) {
        case Stmt::Kind::Assign: globals_[s.name] = eval(*s.value); break;
        case Stmt::Kind::Param:
          if (env_) {
            const Shape shape = shape_of(*s.value, "a parameter's shape");
            for (const Dim& d : shape)
              if (!d.is_constant()) throw SourceError(s.value->at, "a parameter's sizes are numbers, not B, T or P");
            if (shape.size() != 1 && shape.size() != 2) throw SourceError(s.value->at, "a parameter is a vector [n] or a matrix [rows, cols]");
            globals_[s.name] = Value::of(env_->param(s.name, shape));
          }
          break;
        case Stmt::Kind::Def: {
          Value f;
          f.kind = Value::Kind::Function;
          f.def = &s;
          globals_[s.name] = f;
          break;
        }
        default: throw SourceError(s.at, "only constants, param, def may stand outside a function");
      }
    }
  }

  const Value* global(const std::string& name) const {
    auto it = globals_.find(name);
    return it == globals_.end() ? nullptr : &it->second;
  }

  Value call(const Value& f, std::vector<Value> args, Position at) {
    const Stmt& def = *f.def;
    if (args.size() != def.params.size())
      throw SourceError(at, def.name + "() takes " + std::to_string(def.params.size()) + " arguments, given " + std::to_string(args.size()));
    if (calls_ >= kMaxCallDepth) throw SourceError(at, "functions call each other too deep");
    std::map<std::string, Value> locals;
    for (size_t i = 0; i < args.size(); ++i) locals[def.params[i]] = std::move(args[i]);
    locals_.push_back(std::move(locals));
    ++calls_;
    Graph* g = env_ ? &env_->x.graph() : nullptr;
    const Origin before = g ? g->origin() : Origin::None;  // a function leaves its caller's step as it found it
    struct Exit {
      Interpreter& in;
      Graph* g;
      Origin before;
      ~Exit() {
        in.locals_.pop_back();
        --in.calls_;
        if (g) g->set_origin(before);
      }
    } exit{*this, g, before};
    try {
      run(def.body);
    } catch (Returned& r) {
      return std::move(r.value);
    }
    throw SourceError(def.at, def.name + "() ends without return");
  }

 private:
  const Program& program_;
  const LayerEnv* env_;
  std::map<std::string, Value> globals_;
  std::vector<std::map<std::string, Value>> locals_;
  int calls_ = 0;
  int64_t steps_ = 0;

  void run(const std::vector<Stmt>& body) {
    for (const Stmt& s : body) {
      switch (s.kind) {
        case Stmt::Kind::Assign: locals_.back()[s.name] = eval(*s.value); break;
        case Stmt::Kind::Return: throw Returned{eval(*s.value)};
        case Stmt::Kind::If: run(truthy(eval(*s.value), s.value->at) ? s.body : s.orelse); break;
        case Stmt::Kind::Step: {
          const std::optional<Origin> o = origin_named(s.name);
          if (!o) throw SourceError(s.at, "no step is called '" + s.name + "' (docs/model-language.md lists them)");
          if (env_) env_->x.graph().set_origin(*o);
          break;
        }
        case Stmt::Kind::Param: throw SourceError(s.at, "param stands at the top level, before the functions");
        case Stmt::Kind::Def: throw SourceError(s.at, "def stands at the top level");
      }
    }
  }

  static bool truthy(const Value& v, Position at) {
    if (v.kind == Value::Kind::Number) return v.number != 0;
    if (v.kind == Value::Kind::String) return !v.text.empty();
    throw SourceError(at, "a condition is a number or a comparison, not " + std::string(kind_name(v.kind)));
  }

  // A name: the function's own first, then the top level's; null if neither has it.
  const Value* find(const std::string& name) const {
    if (!locals_.empty())
      if (auto it = locals_.back().find(name); it != locals_.back().end()) return &it->second;
    auto it = globals_.find(name);
    return it == globals_.end() ? nullptr : &it->second;
  }
  const Value& lookup(const Expr& e) const {
    if (const Value* v = find(e.text)) return *v;
    throw SourceError(e.at, "'" + e.text + "' is not defined here");
  }

  static int64_t integer(const Value& v, Position at, const char* what) {
    if (v.kind == Value::Kind::Dim && v.dim.is_constant()) return v.dim.constant();
    if (v.kind != Value::Kind::Number || v.number != std::floor(v.number) || std::fabs(v.number) > 1e15)
      throw SourceError(at, std::string(what) + " must be a whole number");
    return static_cast<int64_t>(v.number);
  }
  static Dim dim(const Value& v, Position at, const char* what) {
    if (v.kind == Value::Kind::Dim) return v.dim;
    const int64_t n = integer(v, at, what);
    if (n < 0) throw SourceError(at, std::string(what) + " cannot be negative");
    return Dim(n);
  }
  Shape shape_of(const Expr& list, const char* what) {
    const Value v = eval(list);
    if (v.kind != Value::Kind::List) throw SourceError(list.at, std::string(what) + " is a list: [a, b]");
    return shape_from(v, list);
  }
  // The largest coefficient of a size's polynomial (B * 4096: 4096).
  static int64_t largest_term(const Dim& d) {
    int64_t largest = 1;
    d.for_each_term([&](const std::vector<std::string>&, int64_t c) { largest = std::max<int64_t>(largest, c < 0 ? -c : c); });
    return largest;
  }
  static Tensor tensor(const Value& v, Position at, const char* what) {
    if (v.kind != Value::Kind::Tensor) throw SourceError(at, std::string(what) + " must be a tensor, not " + std::string(kind_name(v.kind)));
    return *v.tensor;
  }
  static double number(const Value& v, Position at, const char* what) {
    if (v.kind == Value::Kind::Dim && v.dim.is_constant()) return static_cast<double>(v.dim.constant());
    if (v.kind != Value::Kind::Number) throw SourceError(at, std::string(what) + " must be a number, not " + std::string(kind_name(v.kind)));
    return v.number;
  }

  // The tracer's refusals (shapes that do not fit, an axis out of range) at the expression that made them.
  Value eval(const Expr& e) {
    try {
      return eval_here(e);
    } catch (const GraphError& err) {
      throw SourceError(e.at, err.what());
    } catch (const UnboundSymbol& err) {
      throw SourceError(e.at, err.what());
    }
  }

  Value eval_here(const Expr& e) {
    if (++steps_ > kMaxSteps) throw SourceError(e.at, "the layer takes too many steps to trace");
    switch (e.kind) {
      case Expr::Kind::Number: return Value::of(e.number);
      case Expr::Kind::String: return Value::of(e.text);
      case Expr::Kind::Name: return lookup(e);
      case Expr::Kind::List: {
        Value v;
        v.kind = Value::Kind::List;
        for (const ExprPtr& item : e.items) v.items.push_back(eval(*item));
        return v;
      }
      case Expr::Kind::Unary: {
        const Value x = eval(*e.items[0]);
        if (x.kind == Value::Kind::Tensor) return Value::of(-*x.tensor);
        return Value::of(-number(x, e.at, "the operand of -"));
      }
      case Expr::Kind::Binary: {
        Value a = eval(*e.items[0]);
        Value b = eval(*e.items[1]);
        return binary(e, a, b);
      }
      case Expr::Kind::Call: return call_named(e);
    }
    throw SourceError(e.at, "unknown expression");
  }

  Value binary(const Expr& e, const Value& a, const Value& b) {
    const std::string& op = e.text;
    if (op == "==" || op == "!=") {
      bool same = false;
      if (a.kind == Value::Kind::String && b.kind == Value::Kind::String) same = a.text == b.text;
      else same = number(a, e.at, "a compared value") == number(b, e.at, "a compared value");
      return Value::of(same == (op == "==") ? 1.0 : 0.0);
    }
    const bool ta = a.kind == Value::Kind::Tensor, tb = b.kind == Value::Kind::Tensor;
    if (op == "@") return Value::of(matmul(tensor(a, e.at, "the left side of @"), tensor(b, e.at, "the right side of @")));
    if (ta || tb) {
      if (ta && tb) {
        if (op == "+") return Value::of(*a.tensor + *b.tensor);
        if (op == "-") return Value::of(*a.tensor - *b.tensor);
        if (op == "*") return Value::of(*a.tensor * *b.tensor);
        return Value::of(*a.tensor / *b.tensor);
      }
      if (ta) {
        const double y = number(b, e.at, "a tensor's operand");
        if (op == "+") return Value::of(*a.tensor + y);
        if (op == "-") return Value::of(*a.tensor + -y);
        if (op == "*") return Value::of(*a.tensor * y);
        return Value::of(*a.tensor / y);
      }
      const double x = number(a, e.at, "a tensor's operand");
      if (op == "+") return Value::of(x + *b.tensor);
      if (op == "*") return Value::of(*b.tensor * x);
      if (op == "/") return Value::of(x / *b.tensor);
      throw SourceError(e.at, "a number minus a tensor: write -(tensor) + number");
    }
    if (a.kind == Value::Kind::Dim || b.kind == Value::Kind::Dim) {  // sizes: B * T, B * heads
      const Dim x = dim(a, e.at, "a size"), y = dim(b, e.at, "a size");
      if (largest_term(x) > kMaxSize || largest_term(y) > kMaxSize) throw SourceError(e.at, "a size above " + std::to_string(kMaxSize));
      if (op == "+") return Value::of(x + y);
      if (op == "*") return Value::of(x * y);
      if (x.is_constant() && y.is_constant()) return binary(e, Value::of(static_cast<double>(x.constant())), Value::of(static_cast<double>(y.constant())));
      throw SourceError(e.at, "sizes with symbols (B, T, P) may only be added and multiplied");
    }
    const double x = number(a, e.at, "an operand"), y = number(b, e.at, "an operand");
    if (op == "+") return Value::of(x + y);
    if (op == "-") return Value::of(x - y);
    if (op == "*") return Value::of(x * y);
    if (y == 0) throw SourceError(e.at, "a division by zero");
    return Value::of(x / y);
  }

  // A function of the source's, else one of the language's (a name the source defines hides the language's).
  Value call_named(const Expr& e) {
    std::vector<Value> args;
    for (const ExprPtr& arg : e.items) args.push_back(eval(*arg));
    if (const Value* f = find(e.text)) {
      if (f->kind != Value::Kind::Function) throw SourceError(e.at, "'" + e.text + "' is " + std::string(kind_name(f->kind)) + ", not a function");
      const Value function = *f;  // the call may define names that move the map's entries
      return call(function, std::move(args), e.at);
    }
    return builtin(e, args);
  }

  // The tracer's operations (core/trace.h), by the names the language gives them.
  Value builtin(const Expr& e, const std::vector<Value>& a) {
    const std::string& f = e.text;
    auto want = [&](size_t lo, size_t hi) {
      if (a.size() < lo || a.size() > hi)
        throw SourceError(e.at, f + "() takes " + std::to_string(lo) + (hi > lo ? " to " + std::to_string(hi) : "") + " arguments, given " + std::to_string(a.size()));
    };
    auto t = [&](size_t i) { return tensor(a[i], e.items[i]->at, ("argument " + std::to_string(i + 1) + " of " + f + "()").c_str()); };
    auto n = [&](size_t i) { return number(a[i], e.items[i]->at, ("argument " + std::to_string(i + 1) + " of " + f + "()").c_str()); };
    auto d = [&](size_t i) { return dim(a[i], e.items[i]->at, ("argument " + std::to_string(i + 1) + " of " + f + "()").c_str()); };
    using Unary = Tensor (*)(const Tensor&);
    static const std::map<std::string, Unary> kUnary = {
        {"exp", &fl::exp},         {"rsqrt", &fl::rsqrt},     {"cos", &fl::cos},   {"sin", &fl::sin},
        {"tanh", &fl::tanh},       {"gelu", &fl::gelu},
        {"rot_pairs", &fl::rot_pairs}, {"sum", &fl::sum},     {"mean", &fl::mean}, {"max", &fl::max},
        {"softmax", &fl::softmax}, {"silu", &fl::silu},       {"logical_not", &fl::logical_not}};
    if (auto u = kUnary.find(f); u != kUnary.end()) {
      want(1, 1);
      return Value::of(u->second(t(0)));
    }
    if (f == "sqrt") {
      want(1, 1);
      if (n(0) < 0) throw SourceError(e.at, "sqrt() of a negative number");
      return Value::of(std::sqrt(n(0)));
    }
    if (f == "rmsnorm") {
      want(2, 3);
      return Value::of(rmsnorm(t(0), t(1), a.size() > 2 ? n(2) : kRmsEps));
    }
    if (f == "layernorm") {
      want(3, 4);
      return Value::of(layernorm(t(0), t(1), t(2), a.size() > 3 ? n(3) : kRmsEps));
    }
    if (f == "reshape") {
      want(2, 2);
      return Value::of(reshape(t(0), shape_from(a[1], *e.items[1])));
    }
    if (f == "transpose") {
      want(2, 2);
      if (a[1].kind != Value::Kind::List) throw SourceError(e.items[1]->at, "transpose() takes the axes' new order as a list: [0, 2, 1, 3]");
      Perm perm;
      for (const Value& axis : a[1].items) perm.push_back(static_cast<int>(integer(axis, e.items[1]->at, "an axis")));
      return Value::of(transpose(t(0), perm));
    }
    if (f == "repeat_kv") {
      want(2, 2);
      const int64_t times = integer(a[1], e.items[1]->at, "repeat_kv()'s count");
      if (times < 1 || times > 1024) throw SourceError(e.items[1]->at, "repeat_kv() repeats 1 to 1024 times");
      return Value::of(repeat_kv(t(0), times));
    }
    if (f == "causal_mask") {
      want(2, 2);
      return Value::of(causal_mask(t(0), d(1)));
    }
    if (f == "masked_fill") {
      want(3, 3);
      return Value::of(masked_fill(t(0), t(1), n(2)));
    }
    if (f == "cast") {
      want(2, 2);
      if (a[1].kind != Value::Kind::String) throw SourceError(e.items[1]->at, "cast() takes a dtype's name: \"fp32\", \"bf16\", ...");
      for (DType to : {DType::BF16, DType::FP16, DType::FP32, DType::FP8})
        if (dtype_name(to) == a[1].text) return Value::of(cast(t(0), to));
      throw SourceError(e.items[1]->at, "no dtype is called \"" + a[1].text + "\" (bf16, fp16, fp32, fp8)");
    }
    if (f == "kv_write") {
      want(3, 3);
      const Tensor written = kv_write(t(0), t(1), d(2));
      if (env_ && env_->written) env_->written->push_back(written);
      return Value::of(written);
    }
    if (f == "sdpa") {
      want(5, 6);
      if (a.size() == 6) return Value::of(attention(t(0), t(1), t(2), n(3), d(4), t(5)));
      return Value::of(attention(t(0), t(1), t(2), n(3), d(4)));
    }
    throw SourceError(e.at, "no function is called '" + f + "'");
  }

  // A shape of at most kMaxRank sizes whose numbers stay far from overflowing.
  Shape shape_from(const Value& v, const Expr& at) {
    if (v.kind != Value::Kind::List) throw SourceError(at.at, "a shape is a list: [B * T, d]");
    if (v.items.size() > kMaxRank) throw SourceError(at.at, "a shape of more than " + std::to_string(kMaxRank) + " sizes");
    Shape s;
    int64_t elements = 1;
    for (size_t i = 0; i < v.items.size(); ++i) {
      const Position p = at.kind == Expr::Kind::List ? at.items[i]->at : at.at;
      const Dim d = dim(v.items[i], p, "a size");
      const int64_t number = largest_term(d);
      if (number > kMaxSize) throw SourceError(p, "a size above " + std::to_string(kMaxSize));
      elements *= number;
      if (elements > kMaxElements) throw SourceError(p, "a shape of more than 2^40 elements");
      s.push_back(d);
    }
    return s;
  }
};

}  // namespace

Model::Model(std::string source, std::string name) : source_(std::move(source)), name_(std::move(name)) {
  program_ = std::make_shared<const Program>(parse(source_));
  Interpreter in(*program_, nullptr);
  in.run_top();
  int64_t sizes[std::size(kSizeNames)];
  for (size_t i = 0; i < std::size(kSizeNames); ++i) {
    const Value* v = in.global(kSizeNames[i]);
    if (!v || v->kind != Value::Kind::Number || v->number != std::floor(v->number) || v->number < 1 || v->number > 1e9)
      throw SourceError({1, 1}, std::string("the layer's size '") + kSizeNames[i] + "' must be defined as a whole number (d, heads, kv_heads, head_dim, ffn)");
    sizes[i] = static_cast<int64_t>(v->number);
  }
  cfg_ = {sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]};
  const Value* layer = in.global("layer");
  if (!layer || layer->kind != Value::Kind::Function || layer->def->params.size() != 1)
    throw SourceError({1, 1}, "the source must define the layer as a function of its input: def layer(x):");
}

Tensor Model::trace(const LayerEnv& env) const {
  Interpreter in(*program_, &env);
  in.run_top();
  in.add_caches();
  const Value out = in.call(*in.global("layer"), {Value::of(env.x)}, in.global("layer")->def->at);
  if (out.kind != Value::Kind::Tensor) throw SourceError(in.global("layer")->def->at, "layer() must return a tensor");
  return *out.tensor;
}

}  // namespace fl::lang
