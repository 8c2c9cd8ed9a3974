// Triton's counter-based random numbers (tl.randint/rand/randn and their 4x
// forms, triton_helpers.randint64): Philox 4x32 with 10 rounds, counter
// (offset, 0, 0, 0) and key (low, high 32 bits of the seed), lowered to
// ordinary integer TileIR so that every backend reproduces the GPU's bits.
#include "triton/builtins_internal.h"

namespace npusim::triton::lowering {

namespace {

using core::DType;
constexpr int64_t kPhiloxKeyA = 0x9E3779B9, kPhiloxKeyB = 0xBB67AE85;
constexpr int64_t kPhiloxRoundA = 0xD2511F53, kPhiloxRoundB = 0xCD9E8D57;

class Philox {
public:
  Philox(Lowerer &l, ast::Position pos) : l_(l), b_(l.builder()), pos_(pos) {}

  ir::Value *u32(int64_t v, const ir::Shape &shape) { return l_.constant(DType::UInt32, SemaValue::ofInt(v), shape, pos_); }

  /// High 32 bits of the 64-bit product of two u32 values.
  ir::Value *mulhi(ir::Value *a, ir::Value *c) {
    ir::Value *wide = b_.binary(ir::OpCode::Mul, l_.castTo(a, DType::UInt64), l_.castTo(c, DType::UInt64));
    ir::Value *high = b_.binary(ir::OpCode::Shr, wide, l_.constant(DType::UInt64, SemaValue::ofInt(32), wide->type.shape, pos_));
    return l_.castTo(high, DType::UInt32);
  }

  /// The four u32 outputs for each offset.
  std::vector<ir::Value *> run(const SemaValue &seed, const SemaValue &offset, int rounds) {
    ir::Value *off = l_.toTensor(offset, pos_);
    if (!off->type.isIntegerOrBool() || off->type.isBool())
      l_.fail(pos_, "random offsets must be integers, got " + off->type.str());
    if (core::bitWidth(off->type.dtype) != 32)
      l_.fail(pos_, "random offsets must be 32-bit integers, got " + off->type.str());
    const ir::Shape &shape = off->type.shape;
    ir::Value *c0 = off->type.dtype == DType::UInt32 ? off : b_.bitcast(off, ir::Type::tile(DType::UInt32, shape));
    ir::Value *zero = u32(0, shape);
    ir::Value *c1 = zero, *c2 = zero, *c3 = zero;
    ir::Value *s = l_.toTensor(seed, pos_);
    if (!s->type.isIntegerOrBool() || s->type.isTile())
      l_.fail(pos_, "the random seed must be an integer scalar, got " + s->type.str());
    s = l_.castTo(s, DType::UInt64);
    ir::Value *k0 = l_.castTo(s, DType::UInt32); // the low half: casts wrap
    ir::Value *k1 = l_.castTo(b_.binary(ir::OpCode::Shr, s, l_.constant(DType::UInt64, SemaValue::ofInt(32), {}, pos_)), DType::UInt32);
    k0 = l_.broadcastTo(k0, shape, pos_);
    k1 = l_.broadcastTo(k1, shape, pos_);
    ir::Value *roundA = u32(kPhiloxRoundA, shape), *roundB = u32(kPhiloxRoundB, shape);
    ir::Value *keyA = u32(kPhiloxKeyA, shape), *keyB = u32(kPhiloxKeyB, shape);
    for (int r = 0; r < rounds; ++r) {
      ir::Value *prev0 = c0, *prev2 = c2;
      c0 = b_.binary(ir::OpCode::Xor, b_.binary(ir::OpCode::Xor, mulhi(roundB, prev2), c1), k0);
      c2 = b_.binary(ir::OpCode::Xor, b_.binary(ir::OpCode::Xor, mulhi(roundA, prev0), c3), k1);
      c1 = b_.binary(ir::OpCode::Mul, roundB, prev2);
      c3 = b_.binary(ir::OpCode::Mul, roundA, prev0);
      k0 = b_.binary(ir::OpCode::Add, k0, keyA);
      k1 = b_.binary(ir::OpCode::Add, k1, keyB);
    }
    return {c0, c1, c2, c3};
  }

  /// uint32 -> float in [0, 1): as an int32, folded onto [0, 2^31) and scaled by 1/(2^31 - 1).
  SemaValue uniform(ir::Value *bits) {
    ir::Value *x = b_.bitcast(bits, ir::Type::tile(DType::Int32, bits->type.shape));
    SemaValue xs = SemaValue::ofTensor(x);
    SemaValue negative = l_.compare(ast::CompareOperator::Lt, xs, SemaValue::ofInt(0), pos_);
    SemaValue flipped = l_.binary(ast::BinaryOperator::Sub, l_.unary(ast::UnaryOperator::Neg, xs, pos_), SemaValue::ofInt(1), pos_);
    SemaValue folded = SemaValue::ofTensor(l_.select(negative, flipped, xs, pos_));
    return l_.binary(ast::BinaryOperator::Mul, folded, SemaValue::ofFloat(4.656613e-10), pos_);
  }

