// aten.convolution: N-d (1 to 3 spatial axes) convolution and transposed
// convolution with stride, padding, dilation, groups and bias, as PyTorch
// defines them. Spatial axes are padded to three (leading size-1 axes) so one
// loop nest serves every rank; sums run in double.
#include "reference/host_calls_internal.h"

#include <array>

namespace npusim::reference {

namespace {

constexpr std::string_view kOp = "aten.convolution";
using Dims = std::array<int64_t, 3>;

/// A per-axis parameter list: one value per spatial axis, or one value for all.
Dims expand(const std::vector<int64_t> &values, size_t spatial, int64_t fallback, const std::string &name,
            int64_t minimum) {
  Dims r = {fallback, fallback, fallback};
  if (values.empty())
    return r;
  if (values.size() != 1 && values.size() != spatial)
    host::fail(kOp, name + " has " + std::to_string(values.size()) + " values for " + std::to_string(spatial) +
                       " spatial dimensions");
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t v = values.size() == 1 ? values[0] : values[i];
    if (v < minimum)
      host::fail(kOp, name + " must be at least " + std::to_string(minimum) + ", got " + std::to_string(v));
    r[3 - spatial + i] = v;
  }
  return r;
}

int64_t product(const Dims &d) {
  return d[0] * d[1] * d[2];
}

} // namespace

