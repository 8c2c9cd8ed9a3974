// aten.convolution: N-d (1 to 3 spatial axes) convolution and transposed
// convolution with stride, padding, dilation, groups and bias, as PyTorch
// defines them. Spatial axes are padded to three (leading size-1 axes) so one
// loop nest serves every rank; sums run in double. The geometry and the im2col
// gather are shared with aten.convolution_backward (host_conv_backward.cpp).
#include "reference/host_calls_internal.h"

#include <array>

namespace npusim::reference {

namespace {

using Dims = host::ConvolutionGeometry::Dims;

/// A per-axis parameter list: one value per spatial axis, or one value for all.
Dims expand(std::string_view op, const std::vector<int64_t> &values, size_t spatial, int64_t fallback,
            const std::string &name, int64_t minimum) {
  Dims r = {fallback, fallback, fallback};
  if (values.empty())
    return r;
  if (values.size() != 1 && values.size() != spatial)
    host::fail(op, name + " has " + std::to_string(values.size()) + " values for " + std::to_string(spatial) +
                       " spatial dimensions");
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t v = values.size() == 1 ? values[0] : values[i];
    if (v < minimum)
      host::fail(op, name + " must be at least " + std::to_string(minimum) + ", got " + std::to_string(v));
    r[3 - spatial + i] = v;
  }
  return r;
}

int64_t product(const Dims &d) {
  return d[0] * d[1] * d[2];
}

} // namespace

namespace host {

TensorView withBatch(const TensorView &v) {
  TensorView r = v;
  r.shape.insert(r.shape.begin(), 1);
  r.stride.insert(r.stride.begin(), 0);
  return r;
}

ConvolutionParams convolutionParams(const CallArgs &c, size_t strideAt) {
  ConvolutionParams p;
  p.stride = c.integers(strideAt, "stride");
  p.padding = c.integers(strideAt + 1, "padding");
  p.dilation = c.integers(strideAt + 2, "dilation");
  p.transposed = c.boolean(strideAt + 3, "transposed");
  p.outputPadding = c.integers(strideAt + 4, "output_padding");
  p.groups = c.integer(strideAt + 5, "groups");
  return p;
}

ConvolutionGeometry convolutionGeometry(std::string_view op, const TensorView &input,
                                        const TensorView &weight, const ConvolutionParams &params) {
  const int64_t wdim = weight.dim();
  if (wdim < 3 || wdim > 5)
    fail(op, "weight has shape " + shapeString(weight.shape) + "; 1 to 3 spatial dimensions are supported");
  ConvolutionGeometry g;
  g.spatial = static_cast<size_t>(wdim - 2);
  g.batched = input.dim() == wdim;
  if (!g.batched && input.dim() != wdim - 1)
    fail(op, "input has shape " + shapeString(input.shape) + " but weight has shape " +
                 shapeString(weight.shape) + "; expected a " + std::to_string(wdim) + "-d input (or " +
                 std::to_string(wdim - 1) + "-d unbatched)");
  g.groups = params.groups;
  if (g.groups < 1)
    fail(op, "groups must be positive, got " + std::to_string(g.groups));
  g.input = g.batched ? input : withBatch(input); // [C, ...] -> [1, C, ...]
  g.batch = g.input.shape[0];
  g.channels = g.input.shape[1];
  for (size_t i = 0; i < g.spatial; ++i) {
    g.inSize[3 - g.spatial + i] = g.input.shape[2 + i];
    g.kSize[3 - g.spatial + i] = weight.shape[2 + i];
  }
  g.stride = expand(op, params.stride, g.spatial, 1, "stride", 1);
  g.padding = expand(op, params.padding, g.spatial, 0, "padding", 0);
  g.dilation = expand(op, params.dilation, g.spatial, 1, "dilation", 1);
  g.outputPadding = expand(op, params.outputPadding, g.spatial, 0, "output_padding", 0);

  if (g.channels % g.groups != 0)
    fail(op, "input has " + std::to_string(g.channels) +
                 " channels, not divisible by groups=" + std::to_string(g.groups));
  g.inPerGroup = g.channels / g.groups;
  if (!params.transposed) {
    g.outChannels = weight.shape[0];
    if (g.outChannels % g.groups != 0)
      fail(op, "weight has " + std::to_string(g.outChannels) +
                   " output channels, not divisible by groups=" + std::to_string(g.groups));
    if (weight.shape[1] != g.inPerGroup)
      fail(op, "weight " + shapeString(weight.shape) + " expects " +
                   std::to_string(weight.shape[1] * g.groups) + " input channels, but input " +
                   shapeString(input.shape) + " has " + std::to_string(g.channels));
    g.outPerGroup = g.outChannels / g.groups;
  } else {
    if (weight.shape[0] != g.channels)
      fail(op, "transposed weight " + shapeString(weight.shape) + " expects " +
                   std::to_string(weight.shape[0]) + " input channels, but input " +
                   shapeString(input.shape) + " has " + std::to_string(g.channels));
    g.outPerGroup = weight.shape[1];
    g.outChannels = g.outPerGroup * g.groups;
  }

  for (size_t a = 0; a < 3; ++a) {
    const int64_t extent = g.dilation[a] * (g.kSize[a] - 1) + 1;
    if (!params.transposed) {
      const int64_t span = g.inSize[a] + 2 * g.padding[a] - extent;
      if (span < 0)
        fail(op, "the kernel (dilated size " + std::to_string(extent) + ") is larger than the padded input " +
                     shapeString(input.shape));
      g.outSize[a] = span / g.stride[a] + 1;
    } else {
      if (g.outputPadding[a] >= std::max(g.stride[a], g.dilation[a]))
        fail(op, "output_padding must be smaller than stride or dilation");
      g.outSize[a] = (g.inSize[a] - 1) * g.stride[a] - 2 * g.padding[a] + extent + g.outputPadding[a];
      if (g.outSize[a] < 0)
        fail(op, "the transposed convolution's output size is negative");
    }
  }
  g.outShape = {g.batch, g.outChannels};
  for (size_t i = 0; i < g.spatial; ++i)
    g.outShape.push_back(g.outSize[3 - g.spatial + i]);
  g.kVolume = product(g.kSize);
  g.inVolume = product(g.inSize);
  g.outVolume = product(g.outSize);
  return g;
}

std::vector<int64_t> im2colIndex(const ConvolutionGeometry &g) {
  const Dims &k = g.kSize, &in = g.inSize, &out = g.outSize;
  std::vector<int64_t> index(static_cast<size_t>(g.inPerGroup * g.kVolume * g.outVolume), -1);
  for (int64_t c = 0; c < g.inPerGroup; ++c)
    for (int64_t kd = 0; kd < k[0]; ++kd)
      for (int64_t kh = 0; kh < k[1]; ++kh)
        for (int64_t kw = 0; kw < k[2]; ++kw) {
          int64_t *col = index.data() + ((c * k[0] + kd) * k[1] * k[2] + kh * k[2] + kw) * g.outVolume;
          for (int64_t od = 0; od < out[0]; ++od) {
            const int64_t id = od * g.stride[0] - g.padding[0] + kd * g.dilation[0];
            if (id < 0 || id >= in[0])
              continue;
            for (int64_t oh = 0; oh < out[1]; ++oh) {
              const int64_t ih = oh * g.stride[1] - g.padding[1] + kh * g.dilation[1];
              if (ih < 0 || ih >= in[1])
                continue;
              const int64_t rowIn = (c * in[0] + id) * in[1] * in[2] + ih * in[2];
              int64_t *rowOut = col + (od * out[1] + oh) * out[2];
              for (int64_t ow = 0; ow < out[2]; ++ow) {
                const int64_t iw = ow * g.stride[2] - g.padding[2] + kw * g.dilation[2];
                if (iw >= 0 && iw < in[2])
                  rowOut[ow] = rowIn + iw;
              }
            }
          }
        }
  return index;
}

} // namespace host

