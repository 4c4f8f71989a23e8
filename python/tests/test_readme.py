"""The README's twenty-line bot is a working bot: `arbiter check` passes it."""

import os
import re

from conftest import REPO, arbiter_check


def readme_bot():
    text = (REPO / "python" / "README.md").read_text()
    section = text.split("## A bot in twenty lines", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_bot_is_twenty_lines():
    lines = [line for line in readme_bot().splitlines() if line.strip()]
    assert len(lines) <= 20


def test_readme_bot_passes_arbiter_check(arbiter_bin, bot_env, tmp_path):
    bot = tmp_path / "readme_bot.py"
    bot.write_text(readme_bot())
    os.chmod(bot, 0o755)
    out = arbiter_check(arbiter_bin, [f"cmd={bot}"], env=bot_env, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "PASS positions:bohnenspiel " in out.stdout
    assert "PASS games (bohnenspiel)" in out.stdout