  /// Box-Muller: the pair of normals from two uniforms.
  std::pair<SemaValue, SemaValue> normal(const SemaValue &u1, const SemaValue &u2) {
    auto [lo, u] = l_.promote(SemaValue::ofFloat(1.0e-7), u1, false, pos_);
    SemaValue clamped = SemaValue::ofTensor(b_.minMax(ir::OpCode::Max, lo, u, ir::NanMode::Ignore));
    SemaValue th = l_.binary(ast::BinaryOperator::Mul, SemaValue::ofFloat(6.283185307179586), u2, pos_);
    auto math1 = [&](ir::MathFn fn, const SemaValue &x) { return SemaValue::ofTensor(b_.math(fn, {x.tensor})); };
    SemaValue r = math1(ir::MathFn::Sqrt, l_.binary(ast::BinaryOperator::Mul, SemaValue::ofFloat(-2.0), math1(ir::MathFn::Log, clamped), pos_));
    return {l_.binary(ast::BinaryOperator::Mul, r, math1(ir::MathFn::Cos, th), pos_),
            l_.binary(ast::BinaryOperator::Mul, r, math1(ir::MathFn::Sin, th), pos_)};
  }

private:
  Lowerer &l_;
  ir::Builder &b_;
  ast::Position pos_;
};

} // namespace

namespace {

/// Triton's random functions and Inductor's randint64.
enum class RandomKind { Randint, Randint4x, Rand, Rand4x, Randn, Randn4x, Randint64 };

SemaValue lowerRandom(BuiltinCall &c, RandomKind kind) {
  const bool fourWords = kind == RandomKind::Randint4x || kind == RandomKind::Rand4x || kind == RandomKind::Randn4x;
  const SemaValue *seed = c.args.get(0, "seed");
  const SemaValue *offset = c.args.get(1, kind != RandomKind::Randint64 && fourWords ? "offsets" : "offset");
  if (!offset)
    offset = c.args.get(1, "offsets");
  if (!seed || !offset)
    c.l.fail(c.pos, c.name + "() needs a seed and offsets");
  int rounds = 10;
  if (const SemaValue *n = c.args.get(2, "n_rounds"); n && kind != RandomKind::Randint64) {
    if (n->kind != SemaValue::Kind::Int || n->intValue < 0 || n->intValue > 64)
      c.l.fail(c.pos, c.name + "() n_rounds must be a compile-time int between 0 and 64");
    rounds = static_cast<int>(n->intValue);
  }
  Philox philox(c.l, c.pos);
  std::vector<ir::Value *> words = philox.run(*seed, *offset, rounds);
  auto asInt32 = [&](ir::Value *w) {
    return SemaValue::ofTensor(c.b.bitcast(w, ir::Type::tile(core::DType::Int32, w->type.shape)));
  };
  switch (kind) {
  case RandomKind::Randint: return asInt32(words[0]);
  case RandomKind::Randint4x:
    return SemaValue::ofTuple({asInt32(words[0]), asInt32(words[1]), asInt32(words[2]), asInt32(words[3])});
  case RandomKind::Rand: return philox.uniform(words[0]);
  case RandomKind::Rand4x:
    return SemaValue::ofTuple({philox.uniform(words[0]), philox.uniform(words[1]), philox.uniform(words[2]),
                               philox.uniform(words[3])});
  case RandomKind::Randn: return philox.normal(philox.uniform(words[0]), philox.uniform(words[1])).first;
  case RandomKind::Randn4x: {
    auto [n1, n2] = philox.normal(philox.uniform(words[0]), philox.uniform(words[1]));
    auto [n3, n4] = philox.normal(philox.uniform(words[2]), philox.uniform(words[3]));
    return SemaValue::ofTuple({n1, n2, n3, n4});
  }
  case RandomKind::Randint64: {
    // (r0 | r1 << 32) % (high - low) + low, in uint64 then int64.
    const SemaValue *low = c.args.get(2, "low"), *high = c.args.get(3, "high");
    if (!low || !high)
      c.l.fail(c.pos, c.name + "() needs low and high");
    ir::Value *r0 = c.l.castTo(words[0], core::DType::UInt64), *r1 = c.l.castTo(words[1], core::DType::UInt64);
    ir::Value *shift = c.l.constant(core::DType::UInt64, SemaValue::ofInt(32), r1->type.shape, c.pos);
    ir::Value *bits = c.b.binary(ir::OpCode::Or, r0, c.b.binary(ir::OpCode::Shl, r1, shift));
    SemaValue size = c.l.binary(ast::BinaryOperator::Sub, *high, *low, c.pos);
    ir::Value *sizeU = c.l.castTo(c.l.toTensor(size, c.pos), core::DType::UInt64);
    sizeU = c.l.broadcastTo(sizeU, bits->type.shape, c.pos);
    ir::Value *r = c.l.castTo(c.b.binary(ir::OpCode::Rem, bits, sizeU), core::DType::Int64);
    return c.l.binary(ast::BinaryOperator::Add, SemaValue::ofTensor(r), *low, c.pos);
  }
  }
  c.l.fail(c.pos, "'" + c.name + "' is not supported");
}

const bool kRandomRegistered = registerBuiltins({
    {"tl.randint", member(lowerRandom, RandomKind::Randint)},
    {"tl.randint4x", member(lowerRandom, RandomKind::Randint4x)},
    {"tl.rand", member(lowerRandom, RandomKind::Rand)},
    {"tl.rand4x", member(lowerRandom, RandomKind::Rand4x)},
    {"tl.randn", member(lowerRandom, RandomKind::Randn)},
    {"tl.randn4x", member(lowerRandom, RandomKind::Randn4x)},
    {"triton_helpers.randint64", member(lowerRandom, RandomKind::Randint64)},
});

} // namespace

} // namespace npusim::triton::lowering
