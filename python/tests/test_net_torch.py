"""The PyTorch round trip of a shifu policy-value network: `shifu net init` writes an untrained
network as safetensors, `shifu net sample` a fixed batch of positions with the Rust outputs, and
the same network rebuilt in PyTorch from the file (with safetensors.torch) reproduces them to
1e-5.

Needs torch and safetensors (.ci/rl-requirements.txt): skipped without them, except where
SHIFU_REQUIRE_TORCH=1 (.ci/python.sh sets it for the run after installing them)."""

import json
import os
import subprocess

import pytest


def _torch():
    try:
        import torch
        from safetensors.torch import load_file
    except ImportError as e:
        if os.environ.get("SHIFU_REQUIRE_TORCH") == "1":
            pytest.fail(f"torch and safetensors are required here: {e}")
        pytest.skip(f"torch or safetensors missing: {e}")
    return torch, load_file


def _network(torch, tensors, metadata_blocks):
    """The network of `shifu_net`, as torch modules: relu(stem), residual blocks, two heads."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, h):
            super().__init__()
            self.fc1 = nn.Linear(h, h)
            self.fc2 = nn.Linear(h, h)

        def forward(self, x):
            return torch.relu(x + self.fc2(torch.relu(self.fc1(x))))

    class PolicyValue(nn.Module):
        def __init__(self, inputs, hidden, blocks, actions, seats):
            super().__init__()
            self.stem = nn.Linear(inputs, hidden)
            self.blocks = nn.ModuleList([Block(hidden) for _ in range(blocks)])
            self.policy = nn.Linear(hidden, actions)
            self.value = nn.Linear(hidden, seats)

        def forward(self, x, mask):
            h = torch.relu(self.stem(x))
            for b in self.blocks:
                h = b(h)
            logits = self.policy(h).masked_fill(mask == 0, float("-inf"))
            return torch.softmax(logits, dim=-1), torch.tanh(self.value(h))

    hidden, inputs = tensors["stem.weight"].shape
    actions = tensors["policy.weight"].shape[0]
    seats = tensors["value.weight"].shape[0]
    net = PolicyValue(inputs, hidden, metadata_blocks, actions, seats)
    net.load_state_dict(tensors, strict=True)
    return net


@pytest.mark.parametrize("game,players,blocks", [("tofu-shifu", 2, 2), ("tofu-kingdom", 5, 1)])
def test_pytorch_reproduces_the_rust_network(shifu_bin, tmp_path, game, players, blocks):
    torch, load_file = _torch()
    model = tmp_path / "net.safetensors"
    batch = tmp_path / "batch.json"
    common = ["--game", game, "--players", str(players)]
    subprocess.run(
        [shifu_bin, "net", "init", *common, "--out", model, "--seed", "7", "--hidden", "48",
         "--blocks", str(blocks)],
        check=True, capture_output=True,
    )
    subprocess.run(
        [shifu_bin, "net", "sample", *common, "--model", model, "--positions", "12", "--out", batch],
        check=True, capture_output=True,
    )
    from safetensors import safe_open

    with safe_open(str(model), framework="pt") as f:
        meta = f.metadata()
    assert meta["format"] == "shifu-net" and meta["game"] == game
    assert int(meta["players"]) == players and int(meta["blocks"]) == blocks
    net = _network(torch, load_file(str(model)), int(meta["blocks"]))
    data = json.loads(batch.read_text())
    x = torch.tensor(data["inputs"], dtype=torch.float32)
    mask = torch.tensor(data["mask"], dtype=torch.uint8)
    assert x.shape == (12, int(meta["inputs"])) and mask.shape == (12, int(meta["actions"]))
    with torch.no_grad():
        policy, value = net(x, mask)
    want_p = torch.tensor(data["policy"], dtype=torch.float32)
    want_v = torch.tensor(data["value"], dtype=torch.float32)
    assert torch.allclose(policy, want_p, atol=1e-5, rtol=0), (policy - want_p).abs().max()
    assert torch.allclose(value, want_v, atol=1e-5, rtol=0), (value - want_v).abs().max()
    # Not a trivial agreement: the policy spreads over several legal actions, the values vary.
    assert (mask.sum(dim=1) > 1).any() and (policy.max(dim=1).values < 0.99).any()
    assert value.std() > 1e-3
    assert torch.all(policy[mask == 0] == 0)


def test_a_network_for_another_player_count_is_refused(shifu_bin, tmp_path):
    model = tmp_path / "net.safetensors"
    subprocess.run(
        [shifu_bin, "net", "init", "--players", "2", "--out", model, "--hidden", "8"],
        check=True, capture_output=True,
    )
    r = subprocess.run(
        [shifu_bin, "net", "sample", "--players", "3", "--model", model, "--out", tmp_path / "b.json"],
        capture_output=True, text=True,
    )
    assert r.returncode == 2
    assert str(model) in r.stderr and "3 players" in r.stderr
