"""NPU configurations read through npusim's loader, and the template block sizes chosen
for them (no torch). Needs the extension built (-DNPUSIM_PYTHON=ON)."""

import os
import tempfile
import unittest

from npusim import npuconfig

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def preset_file(name):
    return os.path.join(ROOT, "configs", name + ".yaml")


def write_yaml(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class TestNpuConfig(unittest.TestCase):
    def test_presets(self):
        # The values written in configs/*.yaml.
        v3 = npuconfig.load(preset_file("tpuv3-like"))
        self.assertEqual((v3["cores"], v3["core_freq_mhz"], v3["lanes"], v3["vlen_bits"],
                          v3["spad_kib_per_lane"], v3["systolic_arrays_per_core"]),
                         (1, 940, 128, 256, 128, 2))
        v4 = npuconfig.load(preset_file("tpuv4-like"))
        self.assertEqual((v4["core_freq_mhz"], v4["systolic_arrays_per_core"]), (1050, 4))
        edge = npuconfig.load(preset_file("edge-8lane"))
        self.assertEqual((edge["lanes"], edge["spad_kib_per_lane"], edge["systolic_arrays_per_core"]), (8, 32, 1))
        self.assertEqual(npuconfig.load("edge-8lane")["lanes"], 8)  # a preset by name

    def test_every_key_the_loader_takes(self):
        # Keys beyond the presets' own (models, timing overrides, a base file) are the
        # loader's to judge, as for `npusim run --config`.
        with tempfile.TemporaryDirectory() as folder:
            path = write_yaml(folder, "npu.yaml", "base: tpuv3-like\nlanes: 64\ndram_model: fixed_latency\n"
                                                  "noc_model: crossbar\ndram_timing:\n  n_cl: 20\n")
            cfg = npuconfig.load(path)
            self.assertEqual((cfg["lanes"], cfg["core_freq_mhz"], cfg["spad_kib_per_lane"]), (64, 940, 128))
            self.assertEqual(npuconfig.template_blocks(cfg)["block_n"], 64)

    def test_errors_name_the_file_line_and_key(self):
        with tempfile.TemporaryDirectory() as folder:
            for text, line, key in (("lanes: 8\nbogus: 1\n", 2, "bogus"), ("lanes: 0\n", 1, "lanes"),
                                    ("base: tpuv3-lke\n", 1, "base")):
                path = write_yaml(folder, "bad.yaml", text)
                with self.assertRaises(npuconfig.ConfigError, msg=text) as caught:
                    npuconfig.load(path)
                message = str(caught.exception)
                self.assertIn(f"bad.yaml:{line}", message)
                self.assertIn(key, message)
        with self.assertRaises(npuconfig.ConfigError):
            npuconfig.load(os.path.join(ROOT, "configs", "no-such-file.yaml"))

    def test_blocks(self):
        v3 = npuconfig.load(preset_file("tpuv3-like"))
        b = npuconfig.template_blocks(v3)
        self.assertEqual(b["block_n"], 128)
        self.assertFalse(b["block_n_raised_for_gpu_dot"])
        self.assertEqual([(c["block_m"], c["block_k"]) for c in b["candidates"]],
                         [(128, 64), (128, 32), (64, 64), (64, 32)])
        edge = npuconfig.load(preset_file("edge-8lane"))
        b = npuconfig.template_blocks(edge)
        self.assertEqual(b["block_n"], 16)  # 8 lanes, raised to tl.dot's minimum
        self.assertTrue(b["block_n_raised_for_gpu_dot"])
        tiny = dict(edge, lanes=16, spad_kib_per_lane=1)  # 16 KiB: only 64x32 fits (14 KiB)
        self.assertEqual([(c["block_m"], c["block_k"]) for c in npuconfig.template_blocks(tiny)["candidates"]],
                         [(64, 32)])
        with self.assertRaises(npuconfig.ConfigError):
            npuconfig.template_blocks(dict(edge, spad_kib_per_lane=1))  # 8 KiB: nothing fits


if __name__ == "__main__":
    unittest.main()
