"""npusim: capture PyTorch models (compiled by TorchInductor) into npusim bundles.

Modules:
  generator   the counter-based input generator of docs/bundle-format.md (pure Python and numpy)
  bundle      bundle constants, JSON writing, schema validation, fingerprint matching (no torch)
  models      built-in model specifications (resnet18, bert, llama, moe, mlp, ...)
  capture     `python3 -m npusim.capture SPEC OUT_DIR [--templates] [--train] [--seed N]`
  recorder    the instrumentation used by capture (Inductor launches, aten library calls)
  batch       runs several captures in parallel processes (used to make examples/)
"""

BUNDLE_FORMAT = "npusim-bundle"
BUNDLE_VERSION = 1
