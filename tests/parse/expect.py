"""Write <case>.yaml next to a fixture config from the current parser, for review."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from roce_cfg.parse import parse_file


def expected(path: Path) -> dict[str, object]:
    data = parse_file(path).config.model_dump(mode="json")
    data.pop("source")
    return data


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        cfg = Path(arg)
        text = yaml.safe_dump(expected(cfg), sort_keys=False, width=100, allow_unicode=True)
        cfg.with_suffix(".yaml").write_text(text, encoding="utf-8")
