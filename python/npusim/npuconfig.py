"""NPU configurations and the Inductor template block sizes for them.

``load(config)`` reads a preset name or a YAML file through npusim's own loader (the
extension's ``npusim.load_config``, the same code as ``npusim run --config``: every key
of docs/config.md, ``base`` files, DRAM and NoC models, timing overrides, and errors
naming the file, line and key) and returns the resolved values the capture uses.

``template_blocks(cfg)`` chooses the block sizes of Inductor's Triton GEMM/convolution
templates for the NPU: BLOCK_N = lanes (the N axis on the lanes), but at least 16
(Triton's ``tl.dot`` on the GPU needs N >= 16); BLOCK_M in {128, 64} and BLOCK_K in
{64, 32}, keeping only the pairs whose fp32 A (M x K), B (K x N) and C (M x N) tiles fit
the scratchpad (lanes * spad_kib_per_lane KiB).

``restrict_inductor_templates(blocks, log)`` makes Inductor's template heuristics
(torch/_inductor/template_heuristics, torch 2.8+) offer only those configurations
for mm/addmm/bmm (``mm_configs``) and convolutions (``conv_configs``).
"""

import dataclasses
import os

MIN_DOT_N = 16  # tl.dot on the GPU needs every dimension >= 16
BLOCK_M_CHOICES = (128, 64)
BLOCK_K_CHOICES = (64, 32)
FP32_BYTES = 4
# The resolved values load() returns: attributes of npusim.Config.
CONFIG_FIELDS = ("name", "source", "cores", "core_freq_mhz", "lanes", "vlen_bits", "spad_kib_per_lane",
                 "systolic_arrays_per_core")


class ConfigError(ValueError):
    pass


def load(config):
    """The configuration of a preset name or a YAML file (a path) as a dict of
    CONFIG_FIELDS, resolved by npusim's loader. Raises ConfigError with the loader's
    message (file, line, key) for a bad file, and when the extension is not built."""
    from . import api

    path = os.fspath(config)
    try:
        cfg = api.load_config(path)
    except ImportError as e:
        raise ConfigError(f"{path}: reading an NPU configuration needs npusim's extension ({e})") from e
    except Exception as e:  # noqa: BLE001 - the extension's npusim.InputError and its kin
        raise ConfigError(str(e)) from e
    return {field: getattr(cfg, field) for field in CONFIG_FIELDS}


def template_blocks(cfg):
    """The block sizes for the NPU of cfg (see the module docstring)."""
    lanes = cfg["lanes"]
    block_n = max(lanes, MIN_DOT_N)
    budget = lanes * cfg["spad_kib_per_lane"] * 1024
    pairs = []
    for bm in BLOCK_M_CHOICES:
        for bk in BLOCK_K_CHOICES:
            tiles = (bm * bk + bk * block_n + bm * block_n) * FP32_BYTES
            if tiles <= budget:
                pairs.append({"block_m": bm, "block_k": bk, "tile_bytes": tiles})
    if not pairs:
        raise ConfigError(f"no BLOCK_M in {BLOCK_M_CHOICES} and BLOCK_K in {BLOCK_K_CHOICES} "
                          f"fit the fp32 tiles with BLOCK_N {block_n} into {budget} bytes of "
                          "scratchpad")
    return {"lanes": lanes, "vlen_bits": cfg["vlen_bits"],
            "spad_kib_per_lane": cfg["spad_kib_per_lane"], "spad_bytes": budget,
            "block_n": block_n, "block_n_raised_for_gpu_dot": block_n != lanes,
            "candidates": pairs}


REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRESETS = os.path.join(REPO_ROOT, "configs")


def provenance(path, blocks):
    """The bundle's model.npu_config: the file (relative to the repository root when it
    lies inside it) and the block sizes."""
    full = os.path.abspath(path)
    rel = os.path.relpath(full, REPO_ROOT)
    d = {"file": rel.replace(os.sep, "/") if not rel.startswith("..") else path}
    d.update({k: v for k, v in blocks.items()})
    return d


