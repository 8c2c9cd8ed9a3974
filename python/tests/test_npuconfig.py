"""NPU presets (configs/*.yaml) and the template block sizes chosen for them (no torch)."""

import os
import unittest

from npusim import npuconfig

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


class TestNpuConfig(unittest.TestCase):
    def test_presets(self):
        v3 = npuconfig.load(os.path.join(ROOT, "configs", "tpuv3-like.yaml"))
        self.assertEqual((v3["num_cores"], v3["core_freq_mhz"], v3["lanes"], v3["vlen_bits"],
                          v3["spad_kib_per_lane"], v3["systolic_arrays_per_core"], v3["dram"],
                          v3["dram_channels"], v3["dram_freq_mhz"], v3["noc_latency_cycles"]),
                         (1, 940, 128, 256, 128, 2, "hbm2-tpuv3", 16, 940, 10))
        v4 = npuconfig.load(os.path.join(ROOT, "configs", "tpuv4-like.yaml"))
        self.assertEqual((v4["core_freq_mhz"], v4["systolic_arrays_per_core"], v4["dram_freq_mhz"]),
                         (1050, 4, 1200))
        edge = npuconfig.load(os.path.join(ROOT, "configs", "edge-8lane.yaml"))
        self.assertEqual((edge["lanes"], edge["spad_kib_per_lane"], edge["systolic_arrays_per_core"],
                          edge["dram"]), (8, 32, 1, "ddr4"))

    def test_blocks(self):
        v3 = npuconfig.load(os.path.join(ROOT, "configs", "tpuv3-like.yaml"))
        b = npuconfig.template_blocks(v3)
        self.assertEqual(b["block_n"], 128)
        self.assertFalse(b["block_n_raised_for_gpu_dot"])
        self.assertEqual([(c["block_m"], c["block_k"]) for c in b["candidates"]],
                         [(128, 64), (128, 32), (64, 64), (64, 32)])
        edge = npuconfig.load(os.path.join(ROOT, "configs", "edge-8lane.yaml"))
        b = npuconfig.template_blocks(edge)
        self.assertEqual(b["block_n"], 16)  # 8 lanes, raised to tl.dot's minimum
        self.assertTrue(b["block_n_raised_for_gpu_dot"])
        tiny = dict(edge, lanes=16, spad_kib_per_lane=1)  # 16 KiB: only 64x32 fits (14 KiB)
        self.assertEqual([(c["block_m"], c["block_k"]) for c in npuconfig.template_blocks(tiny)["candidates"]],
                         [(64, 32)])
        with self.assertRaises(npuconfig.ConfigError):
            npuconfig.template_blocks(dict(edge, spad_kib_per_lane=1))  # 8 KiB: nothing fits

    def test_parse_errors(self):
        ok = "lanes: 8  # lanes\ndram: 'hbm2'\n\n# comment\n"
        self.assertEqual(npuconfig.parse(ok), {"lanes": 8, "dram": "hbm2"})
        for bad in ("lanes 8", "lanes: 8\nlanes: 9", "  lanes: 8", "lanes:"):
            with self.assertRaises(npuconfig.ConfigError, msg=bad):
                npuconfig.parse(bad)
        good = npuconfig.parse(open(os.path.join(ROOT, "configs", "tpuv3-like.yaml")).read())
        for k, v in (("lanes", 0), ("lanes", "many"), ("dram", 3), ("bogus", 1)):
            with self.assertRaises(npuconfig.ConfigError, msg=(k, v)):
                npuconfig.check(dict(good, **{k: v}))
        with self.assertRaises(npuconfig.ConfigError):
            npuconfig.check({k: v for k, v in good.items() if k != "noc_latency_cycles"})


if __name__ == "__main__":
    unittest.main()
