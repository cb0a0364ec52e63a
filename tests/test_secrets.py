"""No secret in any output: a config per vendor holding credentials in every usual form
(tests/data/secrets/<vendor>.cfg, every secret containing PLANTED) goes through every command
that prints or writes config-derived text, and no output holds a planted secret. And no code
writes anywhere except through roce_cfg/output.py, which redacts."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from roce_cfg.errors import InputError
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.redact import REDACTED, redact, redact_tree, rules
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples, lab_inventory, run

DATA = ROOT / "tests" / "data" / "secrets"
MARK = "PLANTED"
VENDORS = list(Vendor)
IDS = [v.value for v in VENDORS]
USER, PASSWORD = "netops", "Lab-Pa55-secret-never-printed"
# The forms each vendor's config must hold (a line matching each), so the test cannot pass by
# losing a form from the fixture.
FORMS = {
    "local user": r"(local-user|username|^ password)",
    "super/enable": r"^\s*(super password|enable (secret|password))",
    "SNMP community": r"(snmp-agent|snmp-server) community",
    "SNMPv3 user": r"(usm-user v3|snmp-server user)",
    "trap host": r"(target-host|snmp-server host)",
    "RADIUS": r"(radius|shared-key)",
    "TACACS": r"(tacacs|hwtacacs)",
    "NTP key": r"ntp(-service)? authentication-key",
    "BGP password": r"(peer|neighbor) \S+ password",
}


def _outputs(result) -> str:  # type: ignore[no-untyped-def]
    try:
        return result.stdout + result.stderr
    except ValueError:  # stderr not captured apart
        return str(result.output)


def _planted(text: str) -> list[str]:
    return re.findall(rf"\S*{MARK}\S*", text)


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_the_fixture_holds_every_form(vendor: Vendor) -> None:
    lines = [ln for ln in (DATA / f"{vendor.value}.cfg").read_text().splitlines() if MARK in ln]
    for form, pattern in FORMS.items():
        assert any(re.search(pattern, ln) for ln in lines), f"{vendor.value}: no {form} line"
    assert any("cipher" in ln or "encrypted" in ln or " 7 " in ln for ln in lines)


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_the_vendor_table_alone_redacts_every_planted_secret(vendor: Vendor) -> None:
    """The per-vendor data covers every form: without the keyword fallback, still 0 hits."""
    for line in (DATA / f"{vendor.value}.cfg").read_text().splitlines():
        if MARK in line:
            clean = redact(line, vendor.value, fallback=False)
            assert MARK not in clean, (vendor.value, line, clean)
            assert REDACTED in clean


def test_every_table_loads_and_every_rule_has_a_secret_group() -> None:
    for vendor in VENDORS:
        table = rules(vendor.value)
        assert len(table) >= 8, vendor.value
        assert all(r.pattern.groups >= 1 and r.name for r in table)
    assert {r.vendor for r in rules()} == {v.value for v in VENDORS}


def test_redaction_keeps_the_rest_of_a_config() -> None:
    """Generated configs (no credentials) pass through unchanged: only secrets go."""
    for path in sorted((ROOT / "golden").glob("pod-small-*/leaf-1.cfg")):
        text = path.read_text()
        assert redact(text) == text, path


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_no_output_holds_a_planted_secret(vendor: Vendor, tmp_path: Path) -> None:
    text = (DATA / f"{vendor.value}.cfg").read_text()
    assert len(_planted(text)) >= 12
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "leaf-1.cfg").write_text(text)
    # A config cut after a secret line: the error quotes its last line.
    cut = next(ln for ln in text.splitlines() if re.search(r"(peer|neighbor) \S+ password", ln))
    truncated = tmp_path / "truncated.cfg"
    truncated.write_text(text[: text.index(cut) + len(cut)] + "\n")

    seen: dict[str, str] = {}
    for fmt in ("json", "yaml"):
        seen[f"parse {fmt}"] = _outputs(run("parse", str(folder), "-v", "--format", fmt))
    for fmt in ("text", "json", "sarif", "junit"):
        seen[f"lint {fmt}"] = _outputs(run("lint", str(folder), "-v", "--format", fmt))
    docs = tmp_path / "docs"
    seen["docs"] = _outputs(run("docs", str(folder), "-o", str(docs)))
    for page in sorted(docs.iterdir()):
        seen[f"docs {page.name}"] = page.read_text()
    report = tmp_path / "report.html"
    seen["report"] = _outputs(run("report", str(folder), "-o", str(report)))
    seen["report.html"] = report.read_text()
    seen["deadlock"] = _outputs(
        run("deadlock", str(folder), "--html", str(tmp_path / "d.html"), "--format", "json")
    )
    seen["deadlock.html"] = (tmp_path / "d.html").read_text()
    for command in ("parse", "lint"):
        result = run(command, str(truncated))
        assert result.exit_code == 2, result.output
        seen[f"{command} error"] = _outputs(result)

    leaks = {where: _planted(out) for where, out in seen.items() if MARK in out}
    assert leaks == {}
    # The secret-bearing lines are there, redacted (not dropped): docs show the config.
    assert seen["docs leaf-1.md"].count(REDACTED) >= len(_planted(text)) // 2
    assert REDACTED in seen["parse json"] and REDACTED in seen["parse yaml"]
    assert "truncated" in seen["parse error"] and REDACTED in seen["parse error"]


@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_push_diffs_and_errors_hold_no_planted_secret(
    vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the lab emulator running the secret-laden config: the dry-run diff, the commands
    (--prune removes lines around the secrets), and the error of a rejected push."""
    profile = load_profile(vendor)
    running = (DATA / f"{vendor.value}.cfg").read_text()
    intended = (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()
    intended = intended.replace("description spine-1", "description spine-one")
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(intended)
    sw = Switch.start("leaf-1", profile, running)
    assert MARK in sw.running.render()
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv.yaml", port, vendor.value)
        plan = tmp_path / "plan.diff"
        full = ("--diff", "full", "--diff-file", str(plan))
        dry = run("push", str(configs), "-i", str(inventory), *full)
        assert dry.exit_code == 0, dry.output
        assert "description spine-one" in dry.stdout and "description spine-one" in plan.read_text()
        assert MARK not in plan.read_text(), _planted(plan.read_text())
        pruned = run("push", str(configs), "-i", str(inventory), "--prune", "--diff", "full")
        sw.faults = Faults(reject="description spine-one")
        rejected = run("push", str(configs), "-i", str(inventory), "--apply")
        assert rejected.exit_code != 0 and "rejected" in rejected.stdout
    outputs = {"dry": dry, "prune": pruned, "rejected": rejected}
    leaks = {k: _planted(_outputs(r)) for k, r in outputs.items() if MARK in _outputs(r)}
    assert leaks == {}
    assert PASSWORD not in "".join(_outputs(r) for r in outputs.values())


# -- no output path bypasses the redactor ---------------------------------------------------

# Calls that write somewhere, and where they are allowed with the reason. Anything new that
# writes must go through roce_cfg/output.py (which redacts) or be registered here with a reason.
WRITERS = {"write", "write_text", "write_bytes", "print", "echo", "secho", "fdopen", "open",
           "Console", "dump", "safe_dump", "NamedTemporaryFile", "writelines",
           # copies, logging, warnings and tracebacks leave the process too
           "copy", "copy2", "copyfile", "copyfileobj", "copytree", "move", "print_exc",
           "print_exception", "print_stack", "print_tb", "warn", "showwarning", "basicConfig",
           "addHandler", "FileHandler", "StreamHandler", "debug", "info", "warning", "error",
           "exception", "critical", "log"}  # fmt: skip
ALLOWED = {
    # the redacting output layer itself
    ("roce_cfg/output.py", "write"),
    ("roce_cfg/output.py", "write_text"),
    ("roce_cfg/output.py", "fdopen"),
    ("roce_cfg/output.py", "Console"),
    ("roce_cfg/output.py", "safe_dump"),
    # nornir's SimpleInventory reads files: the user's own inventory sections, copied to a
    # private temporary folder for it, are not output
    ("roce_cfg/deploy/inventory.py", "write_text"),
    ("roce_cfg/deploy/inventory.py", "safe_dump"),
    # a build step: package data written from the rule registry, no config text in it
    ("roce_cfg/rulebook.py", "write_text"),
    ("roce_cfg/rulebook.py", "print"),
    # the emulator's SSH channel: what a switch answers, not roce-cfg's output
    ("roce_cfg/lab/server.py", "write"),
    # a NullHandler: paramiko's and netmiko's loggers then write nowhere
    ("roce_cfg/deploy/transport.py", "addHandler"),
    # print_table draws a rich table on the console its caller passes, one made by console()
    # (which redacts what it prints)
    ("roce_cfg/tables.py", "print"),
    # the sweep's state file: scenario names and cycles as lists of interface names, never
    # config text; it is read back to resume a sweep, so it must hold exactly what was found
    ("roce_cfg/deadlock/cluster.py", "write"),
    ("roce_cfg/deadlock/cluster.py", "write_text"),
    # pipeline keeps what each roce-cfg step printed: that output already left through the
    # redacting layer in the child process
    ("roce_cfg/pipeline.py", "write"),
    # the run memo records what output.py's writers wrote (passing it on as it was) and writes
    # it again in a later run, redacted again
    ("roce_cfg/memo.py", "write"),
    # the recorder the run memo keeps a command's output with passes each write on, as it
    # came from output.py's writers, to the stream it stands in for
    ("roce_cfg/streams.py", "write"),
}
# Who may write unredacted (redact=False): intended configs rendered from an intent.
UNREDACTED = {"roce_cfg/generate.py", "roce_cfg/report/data.py"}


def _calls(tree: ast.AST) -> list[tuple[str, int, ast.Call]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            found.append((name, node.lineno, node))
    return found


def _redacting_consoles(tree: ast.AST, shared: dict[str, set[str]] | None = None) -> set[str]:
    """Names bound to output.console(...): their .print is redacted. ``shared``: module ->
    its own such names, for those a module imports (the CLI's out and err)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            f = node.value.func
            if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) == "console":
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and shared and node.module in shared:
            names.update(a.asname or a.name for a in node.names if a.name in shared[node.module])
    return names


def _shared_consoles() -> dict[str, set[str]]:
    out = {}
    for path in sorted((ROOT / "roce_cfg").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[module.removesuffix(".__init__")] = _redacting_consoles(ast.parse(path.read_text()))
    return out


def test_every_write_goes_through_the_redacting_output_layer() -> None:
    bypass = []
    unredacted = []
    shared = _shared_consoles()
    for path in sorted((ROOT / "roce_cfg").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(), rel)
        consoles = _redacting_consoles(tree, shared)
        for name, line, call in _calls(tree):
            f = call.func
            if name == "print" and any(
                isinstance(a, ast.Call) and getattr(a.func, "attr", "") == "dumps"
                for a in call.args
            ):
                # JSON through a console gets line-wise text redaction, which can cut a string
                # open: JSON leaves through emit(..., kind="json") (redacted string by string).
                bypass.append(f"{rel}:{line}: print(json.dumps(...))")
                continue
            if (
                name == "print"
                and isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id in consoles
            ):
                continue
            if name in WRITERS and (rel, name) not in ALLOWED:
                if name == "open" and not any(
                    isinstance(a, ast.Constant) and set(str(a.value)) & set("wax+")
                    for a in [*call.args[1:], *(k.value for k in call.keywords)]
                ):
                    continue  # reading
                if (
                    name in ("dump", "safe_dump")
                    and len(call.args) < 2
                    and not any(k.arg == "stream" for k in call.keywords)
                ):
                    continue  # to a string, which then leaves through output.py
                bypass.append(f"{rel}:{line}: {name}(...)")
            for k in call.keywords:
                off = isinstance(k.value, ast.Constant) and k.value.value is False
                if k.arg == "redact" and off and rel not in UNREDACTED:
                    unredacted.append(f"{rel}:{line}")
    assert bypass == [], "write through roce_cfg/output.py (emit, console, write_file, staged)"
    assert unredacted == []


def test_the_bypass_check_can_fail() -> None:
    """The checker sees a direct write and a console that is not output.console's."""
    tree = ast.parse(
        "import sys\nfrom rich.console import Console\nc = Console()\nsys.stdout.write(t)\n"
        "open(p, 'w').write(x)\nprint(y)\nc.print(z)\n"
    )
    names = [name for name, _, _ in _calls(tree)]
    assert {"write", "open", "print", "Console"} <= set(names)
    assert _redacting_consoles(tree) == set()
    assert _redacting_consoles(ast.parse("out = console(stderr=True)")) == {"out"}


def test_an_uncaught_exception_is_printed_redacted() -> None:
    """What main() installs: a traceback quoting a config line shows it redacted."""
    code = (
        "from roce_cfg.output import redact_tracebacks\n"
        "redact_tracebacks()\n"
        "raise ValueError('bad line: snmp-agent community read simple PLANTED-x')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "ValueError" in done.stderr
    assert MARK not in done.stderr and REDACTED in done.stderr


QUALIFIER_WORDS = {"0", "5", "7", "8", "9", "encrypted", "cipher", "simple", "hash", "level",
                   "irreversible-cipher", "read", "write", "ro", "rw"}  # fmt: skip
# A planted secret is a word, or a quoted string with spaces ("Quoted PLANTED-..").
_TOKEN = re.compile(rf'"[^"]*{MARK}[^"]*"|\S*{MARK}\S*')
_SECRET = st.text(
    st.characters(blacklist_categories=("Z", "C"), blacklist_characters="\u0085"),
    min_size=1,
    max_size=40,
)


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secret=_SECRET, data=st.data())
def test_any_secret_in_any_form_is_redacted_whole(
    vendor: Vendor, secret: str, data: st.DataObject
) -> None:
    """Whatever the secret is (any printable characters, even a keyword), the vendor's table
    replaces exactly it, in every planted form."""
    lines = [ln for ln in (DATA / f"{vendor.value}.cfg").read_text().splitlines() if MARK in ln]
    line = data.draw(st.sampled_from(lines))
    assume(secret not in _TOKEN.sub("", line))  # else 'not in the output' cannot be told
    # A plain password that is a qualifier word ('password 0 privilege 1') reads as the
    # qualifier of the next word: the one ambiguity of these syntaxes (docs/parse.md).
    assume(secret.lower() not in QUALIFIER_WORDS)
    if line.count('"') == 2:  # the quoted form: a secret with a space in it, quoted
        assume('"' not in secret)
        secret = f'"{secret} and more"'
    else:  # a word opening with a quote reads as a quoted secret: redacted up to the closing
        assume(not secret.startswith('"'))  # quote or the line's end, more and never less
    got = redact(_TOKEN.sub(lambda _: secret, line), vendor.value, fallback=False)
    assert got == _TOKEN.sub(REDACTED, line)


def test_vendors_lists_the_secrets_tables_with_their_sources() -> None:
    result = run("vendors", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["sections"]  # valid JSON: redaction never cuts a string open
    secrets = [r for r in rows if r["section"].startswith("secrets (")]
    assert {r["vendor"] for r in secrets} == {v.value for v in VENDORS}
    assert all(r["status"] == ("verified" if r["source"] else "unverified") for r in secrets)
    assert all(REDACTED not in r["source"] for r in secrets)  # citations read as written
    # the printed table too: a row's status is not read as the value of a 'password' before it
    text = run("vendors").stdout
    printed = [line for line in text.splitlines() if "secrets (" in line]
    assert len(printed) == len(secrets)
    assert not [line for line in printed if REDACTED in line]


def test_missing_tables_are_an_error_not_a_quiet_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    import roce_cfg.redact as redact_module

    monkeypatch.setattr(redact_module, "_table_files", list)
    redact_module.rules.cache_clear()
    try:
        with pytest.raises(InputError, match="secrets tables"):
            redact("snmp-agent community read simple x")
    finally:
        monkeypatch.undo()
        redact_module.rules.cache_clear()
    assert redact("snmp-agent community read simple x", "h3c") == (
        "snmp-agent community read simple <redacted>"
    )


def test_an_overlay_adds_secret_forms(tmp_path: Path) -> None:
    """--vendor-dir's vendors/<vendor>.secrets.yaml adds to the bundled table."""
    import roce_cfg.redact as redact_module

    overlay = tmp_path / "overlay"
    (overlay / "vendors").mkdir(parents=True)
    (overlay / "vendors" / "h3c.secrets.yaml").write_text(
        "vendor: h3c\nsecrets:\n  - name: a site's own token (test only)\n"
        "    match: '\\bcustom-auth\\s+token\\s+(\\S+)'\n    source: null\n"
    )
    text = (
        (DATA / "h3c.cfg")
        .read_text()
        .replace(" snmp-agent\n", " snmp-agent\n custom-auth token PLANTED-overlay-token\n", 1)
    )
    config = tmp_path / "leaf-1.cfg"
    config.write_text(text)
    try:
        plain = run("parse", str(config))
        assert "PLANTED-overlay-token" in plain.stdout  # no bundled form knows it
        with_overlay = run("parse", str(config), "--vendor-dir", str(overlay))
        assert with_overlay.exit_code == 0, with_overlay.output
        assert MARK not in _outputs(with_overlay)
        assert "custom-auth token <redacted>" in with_overlay.stdout
    finally:
        redact_module._OVERLAYS.clear()
        redact_module.rules.cache_clear()


# An unbounded repetition that can fail late ('(?:\S+\s+)*?password', '.*?auth') is tried
# from every start: quadratic in the line. 40 lines of 'username ' * 1800 + 'pass' took 68 s.
_UNBOUNDED = re.compile(r"\)\*|\)\+|(?<!\\)\.[*+]")


def test_no_table_pattern_repeats_without_a_bound() -> None:
    found = [(r.vendor, r.name) for r in rules() if _UNBOUNDED.search(r.pattern.pattern)]
    assert found == []
    assert _UNBOUNDED.search(r"\busername\s+\S+\s+(?:\S+\s+)*?password")  # the check can fail


@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_redaction_stays_linear_on_lines_made_to_backtrack(vendor: Vendor) -> None:
    """The leading words of every planted form, repeated to four times the 16,384-character
    line cap (quadratic work shows sixteen-fold there) and ended by a hint word that matches no
    rule: all of them within the fuzz budget of one case, 5 s CPU."""
    lines = []
    for line in (DATA / f"{vendor.value}.cfg").read_text().splitlines():
        if MARK not in line:
            continue
        words = line.split()
        for k in (1, 2, 3):
            lead = " ".join(words[:k]) + " "
            lines.append((lead * (64_000 // len(lead)))[:64_000] + " pass")
    lines = [ln for ln in lines if MARK not in ln]
    assert len(lines) >= 30
    started = time.process_time()
    redact("\n".join(lines), vendor.value)
    assert time.process_time() - started < 5.0


def test_a_tree_is_redacted_in_its_keys_too() -> None:
    tree = {"snmp-server community PLANTED-k ro": ["password 0 PLANTED-v"], "n": 1}
    assert MARK not in json.dumps(redact_tree(tree, "ruijie"))
    assert redact_tree(tree, "ruijie")["n"] == 1


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_a_lenient_lab_typed_the_secrets_still_prints_none(
    vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'roce-cfg lab --lenient' takes the secret-bearing lines no grammar entry knows (AAA,
    SNMP, RADIUS ...) when they are typed; push's dry run and prune over that switch print none
    of the secrets."""
    from roce_cfg.deploy.tree import Tree
    from roce_cfg.lab.cli import Session

    profile = load_profile(vendor)
    saved = Tree.from_text((DATA / f"{vendor.value}.cfg").read_text(), profile)
    # the global one-line statements (SNMP, super/enable, NTP keys ...): views of lines the
    # grammar does not know cannot be entered by typing (which line opens one is unknown)
    typed = [n.line for n in saved.root.children if not n.children]
    sw = Switch.start("leaf-1", profile, lenient=True)
    session = Session(sw)
    for line in (*profile.dialect.enter, *typed, *profile.dialect.commit.commands):
        session.feed(line)
    assert MARK in sw.running.render()  # the secrets went in as typed
    intended = (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(intended)
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv.yaml", port, vendor.value)
        results = [
            run("push", str(configs), "-i", str(inventory), "--diff", "full", *extra)
            for extra in ([], ["--prune"])
        ]
    for result in results:
        assert result.exit_code == 0, result.output
        assert MARK not in _outputs(result), _planted(_outputs(result))
