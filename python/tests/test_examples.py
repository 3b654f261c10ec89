"""The statistics of examples/maskable_ppo.py (the example itself runs end to end in CI at a
smoke size, in .ci/python.sh)."""

import importlib.util
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import shifu
from conftest import ROOT


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("maskable_ppo", ROOT / "examples" / "maskable_ppo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_wilson_interval_is_the_commands(example):
    # shifu seats computes its Wilson intervals in Rust; ties count as fractional wins in both.
    s = shifu.seats("tofu-kingdom", 3, "random,greedy,greedy", 300, seed=2)
    for _, row in s.table.iterrows():
        lo, hi = example.wilson(row.win_share * s.games, s.games)
        assert lo == pytest.approx(row.ci_low, abs=1e-9) and hi == pytest.approx(row.ci_high, abs=1e-9)
    assert example.wilson(0, 0) == (0.0, 1.0)


def test_the_paired_interval(example):
    a = np.array([1, 0, 1, 1, 0.5, 0])
    b = np.array([0, 0, 1, 0, 0.5, 1])
    mean, lo, hi = example.paired_interval(a, b)
    d = a - b
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert mean == pytest.approx(d.mean()) and hi - mean == pytest.approx(1.959963984540054 * se)
    assert lo == pytest.approx(2 * mean - hi)


def test_the_curve_chart_is_svg(example):
    rows = [{"timesteps": t, "episodes": 10, "win_rate": 0.1 * k, "ci_low": 0.05 * k, "ci_high": 0.12 * k} for k, t in enumerate((100, 200, 300))]
    root = ET.fromstring(example.svg_curve(rows, {"random": 0.15, "greedy": 0.33}, "t"))
    assert root.tag.endswith("svg")
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 1
