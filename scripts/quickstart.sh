#!/usr/bin/env bash
# Installs what is missing, builds npusim, and runs the shipped examples: each
# kernel is checked (one line per kernel), compiled for the NPU and launched with
# generated inputs; outputs land in out/examples/. Then a whole model on the NPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
for kernel in examples/kernels/*.py; do
  build/npusim check-kernel "$kernel"
done
build/npusim compile examples/kernels/layer_norm_welford.py
build/npusim kernel examples/kernels/gpt2_attention_softmax.py --mode full --out out/examples/softmax
build/npusim kernel examples/kernels/layer_norm_welford.py --mode full --out out/examples/layer_norm
# Templates bake their sizes in and launch on an explicit grid, so their buffers are sized by hand.
# The conv is 1x128x28x28 (channels last) with a 128x128x3x3 weight: 13 blocks of 64 output pixels.
build/npusim kernel examples/kernels/resnet18_conv_bn_relu_template.py --mode full --out out/examples/conv \
  --grid 13,1,1 --size arg_X=100352 --size arg_W=147456 --size out_ptr0=100352
# A whole model: ResNet-18 as captured on a GPU, every step compiled for the NPU, run for
# values and cycles, and checked against the reference interpreter and the GPU's fingerprints.
mkdir -p out/examples
build/npusim run examples/resnet18 --verify --report out/examples/resnet18-report.json \
  --trace out/examples/resnet18-trace.json
