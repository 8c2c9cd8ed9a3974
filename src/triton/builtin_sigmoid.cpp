// tl.sigmoid, a builtin in a file of its own (builtins_internal.h).
#include "triton/builtins_internal.h"

namespace npusim::triton::lowering {

namespace {

/// tl.sigmoid
SemaValue tlSigmoid(BuiltinCall &c) {
  // Triton defines it as 1 / (1 + exp(-x)).
  SemaValue x = c.args.required(0, "x");
  CallArguments expArgs;
  expArgs.positional.push_back(
      c.l.unary(ast::UnaryOperator::Neg, SemaValue::ofTensor(c.l.toTensor(x, c.pos)), c.pos));
  SemaValue e = c.l.callBuiltin("tl.math.exp", expArgs, c.pos);
  return c.l.binary(ast::BinaryOperator::Div, SemaValue::ofInt(1),
                    c.l.binary(ast::BinaryOperator::Add, SemaValue::ofInt(1), e, c.pos), c.pos);
}

const bool kSigmoidRegistered = registerBuiltin("tl.sigmoid", tlSigmoid);

} // namespace

} // namespace npusim::triton::lowering
