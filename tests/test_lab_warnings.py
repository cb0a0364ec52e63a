"""``roce-cfg lab`` starts without deprecation noise: with cryptography 51, which deprecates
DSA, asyncssh printed about ten ``CryptographyDeprecationWarning: DSA is deprecated`` lines as it
loaded. The pinned cryptography (50) does not warn yet, so the tests make it behave like 51 the
way 51 does it (``cryptography.utils.deprecated`` on each public name of the dsa module) and check
that this really makes asyncssh warn before checking that the lab does not. (A newcomer's
install, the README's, takes the newest cryptography: there the script's own reading of the
names warns, and is silenced so that only what the lab prints is judged.)"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

from cryptography.utils import CryptographyDeprecationWarning

from roce_cfg.cli.lab import _without_dsa_deprecation
from tests.helpers import SCENARIOS

# cryptography 51 (pyca/cryptography#15597): each public name of asymmetric.dsa is deprecated
LIKE_51 = """
import sys
import warnings
from cryptography import utils
from cryptography.hazmat.primitives import asymmetric
from cryptography.hazmat.primitives.asymmetric import dsa

NAMES = ("generate_parameters", "generate_private_key", "DSAParameterNumbers",
         "DSAPublicNumbers", "DSAPrivateNumbers", "DSAParameters", "DSAPrivateKey",
         "DSAPublicKey", "DSAParametersWithNumbers", "DSAPrivateKeyWithSerialization",
         "DSAPublicKeyWithSerialization")
with warnings.catch_warnings():  # on cryptography 51 itself, reading a name here warns already
    warnings.simplefilter("ignore")
    for name in NAMES:
        utils.deprecated(getattr(dsa, name), dsa.__name__,
                         "DSA is deprecated and support will be removed in a future release",
                         utils.CryptographyDeprecationWarning, name=name)
asymmetric.dsa = sys.modules[dsa.__name__]
"""
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"},
    "ROCE_CFG_USERNAME": "netops",
    "ROCE_CFG_PASSWORD": "Lab-Pa55-warnings",
}


def test_like_51_asyncssh_warns_about_dsa() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LIKE_51 + "import asyncssh\n"],
        capture_output=True, text=True, env=ENV, timeout=60, check=True,
    )  # fmt: skip
    # asyncssh's own lines (51 itself no longer warns from cryptography's ssh.py, as this does)
    assert re.search(r"asyncssh\S+: CryptographyDeprecationWarning: DSA is deprecated", done.stderr)


def test_the_lab_starts_without_the_dsa_deprecation(tmp_path: Path) -> None:
    inventory = tmp_path / "inv.yaml"
    argv = ["roce-cfg", "lab", "--intent", str(SCENARIOS["pod-small-h3c"]),
            "--inventory-out", str(inventory), "--format", "json"]  # fmt: skip
    script = LIKE_51 + f"sys.argv = {argv!r}\nfrom roce_cfg.cli import main\nmain()\n"
    proc = subprocess.Popen([sys.executable, "-c", script], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and lines[-1:] not in (["}\n"], [""]):
            lines.append(proc.stdout.readline())  # the document ends with a brace alone
        assert json.loads("".join(lines))["format"] == "roce-cfg/lab/v1"
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "DSA is deprecated" not in err and "Warning" not in err, err


def test_only_that_warning_is_dropped() -> None:
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        _without_dsa_deprecation()
        warnings.warn("DSA is deprecated and will go", CryptographyDeprecationWarning, 1)
        warnings.warn("TripleDES has been moved", CryptographyDeprecationWarning, 1)
        warnings.warn("DSA is deprecated and will go", DeprecationWarning, 1)
    assert [(w.category, str(w.message)) for w in shown] == [
        (CryptographyDeprecationWarning, "TripleDES has been moved"),
        (DeprecationWarning, "DSA is deprecated and will go"),
    ]
