"""The README's Python examples run as written."""

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def block(marker: str) -> str:
    """The first fenced block after the line starting with `marker`."""
    lines = README.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(marker))
    fence = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(fence + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[fence + 1 : end])


def test_the_readme_environment_loop_and_batch_examples_run(capsys):
    scope: dict = {}
    exec(compile(block("<!-- ci:python-env"), "README.md (env)", "exec"), scope)
    env = scope["env"]
    assert not env.agents  # the loop ran the game to its end
    exec(compile(block("<!-- ci:python-batch"), "README.md (batch)", "exec"), scope)
    assert len(scope["df"]) == 500
    assert "chi-square" in capsys.readouterr().out


def test_the_readme_gymnasium_example_runs():
    scope: dict = {}
    exec(compile(block("<!-- ci:python-gym"), "README.md (gym)", "exec"), scope)
    assert scope["done"] and scope["env"].core.to_move() is None


def test_the_readme_vector_example_runs():
    scope: dict = {}
    exec(compile(block("<!-- ci:python-vector"), "README.md (vector)", "exec"), scope)
    env = scope["env"]
    assert env.observations.shape == (256, 4246) and env.observations.dtype.name == "uint8"
    assert (env.masks.sum(axis=1) > 0).all()
