// The distinct library calls of the committed bundles, one line each, written
// from examples/*/graph.json: tensors as T<shape>/<stride>[+offset][@dtype],
// I<int>, F<float>, B<0|1>, N (None), L<ints> (a list); "-" for a result the
// bundle does not record.
#include "library/bundle_calls.h"

#include "core/dtype.h"
#include "core/error.h"

#include <sstream>

namespace npusim::library::harness {

namespace {

struct Line {
  const char *bundle, *op, *args, *outs;
};

// clang-format off
const Line kLines[] = {
      {"bert", "aten.addmm", "T768/1 T32,768/768,1 T768,768/1,768 I1 I1", "T32,768/768,1"},
      {"bert", "aten.bmm", "T12,32,64/64,768,1 T12,64,32/64,1,768", "T12,32,32/1024,32,1"},
      {"bert", "aten.bmm", "T12,32,32/1024,32,1 T12,32,64/64,768,1", "T12,32,64/2048,64,1"},
      {"bert", "aten.mm", "T32,768/768,1 T768,768/1,768", "T32,768/768,1"},
      {"bert", "aten.mm", "T32,768/768,1 T768,3072/1,768", "T32,3072/3072,1"},
      {"bert", "aten.mm", "T32,3072/3072,1 T3072,768/1,3072", "T32,768/768,1"},
      {"bert", "aten.mm", "T1,768/768,1 T768,768/1,768", "T1,768/768,1"},
      {"gpt2", "aten.addmm", "T2304/1 T32,768/768,1 T768,2304/2304,1 I1 I1", "T32,2304/2304,1"},
      {"gpt2", "aten.bmm", "T12,32,64/64,2304,1 T12,64,32/64,1,2304+768", "T12,32,32/1024,32,1"},
      {"gpt2", "aten.bmm", "T12,32,32/1024,32,1 T12,32,64/64,2304,1+1536", "T12,32,64/2048,64,1"},
      {"gpt2", "aten.mm", "T32,768/768,1 T768,768/768,1", "T32,768/768,1"},
      {"gpt2", "aten.mm", "T32,768/768,1 T768,3072/3072,1", "T32,3072/3072,1"},
      {"gpt2", "aten.mm", "T32,3072/3072,1 T3072,768/768,1", "T32,768/768,1"},
      {"gpt2", "aten.mm", "T32,768/768,1 T768,50257/1,768", "T32,50257/50257,1"},
      {"llama", "aten.mm", "T32,256/256,1 T256,256/1,256", "T32,256/256,1"},
      {"llama", "aten.mm", "T16,1/1,1 T1,32/0,1", "T16,32/32,1"},
      {"llama", "aten.mm", "T32,256/256,1 T256,64/1,256", "T32,64/64,1"},
      {"llama", "aten.bmm", "T8,32,32/1024,32,1 T8,32,32/1024,1,32", "T8,32,32/1024,32,1"},
      {"llama", "aten.bmm", "T8,32,32/1024,32,1 T8,32,32/1024,32,1", "T8,32,32/1024,32,1"},
      {"llama", "aten.mm", "T32,256/256,1 T256,512/1,256", "T32,512/512,1"},
      {"llama", "aten.mm", "T32,512/512,1 T512,256/1,512", "T32,256/256,1"},
      {"llama", "aten.mm", "T32,256/256,1 T256,32000/1,256", "T32,32000/32000,1"},
      {"mlp-train", "aten.mm", "T16,784/784,1 T784,256/1,784", "T16,256/256,1"},
      {"mlp-train", "aten.addmm", "T10/1 T16,256/256,1 T256,10/1,256 I1 I1", "T16,10/10,1"},
      {"mlp-train", "aten.mm", "T10,16/1,10 T16,256/256,1", "T10,256/256,1"},
      {"mlp-train", "aten.mm", "T16,12/12,1 T12,256/256,1", "T16,256/256,1"},
      {"mlp-train", "aten.mm", "T256,16/1,256 T16,784/784,1", "T256,784/784,1"},
      {"mlp", "aten.addmm", "T12/1 T16,256/256,1 T256,12/1,256 I1 I1", "T16,12/12,1"},
      {"mobilenet_v2", "aten.convolution", "T1,3,224,224/150528,1,672,3 T32,3,3,3/27,1,9,3 N L2,2 L1,1 L1,1 B0 L0,0 I1", "T1,32,112,112/401408,1,3584,32"},
      {"mobilenet_v2", "aten.convolution", "T1,32,112,112/401408,1,3584,32 T32,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I32", "T1,32,112,112/401408,1,3584,32"},
      {"mobilenet_v2", "aten.convolution", "T1,32,112,112/401408,1,3584,32 T16,32,1,1/32,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,16,112,112/200704,1,1792,16"},
      {"mobilenet_v2", "aten.convolution", "T1,16,112,112/200704,1,1792,16 T96,16,1,1/16,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,96,112,112/1204224,1,10752,96"},
      {"mobilenet_v2", "aten.convolution", "T1,96,112,112/1204224,1,10752,96 T96,1,3,3/9,9,3,1 N L2,2 L1,1 L1,1 B0 L0,0 I96", "T1,96,56,56/301056,1,5376,96"},
      {"mobilenet_v2", "aten.convolution", "T1,96,56,56/301056,1,5376,96 T24,96,1,1/96,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,24,56,56/75264,1,1344,24"},
      {"mobilenet_v2", "aten.convolution", "T1,24,56,56/75264,1,1344,24 T144,24,1,1/24,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,144,56,56/451584,1,8064,144"},
      {"mobilenet_v2", "aten.convolution", "T1,144,56,56/451584,1,8064,144 T144,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I144", "T1,144,56,56/451584,1,8064,144"},
      {"mobilenet_v2", "aten.convolution", "T1,144,56,56/451584,1,8064,144 T24,144,1,1/144,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,24,56,56/75264,1,1344,24"},
      {"mobilenet_v2", "aten.convolution", "T1,144,56,56/451584,1,8064,144 T144,1,3,3/9,9,3,1 N L2,2 L1,1 L1,1 B0 L0,0 I144", "T1,144,28,28/112896,1,4032,144"},
      {"mobilenet_v2", "aten.convolution", "T1,144,28,28/112896,1,4032,144 T32,144,1,1/144,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,32,28,28/25088,1,896,32"},
      {"mobilenet_v2", "aten.convolution", "T1,32,28,28/25088,1,896,32 T192,32,1,1/32,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,192,28,28/150528,1,5376,192"},
      {"mobilenet_v2", "aten.convolution", "T1,192,28,28/150528,1,5376,192 T192,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I192", "T1,192,28,28/150528,1,5376,192"},
      {"mobilenet_v2", "aten.convolution", "T1,192,28,28/150528,1,5376,192 T32,192,1,1/192,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,32,28,28/25088,1,896,32"},
      {"mobilenet_v2", "aten.convolution", "T1,192,28,28/150528,1,5376,192 T192,1,3,3/9,9,3,1 N L2,2 L1,1 L1,1 B0 L0,0 I192", "T1,192,14,14/37632,1,2688,192"},
      {"mobilenet_v2", "aten.convolution", "T1,192,14,14/37632,1,2688,192 T64,192,1,1/192,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,64,14,14/12544,1,896,64"},
      {"mobilenet_v2", "aten.convolution", "T1,64,14,14/12544,1,896,64 T384,64,1,1/64,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,384,14,14/75264,1,5376,384"},
      {"mobilenet_v2", "aten.convolution", "T1,384,14,14/75264,1,5376,384 T384,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I384", "T1,384,14,14/75264,1,5376,384"},
      {"mobilenet_v2", "aten.convolution", "T1,384,14,14/75264,1,5376,384 T64,384,1,1/384,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,64,14,14/12544,1,896,64"},
      {"mobilenet_v2", "aten.convolution", "T1,384,14,14/75264,1,5376,384 T96,384,1,1/384,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,96,14,14/18816,1,1344,96"},
      {"mobilenet_v2", "aten.convolution", "T1,96,14,14/18816,1,1344,96 T576,96,1,1/96,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,576,14,14/112896,1,8064,576"},
      {"mobilenet_v2", "aten.convolution", "T1,576,14,14/112896,1,8064,576 T576,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I576", "T1,576,14,14/112896,1,8064,576"},
      {"mobilenet_v2", "aten.convolution", "T1,576,14,14/112896,1,8064,576 T96,576,1,1/576,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,96,14,14/18816,1,1344,96"},
      {"mobilenet_v2", "aten.convolution", "T1,576,14,14/112896,1,8064,576 T576,1,3,3/9,9,3,1 N L2,2 L1,1 L1,1 B0 L0,0 I576", "T1,576,7,7/28224,1,4032,576"},
      {"mobilenet_v2", "aten.convolution", "T1,576,7,7/28224,1,4032,576 T160,576,1,1/576,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,160,7,7/7840,1,1120,160"},
      {"mobilenet_v2", "aten.convolution", "T1,160,7,7/7840,1,1120,160 T960,160,1,1/160,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,960,7,7/47040,1,6720,960"},
      {"mobilenet_v2", "aten.convolution", "T1,960,7,7/47040,1,6720,960 T960,1,3,3/9,9,3,1 N L1,1 L1,1 L1,1 B0 L0,0 I960", "T1,960,7,7/47040,1,6720,960"},
      {"mobilenet_v2", "aten.convolution", "T1,960,7,7/47040,1,6720,960 T160,960,1,1/960,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,160,7,7/7840,1,1120,160"},
      {"mobilenet_v2", "aten.convolution", "T1,960,7,7/47040,1,6720,960 T320,960,1,1/960,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,320,7,7/15680,1,2240,320"},
      {"mobilenet_v2", "aten.convolution", "T1,320,7,7/15680,1,2240,320 T1280,320,1,1/320,1,1,1 N L1,1 L0,0 L1,1 B0 L0,0 I1", "T1,1280,7,7/62720,1,8960,1280"},
      {"mobilenet_v2", "aten.addmm", "T1000/1 T1,1280/0,1 T1280,1000/1,1280 I1 I1", "T1,1000/1000,1"},
      {"moe", "aten.addmm", "T192/1 T32,64/64,1 T64,192/1,64 I1 I1", "T32,192/192,1"},
      {"moe", "aten.bmm", "T4,32,16/16,192,1 T4,16,32/16,1,192+64", "T4,32,32/1024,32,1"},
      {"moe", "aten.bmm", "T4,32,32/1024,32,1 T4,32,16/16,192,1+128", "T4,32,16/512,16,1"},
      {"moe", "aten.mm", "T32,64/64,1 T64,64/1,64", "T32,64/64,1"},
      {"moe", "aten.mm", "T32,64/64,1 T64,4/1,64", "T32,4/4,1"},
      {"moe", "aten.topk", "T1,32,4/128,4,1 I2 I-1 B1 B1", "T1,32,2/64,2,1 T1,32,2/64,2,1@i64"},
      {"moe", "aten.mm", "T32,64/64,1 T64,128/1,64", "T32,128/128,1"},
      {"moe", "aten.mm", "T32,128/128,1 T128,64/1,128", "T32,64/64,1"},
      {"moe", "aten.mm", "T32,64/64,1 T64,512/1,64", "T32,512/512,1"},
      {"resnet18", "aten.convolution", "T1,3,224,224/150528,1,672,3 T64,3,7,7/147,1,21,3 N L2,2 L3,3 L1,1 B0 L0,0 I1", "T1,64,112,112/802816,1,7168,64"},
      {"resnet18", "aten.convolution", "T1,64,56,56/200704,1,3584,64 T64,64,3,3/576,1,192,64 N L1,1 L1,1 L1,1 B0 L0,0 I1", "T1,64,56,56/200704,1,3584,64"},
      {"resnet18", "aten.convolution", "T1,64,56,56/200704,1,3584,64 T128,64,1,1/64,1,1,1 N L2,2 L0,0 L1,1 B0 L0,0 I1", "T1,128,28,28/100352,1,3584,128"},
      {"resnet18", "aten.convolution", "T1,64,56,56/200704,1,3584,64 T128,64,3,3/576,1,192,64 N L2,2 L1,1 L1,1 B0 L0,0 I1", "T1,128,28,28/100352,1,3584,128"},
      {"resnet18", "aten.convolution", "T1,128,28,28/100352,1,3584,128 T128,128,3,3/1152,1,384,128 N L1,1 L1,1 L1,1 B0 L0,0 I1", "T1,128,28,28/100352,1,3584,128"},
      {"resnet18", "aten.convolution", "T1,128,28,28/100352,1,3584,128 T256,128,1,1/128,1,1,1 N L2,2 L0,0 L1,1 B0 L0,0 I1", "T1,256,14,14/50176,1,3584,256"},
      {"resnet18", "aten.convolution", "T1,128,28,28/100352,1,3584,128 T256,128,3,3/1152,1,384,128 N L2,2 L1,1 L1,1 B0 L0,0 I1", "T1,256,14,14/50176,1,3584,256"},
      {"resnet18", "aten.convolution", "T1,256,14,14/50176,1,3584,256 T256,256,3,3/2304,1,768,256 N L1,1 L1,1 L1,1 B0 L0,0 I1", "T1,256,14,14/50176,1,3584,256"},
      {"resnet18", "aten.convolution", "T1,256,14,14/50176,1,3584,256 T512,256,1,1/256,1,1,1 N L2,2 L0,0 L1,1 B0 L0,0 I1", "T1,512,7,7/25088,1,3584,512"},
      {"resnet18", "aten.convolution", "T1,256,14,14/50176,1,3584,256 T512,256,3,3/2304,1,768,256 N L2,2 L1,1 L1,1 B0 L0,0 I1", "T1,512,7,7/25088,1,3584,512"},
      {"resnet18", "aten.convolution", "T1,512,7,7/25088,1,3584,512 T512,512,3,3/4608,1,1536,512 N L1,1 L1,1 L1,1 B0 L0,0 I1", "T1,512,7,7/25088,1,3584,512"},
      {"resnet18", "aten.addmm", "T1000/1 T1,512/0,1 T512,1000/1,512 I1 I1", "T1,1000/1000,1"},
      {"vit", "aten.convolution", "T1,3,32,32/3072,1,96,3 T64,3,8,8/192,1,24,3 N L8,8 L0,0 L1,1 B0 L0,0 I1", "T1,64,4,4/1024,1,256,64"},
      {"vit", "aten.mm", "T17,64/64,1 T64,192/1,64", "T17,192/192,1"},
      {"vit", "aten._scaled_dot_product_efficient_attention", "T1,2,17,32/1088,32,64,1 T1,2,17,32/1088,32,64,1 T1,2,17,32/1088,32,64,1 N B0 F0.0 B0 N", "T1,2,17,32/1088,32,64,1 T1,2,0/2,1,1 T/@i64 T/@i64"},
      {"vit", "aten.mm", "T17,64/64,1 T64,64/1,64", "T17,64/64,1"},
      {"vit", "aten.mm", "T17,64/64,1 T64,128/1,64", "T17,128/128,1"},
      {"vit", "aten.mm", "T17,128/128,1 T128,64/1,128", "T17,64/64,1"},
      {"vit", "aten.addmm", "T12/1 T1,64/0,1 T64,12/1,64 I1 I1", "T1,12/12,1"},
};
// clang-format on

std::vector<int64_t> integersOf(const std::string &text) {
  std::vector<int64_t> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      values.push_back(std::stoll(item));
  return values;
}

TensorRef tensorOf(CallFixture &fixture, const std::string &token) {
  // T<shape>/<stride>[+offset][@dtype]
  std::string body = token.substr(1);
  core::DType dtype = core::DType::Float32;
  if (const size_t at = body.find('@'); at != std::string::npos) {
    const auto parsed = core::parseDType(body.substr(at + 1));
    if (!parsed)
      throw core::RuntimeError("bundle call table: unknown dtype in " + token);
    dtype = *parsed;
    body = body.substr(0, at);
  }
  int64_t offset = 0;
  if (const size_t plus = body.find('+'); plus != std::string::npos) {
    offset = std::stoll(body.substr(plus + 1));
    body = body.substr(0, plus);
  }
  const size_t slash = body.find('/');
  return fixture.tensor(dtype, integersOf(body.substr(0, slash)), integersOf(body.substr(slash + 1)), offset);
}

CallArgument argumentOf(CallFixture &fixture, const std::string &token) {
  switch (token[0]) {
  case 'T': return CallFixture::arg(tensorOf(fixture, token));
  case 'I': return CallFixture::integer(std::stoll(token.substr(1)));
  case 'F': return CallFixture::number(std::stod(token.substr(1)));
  case 'B': return CallFixture::boolean(token[1] == '1');
  case 'N': return CallFixture::none();
  case 'L': return CallFixture::integers(integersOf(token.substr(1)));
  default: throw core::RuntimeError("bundle call table: bad token " + token);
  }
}

std::vector<std::string> tokens(const char *text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string t;
  while (in >> t)
    out.push_back(t);
  return out;
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Multiply-accumulates of a call, from its operands' shapes.
int64_t macsOf(const BundleCall &c) {
  auto shape = [&](size_t i) { return c.args[i].tensor.shape; };
  if (c.op == "aten.mm")
    return product(shape(0)) * shape(1).back();
  if (c.op == "aten.addmm")
    return product(shape(1)) * shape(2).back();
  if (c.op == "aten.bmm")
    return product(shape(0)) * shape(1).back();
  if (c.op == "aten.convolution") // output elements x (input channels per group x kernel area)
    return product(c.outs[0]->shape) * product(shape(1)) / shape(1)[0];
  if (c.op.find("attention") != std::string::npos) // q k^T and p v
    return product(shape(0)) * shape(1)[2] + product(shape(0)) / shape(0)[3] * shape(1)[2] * shape(2)[3];
  return 0;
}

} // namespace

std::vector<BundleCall> bundleCalls() {
  std::vector<BundleCall> calls;
  for (const Line &line : kLines) {
    BundleCall c;
    c.op = line.op;
    for (const std::string &t : tokens(line.args))
      c.args.push_back(argumentOf(c.fixture, t));
    for (const std::string &t : tokens(line.outs))
      c.outs.push_back(t == "-" ? std::nullopt : std::optional<TensorRef>(tensorOf(c.fixture, t)));
    c.label = std::string(line.bundle) + " " + line.op + " " + line.args;
    c.macs = macsOf(c);
    calls.push_back(std::move(c));
  }
  return calls;
}

} // namespace npusim::library::harness