def _new_configs(old, blocks):
    """Configurations of the type of old's items, with the NPU's block sizes."""
    if not old:
        return None
    proto = old[0]
    out = []
    for p in blocks["candidates"]:
        fields = dict(block_m=p["block_m"], block_n=blocks["block_n"], block_k=p["block_k"],
                      num_stages=2, num_warps=8 if p["block_m"] >= 128 else 4)
        if dataclasses.is_dataclass(proto):
            names = {f.name for f in dataclasses.fields(proto)}
            out.append(dataclasses.replace(proto, **{k: v for k, v in fields.items() if k in names}))
        elif isinstance(proto, tuple) and len(proto) >= 5:  # older torch: (m, n, k, stages, warps)
            out.append(type(proto)((fields["block_m"], fields["block_n"], fields["block_k"],
                                    fields["num_stages"], fields["num_warps"]) + tuple(proto[5:])))
        else:
            raise ConfigError(f"unknown template configuration type {type(proto).__name__}")
    return out


TEMPLATE_ATTRS = ("mm_configs", "conv_configs")


def restrict_inductor_templates(blocks, log=print):
    """Patches Inductor's template heuristics to offer only the NPU's block sizes for GEMM
    and convolution templates. Returns a description of what was patched; raises
    ConfigError when this torch has none of the known hooks."""
    try:
        import torch._inductor.template_heuristics.triton as th
    except ImportError:
        try:
            import torch._inductor.template_heuristics as th
        except ImportError as e:
            raise ConfigError("this torch has no torch._inductor.template_heuristics; "
                              "--config needs torch >= 2.8") from e
    base = getattr(th, "BaseConfigHeuristic", None)
    if base is None:
        raise ConfigError(f"{th.__name__} has no BaseConfigHeuristic; --config does not "
                          "know how to restrict this torch's template configurations")
    seen = {}

    def apply(obj):
        for attr in TEMPLATE_ATTRS:
            old = getattr(obj, attr, None)
            mine = obj.__dict__.setdefault("_npusim_lists", {})
            if isinstance(old, list) and old and mine.get(attr) is not old:
                new = _new_configs(old, blocks)
                setattr(obj, attr, new)
                mine[attr] = new
                seen.setdefault(type(obj).__name__, set()).add(attr)

    classes = [c for c in vars(th).values()
               if isinstance(c, type) and issubclass(c, base) and "__init__" in vars(c)]
    for cls in classes:
        orig = vars(cls)["__init__"]
        if getattr(orig, "_npusim_wrapped", False):
            continue

        def init(self, *a, _orig=orig, **k):
            _orig(self, *a, **k)
            apply(self)

        init._npusim_wrapped = True
        cls.__init__ = init
    # Instances made before this call (the heuristics are singletons in some versions).
    for holder in (getattr(th, "BaseHeuristicSingleton", None),):
        for inst in list(getattr(holder, "_instances", {}).values()):
            apply(inst)
    # A fresh instance proves the hook works.
    probe = None
    for name in ("CUDAConfigHeuristic", "BaseConfigHeuristic"):
        cls = getattr(th, name, None)
        if cls is not None:
            try:
                probe = cls()
                break
            except Exception as e:  # noqa: BLE001
                log(f"  could not instantiate {name} to check the patch: {e!r}")
    if probe is not None:
        mine = getattr(probe, "_npusim_lists", {})
        missing = [a for a in TEMPLATE_ATTRS if getattr(probe, a, None) is not mine.get(a, 0)]
        if "mm_configs" in missing:
            raise ConfigError(f"{type(probe).__name__}() has no mm_configs list after the "
                              "patch; this torch's template heuristics are not supported")
        if missing:
            log(f"  note: {type(probe).__name__} has no {', '.join(missing)}")
        log(f"  template configs for the NPU: {getattr(probe, 'mm_configs', None)}")
    return {"module": th.__name__, "wrapped_classes": sorted(c.__name__ for c in classes),
            "patched_instances": {k: sorted(v) for k, v in seen.items()}}
