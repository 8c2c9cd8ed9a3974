#!/usr/bin/env python3
"""Opens an npusim page in headless Chromium: no console message at all, the
script ran (body data-sortable-tables), the charts drew as many elements as the
data behind the page says, and a screenshot is saved (a CI artifact).

    browser_check.py --npusim BIN --chromium BIN --data DIR --out DIR [--page run|compare|sweep|serve ...]

The pages are checked at the same time: each check mostly waits on Chromium.
"""

import argparse
import csv
import html.parser
import json
import os
import shutil
import subprocess
import sys
import concurrent.futures


class Elements(html.parser.HTMLParser):
    """Counts the chart elements of the DOM Chromium dumps after the scripts ran."""

    def __init__(self):
        super().__init__()
        self.counts = {"svg.chart": 0, "circle.point": 0, "polyline.series": 0, "table": 0}
        self.body = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        for key in ("svg.chart", "circle.point", "polyline.series"):
            name, cls = key.split(".")
            if tag == name and cls in classes:
                self.counts[key] += 1
        if tag == "table":
            self.counts["table"] += 1
        if tag == "body":
            self.body = a


def npusim(options, *args):
    subprocess.run([options.npusim] + list(args), check=True, stdout=subprocess.DEVNULL)


def build_page(options, name):
    """Writes the page; returns its path and the element counts its data implies."""
    out, tiny = options.out, os.path.join(options.data, "bundles", "tiny")
    if name == "run":
        page, report = os.path.join(out, "run.html"), os.path.join(out, "run.json")
        npusim(options, "run", tiny, "--mode", "timing", "--html", page, "--report", report, "--quiet")
        steps = json.load(open(report))["steps"]
        timed = [s["timing"] for s in steps if "timing" in s]
        with_macs = [t for t in timed if t["macs"] > 0 and t["dram_bytes_read"] + t["dram_bytes_written"] > 0]
        # Roofline, utilisation, DRAM bandwidth, power over time; a point per
        # step with MACs. Tables: the steps, the energy's parts, each step's energy.
        return page, {"svg.chart": 4, "circle.point": len(with_macs), "table": 3}
    if name == "compare":
        a, b = os.path.join(out, "a.json"), os.path.join(out, "b.json")
        npusim(options, "run", tiny, "--mode", "timing", "--report", a, "--quiet")
        npusim(options, "run", tiny, "--mode", "timing", "--config", "edge-8lane", "--report", b, "--quiet")
        page = os.path.join(out, "compare.html")
        npusim(options, "compare", a, b, "--html", page)
        timed = [s for s in json.load(open(a))["steps"] if "timing" in s]
        return page, {"svg.chart": 1, "circle.point": len(timed), "polyline.series": 1, "table": 1}
    if name == "serve":
        scenario = os.path.normpath(os.path.join(options.data, "..", "..", "examples", "serving", "mlp-tiny.yaml"))
        page, report = os.path.join(out, "serve.html"), os.path.join(out, "serve.json")
        npusim(options, "serve", scenario, "--html", page, "--report", report)
        placements = json.load(open(report))["placements"]
        # Per placement a bandwidth chart (a line per tenant with buckets), a
        # latency chart and an energy chart (a point per request each), the
        # tenant and core tables; and the scenario's tenant table.
        return page, {"svg.chart": 3 * len(placements),
                      "circle.point": 2 * sum(len(p["requests"]) for p in placements),
                      "polyline.series": sum(1 for p in placements for t in p["tenants"] if t["dram_gbs_over_time"]),
                      "table": 1 + 2 * len(placements)}
    folder = os.path.join(out, "sweep")
    shutil.rmtree(folder, ignore_errors=True)
    npusim(options, "sweep", os.path.join(options.data, "sweeps", "small.yaml"), "--out", folder, "--quiet")
    rows = list(csv.DictReader(open(os.path.join(folder, "results.csv"))))
    ok = [r for r in rows if r["status"] == "ok"]
    keys = ["lanes", "dram"]
    # A chart per varied key, three Pareto fronts (peak FLOP/s, scratchpad,
    # energy), utilisation: points per ok task in each key chart and front,
    # five units each in utilisation.
    return os.path.join(folder, "report.html"), {
        "svg.chart": len(keys) + 4, "circle.point": len(ok) * (len(keys) + 3) + 5 * len(ok), "table": 1}


def check(options, name):
    """The failures of one page, and a line saying what was drawn."""
    page, expected = build_page(options, name)
    url = "file://" + os.path.abspath(page)
    shot = os.path.join(options.out, name + ".png")
    def chromium(profile):
        # A profile of its own each: two instances on one profile would be one.
        return [options.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=" + os.path.join(options.out, "chromium-%s-%s" % (name, profile))]

    # Both at once: each waits on Chromium's start more than it computes.
    dom = subprocess.Popen(chromium("dom") + ["--enable-logging=stderr", "--log-level=0", "--dump-dom", url],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    picture = subprocess.Popen(chromium("shot") + ["--hide-scrollbars", "--window-size=1200,2600",
                                                   "--screenshot=" + shot, url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text, log = dom.communicate(timeout=60)
    picture.wait(timeout=60)
    failures = []
    console = [line for line in log.splitlines() if ":CONSOLE" in line]
    if console:
        failures.append("console messages:\n  " + "\n  ".join(console))
    elements = Elements()
    elements.feed(text)
    if elements.body.get("data-sortable-tables") != str(expected["table"]):
        failures.append("the page's script did not run (body data-sortable-tables=%r, expected %d)"
                        % (elements.body.get("data-sortable-tables"), expected["table"]))
    for key, count in expected.items():
        if key != "table" and elements.counts[key] != count:
            failures.append("%s: %d drawn, %d expected" % (key, elements.counts[key], count))
    if not os.path.exists(shot) or open(shot, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
        failures.append("no screenshot at " + shot)
    if failures:
        return ["%s: %s" % (page, f) for f in failures], None
    return [], "%s: %s; screenshot %s" % (page, ", ".join("%s=%d" % kv for kv in elements.counts.items()), shot)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--npusim", "--chromium", "--data", "--out"):
        parser.add_argument(name, required=True)
    parser.add_argument("--page", action="append", choices=["run", "compare", "sweep", "serve"])
    options = parser.parse_args()
    if not shutil.which(options.chromium) and not os.path.exists(options.chromium):
        sys.exit("browser check: no Chromium at '%s' (scripts/install-deps.sh installs Debian's chromium)"
                 % options.chromium)
    os.makedirs(options.out, exist_ok=True)
    pages = options.page or ["run", "compare", "sweep", "serve"]
    with concurrent.futures.ThreadPoolExecutor(len(pages)) as pool:
        results = list(pool.map(lambda name: check(options, name), pages))
    failures = [f for failed, _ in results for f in failed]
    for _, line in results:
        if line:
            print(line)
    if failures:
        sys.exit("browser check failed:\n" + "\n".join(failures))


if __name__ == "__main__":
    main()