void convolution(const TensorView &input, const TensorView &weight, const TensorView *bias,
                 const ConvolutionParams &params, const TensorView &out) {
  constexpr std::string_view kOp = "aten.convolution";
  checkView(input, std::string(kOp) + ": input");
  checkView(weight, std::string(kOp) + ": weight");
  checkView(out, std::string(kOp) + ": out");
  const host::ConvolutionGeometry g = host::convolutionGeometry(kOp, input, weight, params);
  const TensorView o = g.batched ? out : host::withBatch(out);
  host::expectShape(o, g.outShape, kOp, g.batched ? "out" : "out (unbatched, shown with batch 1)");
  const Dims &kSize = g.kSize, &inSize = g.inSize, &outSize = g.outSize;
  const Dims &stride = g.stride, &padding = g.padding, &dilation = g.dilation;
  const int64_t groups = g.groups, inPerGroup = g.inPerGroup, outPerGroup = g.outPerGroup;
  const int64_t outChannels = g.outChannels, batch = g.batch;

  std::vector<double> biasValues;
  if (bias) {
    checkView(*bias, std::string(kOp) + ": bias");
    const std::vector<int64_t> biasShape = {outChannels};
    host::expectShape(*bias, biasShape, kOp, "bias");
    biasValues = readValues(*bias);
  }
  const std::vector<double> w = readValues(weight); // [O, Cg, k...] or [C, Og, k...]
  const int64_t kVolume = g.kVolume, inVolume = g.inVolume, outVolume = g.outVolume;

  // Read every image first: out may alias the input.
  std::vector<std::vector<double>> images;
  images.reserve(static_cast<size_t>(batch));
  for (int64_t n = 0; n < batch; ++n)
    images.push_back(readValues(host::select0(g.input, n))); // contiguous [C, D, H, W]

  const std::vector<int64_t> gather = params.transposed ? std::vector<int64_t>{} : host::im2colIndex(g);
  std::vector<double> result(static_cast<size_t>(outChannels * outVolume));
  std::vector<double> columns(gather.size());
  for (int64_t n = 0; n < batch; ++n) {
    const std::vector<double> &x = images[static_cast<size_t>(n)];
    std::fill(result.begin(), result.end(), 0.0);
    for (int64_t gr = 0; gr < groups; ++gr) {
      if (!params.transposed) {
        // im2col: columns[(c, kd, kh, kw), (od, oh, ow)], then W_g @ columns.
        const double *planes = x.data() + gr * inPerGroup * inVolume;
        for (size_t i = 0; i < gather.size(); ++i)
          columns[i] = gather[i] < 0 ? 0.0 : planes[gather[i]];
        const int64_t rows = inPerGroup * kVolume;
        host::gemm(w.data() + gr * outPerGroup * rows, columns.data(),
                   result.data() + gr * outPerGroup * outVolume, outPerGroup, rows, outVolume);
      } else {
        // Scatter: out[o, x * stride - padding + k * dilation] += in[c, x] * w[c, o, k].
        for (int64_t c = 0; c < inPerGroup; ++c) {
          const double *plane = x.data() + (gr * inPerGroup + c) * inVolume;
          for (int64_t oc = 0; oc < outPerGroup; ++oc) {
            const double *wk = w.data() + ((gr * inPerGroup + c) * outPerGroup + oc) * kVolume;
            double *dst = result.data() + (gr * outPerGroup + oc) * outVolume;
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
