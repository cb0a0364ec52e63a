"""lint --cabling FILE: a cabling plan CSV gives each port the length of its own cable. roce-cfg's
own (what 'docs' writes) and the shapes people write are read; what was read as what is one
note, an unmapped column or an unreadable row a warning; only a file that is no plan at all is a
one-line error naming file and line, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from roce_cfg.errors import InputError
from roce_cfg.parse.cabling import MAX_WARNINGS, read_cabling
from tests.helpers import ROOT, run

FABRIC = ROOT / "tests/brownfield/fabrics/hw-v300-mlag"
HEADER = "kind,a_device,a_port,b_device,b_port,speed_gbps,cable_m,rail,vlan,a_ip,b_ip\n"
# leaf-1 100GE1/0/1 is a 100G uplink whose description says 5 m ('..._5m_AOC'): fine there,
# short of headroom at 2,000 m
UPLINK = ("leaf-1", "100GE1/0/1", "spine-1", "100GE1/0/1")


def _leaf(tmp_path: Path) -> Path:
    """leaf-1 without its PFC turn-off threshold, a line roce-cfg does not read: with it the PFC
    section is unread and no headroom is judged on the switch (RC405)."""
    text = (FABRIC / "leaf-1.cfg").read_text()
    unread = " priority 3 turn-off threshold 20\n"
    assert unread in text
    (tmp_path / "leaf-1.cfg").write_text(text.replace(unread, ""))
    return tmp_path / "leaf-1.cfg"


def test_both_ends_of_each_row(tmp_path: Path) -> None:
    plan = tmp_path / "cabling.csv"
    plan.write_text(
        HEADER
        + "fabric,leaf-1,100GE1/0/1,spine-1,100GE1/0/1,100,2000,,,,\n"
        + "server,gpu-01:nic0,nic0,leaf-1,25GE1/0/1,25,3,0,101,,\n"
        + "fabric,leaf-1,100GE1/0/2,spine-1,100GE1/0/2,100,,,,,\n"
    )
    read = read_cabling(plan)
    assert read.cables == {
        ("leaf-1", "100GE1/0/1"): 2000.0,
        ("spine-1", "100GE1/0/1"): 2000.0,
        ("gpu-01:nic0", "nic0"): 3.0,
        ("leaf-1", "25GE1/0/1"): 3.0,
    }
    assert read.speeds[("leaf-1", "100GE1/0/2")] == 100
    assert read.warnings == []  # roce-cfg's own extra columns are known, not warned about
    assert "length (metres) <- 'cable_m'" in read.read_as


# Plans as people write them: (header, the uplink's row, the cable metres it states)
SHAPES = {
    "length_m": ("a_device,a_port,b_device,b_port,length_m", "{a},{ap},{b},{bp},2000", 2000.0),
    "Title Case, units in the header": (
        "A Device,A Port,B Device,B Port,Speed,Length (m)",
        "{a},{ap},{b},{bp},100G,2000",
        2000.0,
    ),
    "A/Z ends, unit on the value": (
        "Cable ID;A-End Device;A-End Port;Z-End Device;Z-End Port;Cable Length;Speed",
        "C-0001;{a};{ap};{b};{bp};2000m;100GE",
        2000.0,
    ),
    "local/remote, tabs": (
        "local_device\tlocal_port\tremote_device\tremote_port\tdistance_m\trate",
        "{a}\t{ap}\t{b}\t{bp}\t2000 m\t100Gb/s",
        2000.0,
    ),
    "source/destination, title rows above": (
        "Cabling plan pod 1,,,,,\n,,,,,\nSource Switch,Source Interface,Destination Switch,"
        "Destination Interface,len_m,Speed (Gbps)",
        "{a},{ap},{b},{bp},1500.5,100",
        1500.5,
    ),
    "cable_length, BOM, CRLF": (
        "\ufeffSWITCH_A,PORT_A,SWITCH_B,PORT_B,CABLE_LENGTH,LINK_SPEED",
        "{a},{ap},{b},{bp},2000M,100\r",
        2000.0,
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_plans_as_people_write_them(tmp_path: Path, shape: str) -> None:
    header, row, metres = SHAPES[shape]
    a, ap, b, bp = UPLINK
    plan = tmp_path / "plan.csv"
    plan.write_text(header + "\n" + row.format(a=a, ap=ap, b=b, bp=bp) + "\n", encoding="utf-8")
    read = read_cabling(plan)
    assert read.cables == {(a, ap): metres, (b, bp): metres}
    assert "length (metres) <- " in read.read_as


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_lint_judges_the_port_at_the_plans_length(tmp_path: Path, shape: str) -> None:
    """The finding changes when the plan's length is used: the description's 5 m needs less
    headroom than the model's default; the plan's 1,500-2,000 m more."""
    _leaf(tmp_path)
    header, row, metres = SHAPES[shape]
    a, ap, b, bp = UPLINK
    plan = tmp_path / "plan.csv"
    plan.write_text(header + "\n" + row.format(a=a, ap=ap, b=b, bp=bp) + "\n", encoding="utf-8")
    without = run("lint", str(tmp_path / "leaf-1.cfg"), "--format", "json")
    assert '"RC201"' not in without.stdout
    result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan), "--format", "json")
    assert result.exit_code == 1, result.output
    assert '"RC201"' in result.stdout and f"{metres:g} m cable (from the plan)" in result.stdout
    notes = [ln for ln in result.stderr.splitlines() if "plan.csv: read " in ln]
    assert len(notes) == 1 and "length (metres) <- " in notes[0], result.stderr
    assert "error" not in result.stderr


def test_a_speed_the_plan_states_is_the_ports(tmp_path: Path) -> None:
    """A 100G uplink the plan says runs at 40G needs the 40G headroom: the figure changes."""
    _leaf(tmp_path)
    plan = tmp_path / "plan.csv"
    found = {}
    for speed in ("100G", "40GE"):
        row = ",".join((*UPLINK, "4000", speed))
        plan.write_text(f"a_device,a_port,b_device,b_port,length_m,speed\n{row}\n")
        result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan), "-v")
        found[speed] = [ln for ln in result.stdout.splitlines() if " RC201 " in ln]
    assert "100G, 4000 m cable" in found["100G"][0]
    assert "40G, 4000 m cable" in found["40GE"][0], found


@pytest.mark.parametrize(
    "value, reason",
    [
        ("-1", "is not a length"),
        ("0", "is not a length"),
        ("nan", "is not a length"),
        ("inf", "is not a length"),
        ("20000", "is not a length"),
        ("thirty", "is not a length"),
        ("30ft", "is not a length"),
        ("9" * 5000, "is not a length"),
    ],
)
def test_a_bad_length_is_a_warning_naming_its_line(tmp_path: Path, value: str, reason: str) -> None:
    plan = tmp_path / "plan.csv"
    rows = (
        "fabric,a,p,b,q,100,3,,,,",
        f"fabric,c,p,d,q,100,{value},,,,",
        "fabric,e,p,f,q,100,7,,,,",
    )
    plan.write_text(HEADER + "\n".join(rows) + "\n")
    read = read_cabling(plan)
    assert len(read.warnings) == 1 and read.warnings[0].startswith(f"{plan}:3: cable length")
    assert reason in read.warnings[0]
    # the other rows are read
    assert read.cables == {("a", "p"): 3.0, ("b", "q"): 3.0, ("e", "p"): 7.0, ("f", "q"): 7.0}


@pytest.mark.parametrize("value", ["400", "400G", "400GE", "400Gb/s", "400 Gbps", "400gbe"])
def test_speeds_with_their_units(tmp_path: Path, value: str) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text(f"a_device,a_port,b_device,b_port,length_m,speed\na,p,b,q,30m,{value}\n")
    assert read_cabling(plan).speeds == {("a", "p"): 400, ("b", "q"): 400}


@pytest.mark.parametrize("value", ["fast", "0G", "2000G", "400T", "100G-SR4"])
def test_a_bad_speed_is_a_warning_and_the_length_is_still_read(tmp_path: Path, value: str) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text(f"a_device,a_port,b_device,b_port,length_m,speed\na,p,b,q,30m,{value}\n")
    read = read_cabling(plan)
    assert read.cables == {("a", "p"): 30.0, ("b", "q"): 30.0} and read.speeds == {}
    assert [w.split(": ")[0] for w in read.warnings] == [f"{plan}:2"]
    assert "is not a speed" in read.warnings[0]


def test_warnings_stop_at_a_count(tmp_path: Path) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text(HEADER + "fabric,a,p,b,q,100,x,,,,\n" * 100)
    warnings = read_cabling(plan).warnings
    assert len(warnings) == MAX_WARNINGS + 1
    assert warnings[-1].endswith(f"{100 - MAX_WARNINGS} more unreadable values not named")


def test_an_unmapped_column_is_one_warning_not_exit_2(tmp_path: Path) -> None:
    _leaf(tmp_path)
    plan = tmp_path / "plan.csv"
    plan.write_text(
        "a_device,a_port,b_device,b_port,length_m,Cable Type,Tray\n"
        f"{','.join(UPLINK)},2000,OM4,T-12\n"
    )
    result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan), "--format", "json")
    assert result.exit_code == 1 and '"RC201"' in result.stdout
    warnings = [ln for ln in result.stderr.splitlines() if "warning" in ln]
    assert warnings == [
        f"roce-cfg: warning: {plan}:1: column(s) 'Cable Type', 'Tray' not read (roce-cfg reads "
        "the two ends, the cable length and the speed)"
    ]


def test_a_second_length_column_is_not_read_and_says_so(tmp_path: Path) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text("a_device,a_port,b_device,b_port,length,cable_m\na,p,b,q,99,3\n")
    read = read_cabling(plan)
    assert read.cables[("a", "p")] == 3.0  # roce-cfg's own name wins
    assert "'length' not read" in read.warnings[0]


def test_a_gb18030_plan_is_read(tmp_path: Path) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_bytes(
        "a_device,a_port,b_device,b_port,length_m,备注\na,p,b,q,30,机柜\n".encode("gb18030")
    )
    assert read_cabling(plan).cables == {("a", "p"): 30.0, ("b", "q"): 30.0}


@pytest.mark.parametrize(
    "content, line, reason",
    [
        (b"device,port\nleaf-1,100GE1/0/1\n", 1, "no header naming"),
        (b"leaf-1,100GE1/0/1,spine-1,100GE1/0/1,30\n", 1, "no header naming"),
        (b"a_device,a_port,b_device,b_port,cable type\na,p,b,q,OM4\n", 1, "no column for length"),
        (b"a_device,a_port,length_m\na,p,30\n", 1, "no column for b_device, b_port"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3, "binary data"),
        (b"", 1, "no header naming"),
        (b'a_device,a_port,b_device,b_port,cable_m\n"a,p,b,q,3\n', 2, "not a CSV cabling plan"),
    ],
)
def test_a_file_that_is_no_plan_exits_2(
    tmp_path: Path, content: bytes, line: int, reason: str
) -> None:
    shutil.copy(FABRIC / "leaf-1.cfg", tmp_path / "leaf-1.cfg")
    plan = tmp_path / "plan.csv"
    plan.write_bytes(content)
    with pytest.raises(InputError, match=reason) as err:
        read_cabling(plan)
    assert (err.value.file, err.value.line) == (str(plan), line)
    result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"plan.csv:{line}" in lines[0] and reason in lines[0], lines
    assert "Traceback" not in result.output and result.stdout == ""


def test_docs_fills_the_plan_for_parsed_configs_and_lint_reads_it(tmp_path: Path) -> None:
    """docs on backups writes speed, length (from the descriptions) and both addresses; the
    same file given back to lint is the plan."""
    fabric = tmp_path / "fabric"
    fabric.mkdir()
    for name in ("spine-1", "leaf-1", "leaf-3"):
        shutil.copy(ROOT / f"tests/brownfield/fabrics/hw-v200/{name}.cfg", fabric)
    result = run("docs", str(fabric), "-o", str(tmp_path / "docs"))
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "docs/cabling.csv").read_text().splitlines()
    assert "fabric,leaf-1,100GE1/0/1,spine-1,100GE1/0/1,100,100,,,10.11.1.1,10.11.1.0" in rows
    assert "fabric,leaf-3,100GE1/0/1,spine-1,100GE1/0/3,100,30,,,10.11.1.5,10.11.1.4" in rows
    plan = read_cabling(tmp_path / "docs/cabling.csv")
    assert plan.cables[("spine-1", "100GE1/0/3")] == 30.0
    assert plan.warnings == []
