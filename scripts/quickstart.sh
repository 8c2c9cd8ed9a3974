#!/usr/bin/env bash
# Installs what is missing, builds npusim, and runs the shipped examples: each
# kernel is checked (one line per kernel) and launched on the reference
# interpreter with generated inputs; outputs land in out/examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
for kernel in examples/kernels/*.py; do
  build/npusim check-kernel "$kernel"
done
build/npusim kernel examples/kernels/gpt2_attention_softmax.py --out out/examples/softmax
build/npusim kernel examples/kernels/layer_norm_welford.py --out out/examples/layer_norm
# Templates bake their sizes in and launch on an explicit grid, so their buffers are sized by hand.
# The conv is 1x128x28x28 (channels last) with a 128x128x3x3 weight: 13 blocks of 64 output pixels.
build/npusim kernel examples/kernels/resnet18_conv_bn_relu_template.py --out out/examples/conv \
  --grid 13,1,1 --size arg_X=100352 --size arg_W=147456 --size out_ptr0=100352
# A whole model: ResNet-18 as captured on a GPU, every launch checked against its fingerprints.
build/npusim run examples/resnet18 --mode reference --verify