void convolution(const TensorView &input, const TensorView &weight, const TensorView *bias,
                 const ConvolutionParams &params, const TensorView &out) {
  const int64_t wdim = weight.dim();
  if (wdim < 3 || wdim > 5)
    host::fail(kOp,
              "weight has shape " + shapeString(weight.shape) + "; 1 to 3 spatial dimensions are supported");
  const size_t spatial = static_cast<size_t>(wdim - 2);
  const bool batched = input.dim() == wdim;
  if (!batched && input.dim() != wdim - 1)
    host::fail(kOp, "input has shape " + shapeString(input.shape) + " but weight has shape " +
                       shapeString(weight.shape) + "; expected a " + std::to_string(wdim) + "-d input (or " +
                       std::to_string(wdim - 1) + "-d unbatched)");
  checkView(input, std::string(kOp) + ": input");
  checkView(weight, std::string(kOp) + ": weight");
  checkView(out, std::string(kOp) + ": out");
  const int64_t groups = params.groups;
  if (groups < 1)
    host::fail(kOp, "groups must be positive, got " + std::to_string(groups));

  TensorView in = input, o = out;
  if (!batched) { // [C, ...] -> [1, C, ...]
    in.shape.insert(in.shape.begin(), 1);
    in.stride.insert(in.stride.begin(), 0);
    o.shape.insert(o.shape.begin(), 1);
    o.stride.insert(o.stride.begin(), 0);
  }
  const int64_t batch = in.shape[0], channels = in.shape[1];
  Dims inSize = {1, 1, 1}, kSize = {1, 1, 1};
  for (size_t i = 0; i < spatial; ++i) {
    inSize[3 - spatial + i] = in.shape[2 + i];
    kSize[3 - spatial + i] = weight.shape[2 + i];
  }
  const Dims stride = expand(params.stride, spatial, 1, "stride", 1);
  const Dims padding = expand(params.padding, spatial, 0, "padding", 0);
  const Dims dilation = expand(params.dilation, spatial, 1, "dilation", 1);
  const Dims outputPadding = expand(params.outputPadding, spatial, 0, "output_padding", 0);

  int64_t outChannels = 0, inPerGroup = 0, outPerGroup = 0;
  if (channels % groups != 0)
    host::fail(kOp, "input has " + std::to_string(channels) +
                       " channels, not divisible by groups=" + std::to_string(groups));
  inPerGroup = channels / groups;
  if (!params.transposed) {
    outChannels = weight.shape[0];
    if (outChannels % groups != 0)
      host::fail(kOp, "weight has " + std::to_string(outChannels) +
                         " output channels, not divisible by groups=" + std::to_string(groups));
    if (weight.shape[1] != inPerGroup)
      host::fail(kOp, "weight " + shapeString(weight.shape) + " expects " +
                         std::to_string(weight.shape[1] * groups) + " input channels, but input " +
                         shapeString(input.shape) + " has " + std::to_string(channels));
    outPerGroup = outChannels / groups;
  } else {
    if (weight.shape[0] != channels)
      host::fail(kOp, "transposed weight " + shapeString(weight.shape) + " expects " +
                         std::to_string(weight.shape[0]) + " input channels, but input " +
                         shapeString(input.shape) + " has " + std::to_string(channels));
    outPerGroup = weight.shape[1];
    outChannels = outPerGroup * groups;
  }

  Dims outSize;
  for (size_t a = 0; a < 3; ++a) {
    const int64_t extent = dilation[a] * (kSize[a] - 1) + 1;
    if (!params.transposed) {
      const int64_t span = inSize[a] + 2 * padding[a] - extent;
      if (span < 0)
        host::fail(kOp, "the kernel (dilated size " + std::to_string(extent) +
                           ") is larger than the padded input " + shapeString(input.shape));
      outSize[a] = span / stride[a] + 1;
    } else {
      if (outputPadding[a] >= std::max(stride[a], dilation[a]))
        host::fail(kOp, "output_padding must be smaller than stride or dilation");
      outSize[a] = (inSize[a] - 1) * stride[a] - 2 * padding[a] + extent + outputPadding[a];
      if (outSize[a] < 0)
        host::fail(kOp, "the transposed convolution's output size is negative");
    }
  }
  std::vector<int64_t> expected = {batch, outChannels};
  for (size_t i = 0; i < spatial; ++i)
    expected.push_back(outSize[3 - spatial + i]);
  host::expectShape(o, expected, kOp, batched ? "out" : "out (unbatched, shown with batch 1)");

  std::vector<double> biasValues;
  if (bias) {
    checkView(*bias, std::string(kOp) + ": bias");
    const std::vector<int64_t> biasShape = {outChannels};
    host::expectShape(*bias, biasShape, kOp, "bias");
    biasValues = readValues(*bias);
  }
  const std::vector<double> w = readValues(weight); // [O, Cg, k...] or [C, Og, k...]
  const int64_t kVolume = product(kSize), inVolume = product(inSize), outVolume = product(outSize);

  // Read every image first: out may alias the input.
  std::vector<std::vector<double>> images;
  images.reserve(static_cast<size_t>(batch));
  for (int64_t n = 0; n < batch; ++n)
    images.push_back(readValues(host::select0(in, n))); // contiguous [C, D, H, W]

  std::vector<double> result(static_cast<size_t>(outChannels * outVolume));
  std::vector<double> columns;
  for (int64_t n = 0; n < batch; ++n) {
    const std::vector<double> &x = images[static_cast<size_t>(n)];
    std::fill(result.begin(), result.end(), 0.0);
    for (int64_t g = 0; g < groups; ++g) {
      if (!params.transposed) {
        // im2col: columns[(c, kd, kh, kw), (od, oh, ow)], then W_g @ columns.
        const int64_t rows = inPerGroup * kVolume;
        columns.assign(static_cast<size_t>(rows * outVolume), 0.0);
        for (int64_t c = 0; c < inPerGroup; ++c) {
          const double *plane = x.data() + (g * inPerGroup + c) * inVolume;
          for (int64_t kd = 0; kd < kSize[0]; ++kd)
            for (int64_t kh = 0; kh < kSize[1]; ++kh)
              for (int64_t kw = 0; kw < kSize[2]; ++kw) {
                double *col = columns.data() +
                              ((c * kSize[0] + kd) * kSize[1] * kSize[2] + kh * kSize[2] + kw) * outVolume;
                for (int64_t od = 0; od < outSize[0]; ++od) {
                  const int64_t id = od * stride[0] - padding[0] + kd * dilation[0];
                  if (id < 0 || id >= inSize[0])
                    continue;
                  for (int64_t oh = 0; oh < outSize[1]; ++oh) {
                    const int64_t ih = oh * stride[1] - padding[1] + kh * dilation[1];
                    if (ih < 0 || ih >= inSize[1])
                      continue;
                    const double *rowIn = plane + (id * inSize[1] + ih) * inSize[2];
                    double *rowOut = col + (od * outSize[1] + oh) * outSize[2];
                    for (int64_t ow = 0; ow < outSize[2]; ++ow) {
                      const int64_t iw = ow * stride[2] - padding[2] + kw * dilation[2];
                      if (iw >= 0 && iw < inSize[2])
                        rowOut[ow] = rowIn[iw];
                    }
                  }
                }
              }
        }
        host::gemm(w.data() + g * outPerGroup * rows, columns.data(),
                  result.data() + g * outPerGroup * outVolume, outPerGroup, rows, outVolume);
      } else {
        // Scatter: out[o, x * stride - padding + k * dilation] += in[c, x] * w[c, o, k].
        for (int64_t c = 0; c < inPerGroup; ++c) {
          const double *plane = x.data() + (g * inPerGroup + c) * inVolume;
          for (int64_t oc = 0; oc < outPerGroup; ++oc) {
            const double *wk = w.data() + ((g * inPerGroup + c) * outPerGroup + oc) * kVolume;
            double *dst = result.data() + (g * outPerGroup + oc) * outVolume;
            for (int64_t kd = 0; kd < kSize[0]; ++kd)
              for (int64_t kh = 0; kh < kSize[1]; ++kh)
                for (int64_t kw = 0; kw < kSize[2]; ++kw) {
                  const double wv = wk[(kd * kSize[1] + kh) * kSize[2] + kw];
                  for (int64_t id = 0; id < inSize[0]; ++id) {
                    const int64_t od = id * stride[0] - padding[0] + kd * dilation[0];
                    if (od < 0 || od >= outSize[0])
                      continue;
                    for (int64_t ih = 0; ih < inSize[1]; ++ih) {
                      const int64_t oh = ih * stride[1] - padding[1] + kh * dilation[1];
                      if (oh < 0 || oh >= outSize[1])
                        continue;
                      const double *rowIn = plane + (id * inSize[1] + ih) * inSize[2];
                      double *rowOut = dst + (od * outSize[1] + oh) * outSize[2];
                      for (int64_t iw = 0; iw < inSize[2]; ++iw) {
                        const int64_t ow = iw * stride[2] - padding[2] + kw * dilation[2];
                        if (ow >= 0 && ow < outSize[2])
                          rowOut[ow] += rowIn[iw] * wv;
                      }
                    }
                  }
                }
          }
        }
      }
    }
    if (bias)
      for (int64_t oc = 0; oc < outChannels; ++oc)
        for (int64_t p = 0; p < outVolume; ++p)
          result[static_cast<size_t>(oc * outVolume + p)] += biasValues[static_cast<size_t>(oc)];
    writeValues(host::select0(o, n), result);
  }
}

} // namespace npusim::reference
