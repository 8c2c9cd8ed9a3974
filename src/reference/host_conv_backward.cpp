// aten.convolution_backward: the gradients of a (not transposed) convolution
// with respect to its input, weight and bias, as output_mask selects, with
// groups, stride, padding and dilation. Per image and group, with the im2col
// gather of the forward convolution (host_conv.cpp):
//   grad_weight_g += grad_out_g @ columns^T
//   grad_columns   = W_g^T @ grad_out_g, scattered back through the gather
//   grad_bias     += grad_out summed over pixels
// Sums run in double, each gradient is rounded once when stored.
#include "reference/host_calls_internal.h"

namespace npusim::reference::host {

namespace {

constexpr std::string_view kConvolutionBackwardOp = "aten.convolution_backward";

/// The result when output_mask asks for it and the call records it.
const TensorView *wanted(const CallArgs &c, const std::vector<bool> &mask, size_t i) {
  return mask[i] ? c.optionalOut(i) : nullptr;
}

} // namespace

std::vector<bool> callConvolutionBackward(const CallArgs &c) {
  const TensorView &gradOutput = c.tensor(0, "grad_output");
  const TensorView &input = c.tensor(1, "input");
  const TensorView &weight = c.tensor(2, "weight");
  const ConvolutionParams p = convolutionParams(c, 4);
  if (p.transposed)
    c.fail(7, "transposed", "the gradients of transposed convolutions are not implemented");
  std::vector<bool> mask;
  for (const HostCallValue &v : c.list(10, "output_mask")) {
    if (v.kind != core::CallKind::Bool)
      c.fail(10, "output_mask",
             std::string("expected three bools, but an element is ") + core::kindName(v.kind));
    mask.push_back(v.boolValue);
  }
  if (mask.size() != 3)
    c.fail(10, "output_mask", "expected three bools, got " + std::to_string(mask.size()));

  checkView(gradOutput, std::string(kConvolutionBackwardOp) + ": grad_output");
  checkView(input, std::string(kConvolutionBackwardOp) + ": input");
  checkView(weight, std::string(kConvolutionBackwardOp) + ": weight");
  const ConvolutionGeometry g = convolutionGeometry(kConvolutionBackwardOp, input, weight, p);
  const TensorView gy = g.batched ? gradOutput : withBatch(gradOutput);
  expectShape(gy, g.outShape, kConvolutionBackwardOp, g.batched ? "grad_output" : "grad_output (unbatched, shown with batch 1)");

  const TensorView *gradInput = wanted(c, mask, 0), *gradWeight = wanted(c, mask, 1),
                   *gradBias = wanted(c, mask, 2);
  if (gradInput) {
    checkView(*gradInput, std::string(kConvolutionBackwardOp) + ": grad_input");
    expectShape(*gradInput, input.shape, kConvolutionBackwardOp, "grad_input");
  }
  if (gradWeight) {
    checkView(*gradWeight, std::string(kConvolutionBackwardOp) + ": grad_weight");
    expectShape(*gradWeight, weight.shape, kConvolutionBackwardOp, "grad_weight");
  }
  if (gradBias) {
    checkView(*gradBias, std::string(kConvolutionBackwardOp) + ": grad_bias");
    expectShape(*gradBias, std::vector<int64_t>{g.outChannels}, kConvolutionBackwardOp, "grad_bias");
  }

  // Read everything before writing: a gradient may alias an input.
  const int64_t rows = g.inPerGroup * g.kVolume, pixels = g.outVolume;
  const std::vector<double> w = readValues(weight); // [C_out, C_in / groups, k...]
  std::vector<std::vector<double>> images, grads;
  for (int64_t n = 0; n < g.batch; ++n) {
    grads.push_back(readValues(select0(gy, n))); // [C_out, pixels]
    if (gradWeight)
      images.push_back(readValues(select0(g.input, n))); // [C_in, D, H, W]
  }
  const std::vector<int64_t> gather = im2colIndex(g);
  std::vector<double> dw(gradWeight ? static_cast<size_t>(g.outChannels * rows) : 0);
  std::vector<double> db(static_cast<size_t>(g.outChannels), 0.0);
  std::vector<double> dx(static_cast<size_t>(g.channels * g.inVolume));
  std::vector<double> columns(gather.size());
  for (int64_t n = 0; n < g.batch; ++n) {
    std::fill(dx.begin(), dx.end(), 0.0);
    const std::vector<double> &dy = grads[static_cast<size_t>(n)];
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      const double *dyg = dy.data() + gr * g.outPerGroup * pixels;
      const double *wg = w.data() + gr * g.outPerGroup * rows;
      if (gradWeight) {
        const double *planes = images[static_cast<size_t>(n)].data() + gr * g.inPerGroup * g.inVolume;
        for (size_t i = 0; i < gather.size(); ++i)
          columns[i] = gather[i] < 0 ? 0.0 : planes[gather[i]];
        for (int64_t oc = 0; oc < g.outPerGroup; ++oc)
          for (int64_t r = 0; r < rows; ++r) {
            double s = 0.0;
            for (int64_t q = 0; q < pixels; ++q)
              s += dyg[oc * pixels + q] * columns[static_cast<size_t>(r * pixels + q)];
            dw[static_cast<size_t>((gr * g.outPerGroup + oc) * rows + r)] += s;
          }
      }
      if (gradInput) {
        double *planes = dx.data() + gr * g.inPerGroup * g.inVolume;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t q = 0; q < pixels; ++q) {
            const int64_t at = gather[static_cast<size_t>(r * pixels + q)];
            if (at < 0)
              continue;
            double s = 0.0;
            for (int64_t oc = 0; oc < g.outPerGroup; ++oc)
              s += wg[oc * rows + r] * dyg[oc * pixels + q];
            planes[at] += s;
          }
      }
    }
    if (gradBias)
      for (int64_t oc = 0; oc < g.outChannels; ++oc)
        for (int64_t q = 0; q < pixels; ++q)
          db[static_cast<size_t>(oc)] += dy[static_cast<size_t>(oc * pixels + q)];
    if (gradInput)
      writeValues(select0(g.batched ? *gradInput : withBatch(*gradInput), n), dx);
  }
  if (gradWeight)
    writeValues(*gradWeight, dw);
  if (gradBias)
    writeValues(*gradBias, db);
  std::vector<bool> defined(c.numOuts(), false);
  for (size_t i = 0; i < defined.size() && i < 3; ++i)
    defined[i] = wanted(c, mask, i) != nullptr;
  return defined;
}

} // namespace npusim::reference::host
