#pragma once
// The planners of each kernel family (internal): each reads its operator's
// arguments, checks them and returns the launches of its kernels.
#include "library/plan_support.h"

namespace npusim::library::detail {

/// mm, addmm, bmm, baddbmm: one batched GEMM launch with a bias/alpha/beta epilogue.
enum class GemmOp { Mm, Addmm, Bmm, Baddbmm };
CallPlan planGemm(const CallArgs &call, GemmOp op, const MachineShape &machine);
/// The batched GEMM launch c[i] = alpha * a[i] @ b[i] + beta * bias[i] over
/// checked rank-3 views (bias, when given, already broadcast to c's shape).
KernelLaunch gemmLaunch(const TensorRef &a, const TensorRef &b, const TensorRef *bias, const TensorRef &c,
                        double alpha, double beta, const MachineShape &machine);

/// convolution / _convolution: implicit GEMM, or the vector-unit kernel for
/// depthwise convolutions.
CallPlan planConvolution(const CallArgs &call, const MachineShape &machine);

/// The scaled-dot-product attention kernels (efficient, flash, cuDNN, CPU
/// flash): one flash-attention launch each.
CallPlan planAttention(const CallArgs &call, const MachineShape &machine);

/// topk(self, k, dim, largest, sorted).
CallPlan planTopk(const CallArgs &call, const MachineShape &machine);

/// _grouped_mm and transformers.grouped_mm_fallback: a GEMM per row group, the
/// groups read from offs by each program (kernels_grouped_mm.cpp).
CallPlan planGroupedMm(const CallArgs &call, const MachineShape &machine);

/// convolution_backward of 2-d convolutions: implicit GEMMs for the weight and
/// input gradients, a channel sum for the bias (kernels_conv_backward.cpp).
CallPlan planConvolutionBackward(const CallArgs &call, const MachineShape &machine);

/// histc(self, bins, min, max): per block of bins a pass over every element (kernels_histc.cpp).
CallPlan planHistc(const CallArgs &call, const MachineShape &machine);

} // namespace npusim::library::detail
