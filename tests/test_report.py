"""Documents and the HTML report: contents, and the page in a real headless browser."""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from ipaddress import IPv4Interface, IPv6Interface
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.model import addresses
from roce_cfg.model.device import DeviceConfig, PortIpv6
from roce_cfg.model.order import natural
from roce_cfg.report import html as html_report
from roce_cfg.report.data import gather
from tests.helpers import ROOT, SCENARIOS, examples, run

VALLEY = ROOT / "tests/deadlock/valley-per-spine-asn.yaml"


def test_docs_for_the_example_pod(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    result = run("docs", str(SCENARIOS["pod-small"]), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir())[:3] == ["cabling.csv", "index.md", "leaf-1.md"]
    assert len(list(out.glob("*.md"))) == 13
    index = (out / "index.md").read_text()
    for heading in ("## Rails", "## Uplinks and BGP sessions", "## Lossless policy", "## Buffer"):
        assert heading in index
    rows = list(csv.DictReader(io.StringIO((out / "cabling.csv").read_text())))
    assert sum(r["kind"] == "server" for r in rows) == 128  # 16 servers x 8 NICs
    assert sum(r["kind"] == "leaf-spine" for r in rows) == 64
    leaf = (out / "leaf-1.md").read_text()
    assert "## Headroom: required against configured" in leaf
    assert "```\n#\n sysname leaf-1" in leaf


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("ROCE_CFG_REQUIRE_BROWSER"):
            pytest.fail("chromium not installed but ROCE_CFG_REQUIRE_BROWSER is set")
        pytest.skip("chromium not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield b
        b.close()


def _open(
    browser: Any, page_file: Path, viewport: tuple[int, int] = (1400, 900)
) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri())
    page.wait_for_selector('#status[data-ready="1"]', state="attached")
    return page, errors


# What a person sees, measured in the page: the topology box, the rendered size of every switch
# or group label (font size times the SVG's screen scale), labels spilling out of their box,
# boxes outside the visible drawing, and any element whose content is wider than its box.
MEASURE = """() => {
  const svg = document.querySelector('#view svg'), vr = svg.getBoundingClientRect();
  const inside = (b, r) => b.left >= r.left - 0.5 && b.right <= r.right + 0.5 &&
    b.top >= r.top - 0.5 && b.bottom <= r.bottom + 0.5;
  const nodes = [...svg.querySelectorAll('g.sw, g.group')];
  const labels = nodes.flatMap(g => [...g.querySelectorAll('text')]);
  const px = labels.map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  const spill = nodes.filter(g => {
    const r = g.querySelector('rect').getBoundingClientRect();
    return [...g.querySelectorAll('text')].some(t => !inside(t.getBoundingClientRect(), r));
  }).map(g => g.dataset.device || g.dataset.group);
  const crowded = nodes.filter(g => {
    const badge = g.querySelector('.badge');
    return badge && g.querySelector('text').getBoundingClientRect().right + 3 >
      badge.getBoundingClientRect().left;
  }).map(g => g.dataset.device);
  const outside = nodes.filter(g => !inside(g.querySelector('rect').getBoundingClientRect(), vr));
  const over = [...document.body.querySelectorAll('*')].filter(e => {
    if (e.closest('svg, script, style, datalist, template')) { return false; }
    const cs = getComputedStyle(e);
    return cs.display !== 'inline' && cs.overflowX === 'visible' &&
      e.scrollWidth > e.clientWidth + 1;
  }).map(e => e.tagName + '#' + e.id + '.' + e.className);
  const bars = [...document.querySelectorAll('.budget .track .used')].map(
    b => b.getBoundingClientRect().width);
  return {
    box_w: vr.width, box_h: vr.height, page_w: window.innerWidth, view_h: window.innerHeight,
    nodes: nodes.length, min_label_px: px.length ? Math.min(...px) : 0,
    spill: spill, crowded: crowded, boxes_outside: outside.length, overflowing: over,
    page_scrolls_sideways: document.documentElement.scrollWidth > window.innerWidth,
    bars: bars, unknown_said: [...document.querySelectorAll('.budget .say')].filter(
      s => s.textContent.includes('not published')).length,
  };
}"""
UNDER_PANEL = """() => {
  const p = document.getElementById('panel').getBoundingClientRect();
  const g = [...document.querySelectorAll('#view g.sw')].find(g => {
    const r = g.getBoundingClientRect();
    return r.left > p.left && r.right < p.right && r.top > p.top && r.bottom < p.bottom;
  });
  return g ? g.dataset.device : null;
}"""
VIEWPORTS = [(1280, 800), (1920, 1080)]
README_SHOT = (1280, 800)  # docs/report-pod-small.png: this viewport, spine-1 selected
UPDATE_PICTURE = "ROCE_CFG_UPDATE_PICTURE"  # set: the test writes the README picture


def _measure(page: Any) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(MEASURE)
    return got


def _readable(got: dict[str, Any], where: str) -> None:
    """The common bar: the topology spans the page and is tall enough to use, every label is
    at least 11 px and inside its box, nothing overflows and the page does not scroll
    sideways."""
    assert got["box_w"] >= 0.9 * got["page_w"], (where, got["box_w"])
    assert got["box_h"] >= 240, (where, got["box_h"])
    assert got["nodes"] > 0, where
    assert got["min_label_px"] >= 11, (where, got["min_label_px"])
    assert got["spill"] == [], (where, got["spill"][:5])
    assert got["crowded"] == [], (where, got["crowded"][:5])  # a label runs into its badge
    assert got["overflowing"] == [], (where, got["overflowing"][:5])
    assert not got["page_scrolls_sideways"], where


def _shot(page: Any, folder: Path, name: str) -> Path:
    """A screenshot kept as a test artefact, its path printed: in pytest's tmp folder (kept for
    the last three runs), or in $ROCE_CFG_ARTEFACTS when set (CI keeps that folder)."""
    keep = os.environ.get("ROCE_CFG_ARTEFACTS")
    if keep:
        folder = Path(keep)
        folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{name}.png"
    page.screenshot(path=str(png))
    print(f"screenshot: {png}")
    return png


def test_report_of_the_pod_renders_and_clicks_show_findings(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert run("report", str(SCENARIOS["pod-small"]), "-o", str(out)).exit_code == 0
    assert "<script src" not in out.read_text() and "<link" not in out.read_text()
    page, errors = _open(browser, out)
    assert page.locator("#view g.sw").count() == 12
    assert page.locator("#view line.link").count() == 64
    page.locator('#view g.sw[data-device="spine-1"]').click()
    assert "RC204" in page.locator("#panel").inner_text()
    page.locator('#view g.sw[data-device="leaf-1"]').click()
    panel = page.locator("#panel").inner_text()
    # the leaf's notes: no source gives the S9855-32D's default ECMP cap (RC118, info) nor the
    # size of the cells its headroom is counted in (RC204, a warning that it cannot verify)
    assert "RC118 info" in panel and " error " not in panel
    assert "RC204 warning" in panel and panel.count(" warning ") == 1
    page.locator("#view line.link").first.click(force=True)
    assert " - " in page.locator("#panel h3").inner_text()
    assert errors == []


def test_report_draws_the_deadlock_cycle(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "valley.html"
    args = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2"]
    assert run("report", str(VALLEY), "-o", str(out), *args).exit_code == 0
    page, errors = _open(browser, out)
    assert page.locator("#view g.num").count() == 4
    assert page.locator("#view line.hop").count() == 4
    assert page.locator("#cycles section").count() == 2
    assert errors == []


def test_large_fabrics_open_as_an_overview_of_groups(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html_report, "DETAIL_LIMIT", 5)
    out = tmp_path / "grouped.html"
    out.write_text(html_report.render(gather(SCENARIOS["pod-small"])))
    page, errors = _open(browser, out)
    assert page.locator("#view g.group").count() == 9  # spines + 8 rails
    page.locator('#view g.group[data-group="rail 3"]').click()
    assert page.locator("#view g.sw").count() == 5  # rail 3's leaf with the 4 spines
    page.locator("#back").click()
    assert page.locator("#view g.group").count() == 9
    assert errors == []


def test_three_tier_overview_groups_pods_and_planes(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each pod on its own, super-spines by the spines they face (one group per plane), and
    every link drawn in exactly one view."""
    monkeypatch.setattr(html_report, "DETAIL_LIMIT", 5)
    data = gather(SCENARIOS["three-tier-planes"])
    out = tmp_path / "tiers.html"
    out.write_text(html_report.render(data))
    page, errors = _open(browser, out)
    groups = page.locator("#view g.group")
    assert sorted(groups.nth(i).get_attribute("data-group") for i in range(groups.count())) == [
        "plane 0",
        "plane 1",
        "pod 0",
        "pod 1",
    ]
    drawn = 0
    for name in ("pod 0", "pod 1", "plane 0", "plane 1"):
        page.locator(f'#view g.group[data-group="{name}"]').click()
        drawn += page.locator("#view line.link").count()
        if name.startswith("plane"):
            # two super-spines of the plane over the one spine of each pod they face
            assert page.locator("#view g.sw").count() == 4
        page.locator("#back").click()
    assert drawn == len(data.links)
    assert errors == []


def test_switches_are_in_natural_order() -> None:
    names = [d.hostname for d in gather(SCENARIOS["cluster-mixed"]).devices]
    assert len(names) >= 10
    numbered = [n for n in names if n.startswith("leaf-")]
    keys = [(n.rsplit("-", 1)[0], int(n.rsplit("-", 1)[1])) for n in numbered]
    assert keys == sorted(keys)  # leaf-2 before leaf-10, not after it
    assert any(k[1] >= 10 for k in keys)


def test_buffer_bars_show_the_headroom_and_say_where_the_buffer_is_unknown() -> None:
    """Headroom needed is known for every switch and gets a bar; the buffer gets a scale only
    where its size is known, and a plain sentence where it is not."""
    from types import SimpleNamespace

    from roce_cfg.report.data import Budget

    rows = [Budget("leaf-1", 200_000, 4_000_000, "packet buffer", "h3c S1"),
            Budget("leaf-2", 300_000, None, "not published", "ruijie R2")]  # fmt: skip
    html = html_report._bars(SimpleNamespace(budgets=rows))  # type: ignore[arg-type]
    known, unknown = html.split(">leaf-2<")
    assert 'class="used" style="width:5.00%"' in known  # 200 KB of a 4 MB scale
    assert 'class="cap" style="width:100.00%"' in known and "fits" in known
    assert 'class="used" style="width:7.50%"' in unknown and 'class="cap"' not in unknown
    assert 'class="unknown"' in unknown
    assert "ruijie R2&#x27;s buffer size is not published" in unknown
    assert "cannot be checked" in unknown


def test_buffer_rows_share_one_line_per_model_and_figure() -> None:
    from types import SimpleNamespace

    from roce_cfg.report.data import Budget

    rows = [Budget(f"leaf-{i}", 100, None, "not published", "m") for i in range(1, 513)]
    html = html_report._bars(SimpleNamespace(budgets=rows))  # type: ignore[arg-type]
    assert html.count('class="brow"') == 1
    assert "leaf-1 ... leaf-512 (512 switches)" in html and "leaf-300," in html


def test_a_wide_fabric_wraps_to_the_page_and_a_link_shows_both_ends(
    browser: Any, tmp_path: Path
) -> None:
    out = tmp_path / "cluster.html"
    assert run("report", str(SCENARIOS["cluster-mixed"]), "-o", str(out)).exit_code == 0
    page, errors = _open(browser, out, (1000, 800))
    got = _measure(page)
    assert got["boxes_outside"] == 0 and got["min_label_px"] >= 11  # wrapped, not shrunk
    link = page.locator("#view line.link").first
    a, ap = link.get_attribute("data-a"), link.get_attribute("data-ap")
    b, bp = link.get_attribute("data-b"), link.get_attribute("data-bp")
    link.dispatch_event("click")  # links cross: a click at a point may hit another one
    table = page.locator("#panel #ends").inner_text()
    assert f"{a} {ap}" in table and f"{b} {bp}" in table
    assert "PFC" in table and "MTU" in table and "no-drop priorities" in table
    assert "address" in table
    assert errors == []


def test_bill_of_materials_counts_what_fabric_json_holds(tmp_path: Path) -> None:
    """Switches, cables and optics in the documents and the report, counted here straight from
    the generated fabric.json (not through the advisor's counting functions they share)."""
    from collections import Counter

    assert run("generate", str(SCENARIOS["pod-small"]), "-o", str(tmp_path / "cfg")).exit_code == 0
    doc = json.loads((tmp_path / "cfg/fabric.json").read_text())
    switches = Counter((s["role"], f"{s['vendor']} {s['model']}") for s in doc["switches"])
    nics = Counter(f"{n['speed_gbps']}G x {n['cable_m']:g}m" for n in doc["nics"])
    links = Counter(f"{k['speed_gbps']}G x {k['cable_m']:g}m" for k in doc["links"])
    optics: Counter[str] = Counter()
    for item in [*doc["nics"], *doc["links"]]:
        optics[f"{item['speed_gbps']}G"] += 2
    assert sum(nics.values()) == 128 and sum(links.values()) == 64  # the pod, not an empty file

    for source in (SCENARIOS["pod-small"], tmp_path / "cfg"):  # from the intent and the folder
        bom = gather(source).bom
        assert bom is not None
        got = Counter({(t, m): n for t, ms in bom.switches.items() for m, n in ms.items()})
        assert got == switches
        assert bom.nic_cables == dict(nics) and bom.link_cables == dict(links)
        assert bom.transceivers == dict(optics)

    out = tmp_path / "docs"
    assert run("docs", str(SCENARIOS["pod-small"]), "-o", str(out)).exit_code == 0
    index = (out / "index.md").read_text()
    section = index.split("## Bill of materials\n", 1)[1].split("\n## ", 1)[0]
    for (role, model), n in switches.items():
        assert f"| {role} | {model} | {n} |" in section
    for k, n in nics.items():
        assert f"| server NIC | {k} | {n} |" in section
    for k, n in links.items():
        assert f"| switch link | {k} | {n} |" in section
    for k, n in optics.items():
        assert f"| {k} | {n} |" in section

    page = html_report.render(gather(SCENARIOS["pod-small"]))
    bom_html = page.split("<h2>Bill of materials</h2>", 1)[1].split("<h2>", 1)[0]
    for (role, model), n in switches.items():
        assert f"<td>{role}</td><td>{model}</td><td>{n}</td>" in bom_html
    for k, n in optics.items():
        assert f"<td>{k}</td><td>{n}</td>" in bom_html


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The small pod and a three-tier fabric, reported once for the tests below."""
    folder = tmp_path_factory.mktemp("reports")
    out = {}
    here = Path.cwd()
    os.chdir(ROOT)  # the page names its source as a user's would: examples/pod-small.yaml
    try:
        for name in ("pod-small", "three-tier"):
            out[name] = folder / f"{name}.html"
            source = str(SCENARIOS[name].relative_to(ROOT))
            assert run("report", source, "-o", str(out[name])).exit_code == 0
    finally:
        os.chdir(here)
    return out


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
@pytest.mark.parametrize("fabric", ["pod-small", "three-tier"])
def test_the_report_is_readable_at_laptop_and_desktop_sizes(
    browser: Any, reports: dict[str, Path], tmp_path: Path, fabric: str, viewport: tuple[int, int]
) -> None:
    page, errors = _open(browser, reports[fabric], viewport)
    got = _measure(page)
    where = f"{fabric} {viewport}"
    _readable(got, where)
    assert got["boxes_outside"] == 0, where  # a small fabric is all in view at natural size
    rows = page.locator(".budget .brow").count()
    assert rows >= 1 and len(got["bars"]) == rows and min(got["bars"]) > 0, where
    assert got["unknown_said"] == page.locator(".budget .track .unknown").count(), where
    page.locator('#view g.sw[data-device="spine-1"]').click()  # as in the README picture
    stage, panel = page.locator("#stage").bounding_box(), page.locator("#panel").bounding_box()
    assert panel["x"] >= stage["x"] and panel["x"] + panel["width"] <= stage["x"] + stage["width"]
    assert panel["y"] + panel["height"] <= stage["y"] + stage["height"] + 1
    assert _measure(page)["overflowing"] == [], where
    png = _shot(page, tmp_path, f"{fabric}-{viewport[0]}x{viewport[1]}")
    assert png.stat().st_size > 10_000
    if fabric == "pod-small" and viewport == README_SHOT and os.environ.get(UPDATE_PICTURE):
        shutil.copyfile(png, ROOT / "docs/report-pod-small.png")  # the README's picture
    assert errors == []


def test_zoom_pan_and_fit(browser: Any, reports: dict[str, Path]) -> None:
    page, errors = _open(browser, reports["pod-small"], (1280, 800))
    before = _measure(page)["min_label_px"]
    page.locator("#zin").click()
    assert _measure(page)["min_label_px"] == pytest.approx(before * 1.25, rel=0.01)
    page.locator("#actual").click()
    assert _measure(page)["min_label_px"] == pytest.approx(before, rel=0.01)
    box = page.locator("#view").bounding_box()
    spine = page.locator('#view g.sw[data-device="spine-1"] rect')
    x0 = spine.bounding_box()["x"]
    page.mouse.move(box["x"] + 40, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 140, box["y"] + 200, steps=5)
    page.mouse.up()
    assert spine.bounding_box()["x"] == pytest.approx(x0 + 100, abs=2)  # dragged 100 px right
    assert page.locator("#panel").is_hidden()  # a drag is not a click: nothing selected
    page.locator("#fit").click()
    assert _measure(page)["boxes_outside"] == 0
    page.locator("#find").fill("leaf-7")
    page.locator("#find").press("Enter")
    page.locator("#find").dispatch_event("change")
    assert page.locator("#panel h3").inner_text() == "leaf-7"
    assert errors == []


def _xl_report() -> Path:
    """The xl bench fabric's report (1,280 switches, 65,536 links), built once and kept in the
    temp folder under a key of everything that shapes it (package, templates, vendor data, the
    intent): a rerun with nothing changed reuses it, any change rebuilds it."""
    intent = ROOT / "bench/fabric-xl.yaml"
    key = hashlib.sha256(intent.read_bytes())
    for folder in ("roce_cfg", "templates", "vendors"):
        for p in sorted((ROOT / folder).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                key.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    cache = Path(tempfile.gettempdir()) / "roce-cfg-test-cache"
    out = cache / f"report-xl-{key.hexdigest()[:16]}.html"
    if not out.is_file():
        cache.mkdir(exist_ok=True)
        part = cache / f"{out.name}.{os.getpid()}.part"
        result = run("report", str(intent), "-o", str(part))
        assert result.exit_code == 0, result.output
        part.replace(out)
    print(f"xl report: {out}")
    return out


@pytest.fixture(scope="session")
def xl_report() -> Path:
    return _xl_report()


@pytest.mark.slow  # the xl fabric's report: 17-20 s to build on a fresh machine
def test_the_xl_report_is_small(xl_report: Path) -> None:
    assert xl_report.stat().st_size < 10 * 2**20  # was 54 MB with a drawing per group


@pytest.mark.slow  # the xl fabric's report: 17-20 s to build on a fresh machine
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_the_xl_overview_fits_the_page_and_a_pod_opens_usable(
    browser: Any, xl_report: Path, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    page, errors = _open(browser, xl_report, viewport)
    got = _measure(page)
    _readable(got, f"xl overview {viewport}")
    assert got["nodes"] == 72  # 8 pods and 64 planes of super-spines...
    assert got["boxes_outside"] == 0  # ...every one in view at natural size
    _shot(page, tmp_path, f"xl-overview-{viewport[0]}x{viewport[1]}")
    page.locator('#view g.group[data-group="pod 0"]').click()
    got = _measure(page)
    _readable(got, f"xl pod 0 {viewport}")
    assert got["nodes"] == 128 and page.locator("#view line.link").count() == 4096
    assert got["box_h"] >= 300  # not a sliver (was 304x25 px)
    assert got["boxes_outside"] == 0  # the pod's 128 switches all in view, labels legible
    page.locator('#view g.sw[data-device="leaf-9"]').click()
    assert page.locator("#view line.link.sel").count() == 64  # its uplinks stand out
    hidden = page.evaluate(UNDER_PANEL)
    assert hidden, "the open panel covers no switch: nothing to test"
    spine = page.locator(f'#view g.sw[data-device="{hidden}"]')
    spine.dispatch_event("click")  # a switch under the open panel is panned out from under it
    box, panel = spine.bounding_box(), page.locator("#panel").bounding_box()
    assert box["x"] + box["width"] < panel["x"]
    _shot(page, tmp_path, f"xl-pod-{viewport[0]}x{viewport[1]}")
    page.locator("#back").click()
    page.locator("#find").fill("superspine-17")
    page.locator("#find").dispatch_event("change")
    assert page.locator("#status").get_attribute("data-view", timeout=1000).startswith("plane")
    assert page.locator("#view g.sw.sel").get_attribute("data-device") == "superspine-17"
    assert errors == []


def test_hostile_names_and_messages_stay_text(browser: Any, tmp_path: Path) -> None:
    """Names and messages come from configs: quotes, tags and script ends are shown as text,
    never parsed as markup, and the page still runs."""
    from roce_cfg.analysis import Finding

    data = gather(SCENARIOS["pod-small"])
    evil = "x</script><!--<script>'\"><img src=x onerror=\"document.title='pwned'\">"
    name = "le'af\"<b>1</b>"
    data.devices[0] = data.devices[0].model_copy(update={"hostname": name})
    port = "Eth'<u>1</u>"
    data.findings = [
        Finding(rule="RC999", severity="error", device=name, message=evil, port=port, file=evil)
    ]
    out = tmp_path / "hostile.html"
    out.write_text(html_report.render(data))
    page, errors = _open(browser, out)
    page.locator("#view g.sw").filter(has_text="le'af").dispatch_event("click")
    assert page.locator("#panel h3").inner_text() == name
    assert evil in page.locator("#panel li").inner_text()
    assert page.locator("#panel img, #view img, #view b").count() == 0
    # the findings table: each value a cell's text, the switch's link still finds it
    assert page.evaluate(TABLE) == [["error", "RC999", name, port, "", evil]]
    assert page.locator("#ftable img, #ftable b, #ftable u, #ftools b").count() == 0
    page.locator("#close").click()
    page.locator("#ftable a.dev").click()
    assert page.locator("#panel h3").inner_text() == name
    assert page.title() != "pwned" and errors == []


def test_port_settings_ship_once_per_profile_and_every_end_keeps_its_address() -> None:
    data = gather(SCENARIOS["pod-small"])
    data.links.append(data.links[0])  # a port in two links (a duplicate) keeps its address
    index = {d.hostname: i for i, d in enumerate(data.devices)}
    wire = html_report._wire(data, index)
    assert len(wire["links"]) == 4 * len(data.links) and len(wire["ends"]) == 2 * len(data.links)
    assert len(wire["profiles"]) <= 4  # 128 link ends, a few distinct settings
    assert all("address" not in p for p in wire["profiles"])
    assert wire["addresses"][:2] == wire["addresses"][-2:] and "-" not in wire["addresses"][:2]


@settings(max_examples=examples(40), deadline=None)
@given(
    number=st.integers(0, 2**32 - 1),
    length=st.integers(0, 32),
    v4=st.booleans(),
    v6=st.sampled_from([None, "2001:db8::1/127", "other port"]),
)
def test_a_link_ends_addresses_read_as_ipaddress_prints_them(
    number: int, length: int, v4: bool, v6: str | None
) -> None:
    """``_addresses``'s fast IPv4 text is ipaddress's, whatever the address and length, and
    a port with IPv6 or none is shown as before."""
    device = _pod_device()
    port = device.interfaces[0]
    port = port.model_copy(update={"ipv4": IPv4Interface((number, length)) if v4 else None})
    if v6 is not None:
        named = port.name if v6 != "other port" else "elsewhere"
        ipv6 = (PortIpv6(port=named, address=IPv6Interface("2001:db8::1/127")),)
        device = device.model_copy(update={"ipv6_ports": ipv6})
    said = ", ".join(map(str, addresses.of_port(device, port))) or "-"
    assert html_report._addresses(device, port) == said


@functools.cache
def _pod_device() -> DeviceConfig:
    return gather(SCENARIOS["pod-small"]).devices[0]


def _findings(data: Any) -> list[str]:
    return [f.model_dump_json() for f in data.findings]


@pytest.fixture(scope="module")
def both_ways() -> dict[str, tuple[Any, Any]]:
    """Every shipped intent reported both ways: as designed, and rendered then parsed back."""
    sources = {**SCENARIOS, "valley": VALLEY}
    return {n: (gather(p), gather(p, round_trip=True)) for n, p in sources.items()}


@pytest.mark.slow
def test_designed_and_parsed_back_findings_agree_on_every_intent(
    both_ways: dict[str, tuple[Any, Any]],
) -> None:
    """The designed path skips the parse; it must judge exactly what the parse would give."""
    assert len(both_ways) == 12
    for name, (designed, parsed) in both_ways.items():
        assert (designed.checked, parsed.checked) == ("designed", "parsed")
        # what the rules judge: the design is what parsing its rendered text gives back
        assert designed.devices == parsed.devices, name
        assert _findings(designed) == _findings(parsed), name
        assert designed.budgets == parsed.budgets and designed.headroom == parsed.headroom, name
    every = [f for d, _ in both_ways.values() for f in d.findings]
    # not agreement on nothing: findings, and the lines they cite in the rendered configs
    assert len(every) >= 50 and sum(f.line is not None for f in every) >= 20


def test_an_intent_is_linted_without_parsing_its_configs_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import roce_cfg.inputs as inputs

    def no_parse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the designed path parsed a config")

    monkeypatch.setattr(inputs, "screen_each", no_parse)
    data = gather(SCENARIOS["pod-small"])
    assert data.checked == "designed" and len(data.findings) > 0
    with pytest.raises(AssertionError, match="parsed a config"):
        gather(SCENARIOS["pod-small"], round_trip=True)


def test_the_report_says_what_was_linted(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    assert run("generate", str(SCENARIOS["pod-small"]), "-o", str(folder)).exit_code == 0
    said = {}
    for name, args in {
        "intent": [str(SCENARIOS["pod-small"])],
        "round-trip": [str(SCENARIOS["pod-small"]), "--round-trip"],
        "folder": [str(folder)],
    }.items():
        page = tmp_path / f"{name}.html"
        result = run("report", *args, "-o", str(page), "--format", "json")
        assert result.exit_code == 0, result.output
        checked = json.loads(result.output)["checked"]
        assert f"Linted: {html_report.CHECKED[checked]}" in page.read_text()
        said[name] = checked
    assert said == {"intent": "designed", "round-trip": "parsed", "folder": "parsed"}
    out = tmp_path / "docs"
    assert run("docs", str(folder), "-o", str(out)).exit_code == 0
    assert "Linted: the configs as parsed" in (out / "index.md").read_text()


STRETCHED = ROOT / "tests/deadlock/stretched-vlan"  # healthy-fabric cycles: RC501
SEVERITIES = ("error", "warning", "info")


def _page_findings(page: Path) -> list[dict[str, Any]]:
    """The findings the page ships, from its JSON data."""
    text = page.read_text("utf-8")
    head = '<script id="data" type="application/json">'
    start = text.index(head) + len(head)
    found: list[dict[str, Any]] = json.loads(text[start : text.index("</script>", start)])[
        "findings"
    ]
    return found


def _where(findings: list[dict[str, Any]]) -> list[tuple[str, str, str, int]]:
    return sorted(
        (f["rule"], f["device"], f.get("port") or "", f.get("line") or 0) for f in findings
    )


@pytest.fixture(scope="module")
def same_input(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each input reported, and linted as the report lints it: a generated pod; the pod with a
    spine's config and fabric.json missing (its leaves' BGP peers and lossless ports face no
    config: RC311, RC313); an intent (lint of its rendered configs against it); a folder whose
    healthy fabric has deadlock cycles (RC501: lint --deadlock)."""
    work = tmp_path_factory.mktemp("same-input")
    pod, missing = work / "pod", work / "missing"
    assert run("generate", str(SCENARIOS["pod-small"]), "-o", str(pod)).exit_code == 0
    shutil.copytree(pod, missing)
    (missing / "fabric.json").unlink()
    (missing / "spine-1.cfg").unlink()
    intent = str(SCENARIOS["pod-small"])
    cases = {
        "pod": ([str(pod)], [str(pod)]),
        "missing": ([str(missing)], [str(missing)]),
        "intent": ([intent], [str(pod), "--intent", intent]),
        "cycles": ([str(STRETCHED)], [str(STRETCHED), "--deadlock"]),
    }
    out = {}
    for name, (report_args, lint_args) in cases.items():
        page = work / f"{name}.html"
        reported = run("report", *report_args, "-o", str(page), "--format", "json")
        assert reported.exit_code == 0, reported.output
        linted = run("lint", *lint_args, "--format", "json")
        assert linted.exit_code in (0, 1), linted.output
        out[name] = {
            "page": page,
            "report": json.loads(reported.output),
            "lint": json.loads(linted.output),
        }
    return out


def test_the_report_counts_what_lint_counts_on_the_same_input(
    same_input: dict[str, dict[str, Any]],
) -> None:
    """One findings list: a rule lint judges is not judged again by the deadlock analysis (the
    page had RC311 and RC313 twice, as lint's info and as the analysis's errors)."""
    rules = set()
    for name, got in same_input.items():
        lint, shown = got["lint"], _page_findings(got["page"])
        assert got["report"]["findings"] == {k: lint["summary"][k] for k in SEVERITIES}, name
        assert _where(shown) == _where(lint["findings"]), name
        rules |= {f["rule"] for f in shown}
    # not agreement on nothing: the gaps a missing config opens, and a deadlock cycle
    assert {"RC311", "RC313", "RC501", "RC118"} <= rules


def test_where_the_analysis_could_not_see_is_said_beside_its_cycles(
    same_input: dict[str, dict[str, Any]],
) -> None:
    """The gaps are lint's findings (info); the deadlock section still says that 'no cycle'
    over them is no all-clear."""
    missing = same_input["missing"]["page"].read_text("utf-8")
    assert '<p id="unverified"' in missing and "gaps in the fabric seen (RC311-RC314)" in missing
    assert '<p id="unverified"' not in same_input["pod"]["page"].read_text("utf-8")


TABLE = """() => [...document.querySelectorAll('#ftable tbody tr')].map(
  r => [...r.cells].map(c => c.textContent))"""
PANEL = """() => {
  const p = document.getElementById('panel'), r = p.getBoundingClientRect();
  return {w: r.width, h: r.height, font: parseFloat(getComputedStyle(p).fontSize),
    stage: document.getElementById('stage').getBoundingClientRect().height};
}"""


def _sorted_by(page: Any, key: str) -> list[list[str]]:
    page.locator(f'#ftable th[data-key="{key}"] button').click()
    rows: list[list[str]] = page.evaluate(TABLE)
    return rows


def _table_at(browser: Any, got: dict[str, Any], viewport: tuple[int, int], tmp: Path) -> Any:
    """The findings table of the page at ``viewport``: every lint finding a row, filters and
    sorting as lint's findings say, a switch's link selecting it; the panel's size returned."""
    lint = got["lint"]["findings"]
    page, errors = _open(browser, got["page"], viewport)
    rows = page.locator("#ftable tbody tr")
    # 35, and one RC204 on each of the 11 switches left: headroom in cells of a size no source
    # gives (the 8 H3C leaves), a default of a model not stated (the 3 Huawei spines)
    assert rows.count() == len(lint) == 46, viewport
    page.locator("#f-rule").select_option("RC313")
    assert [r[1] for r in page.evaluate(TABLE)] == ["RC313"] * sum(
        f["rule"] == "RC313" for f in lint
    )
    page.locator("#f-rule").select_option("")
    page.locator("#f-dev").fill("leaf-3")
    leaf3 = sum(f["device"] == "leaf-3" for f in lint)
    assert rows.count() == leaf3 and page.locator("#f-count").inner_text().startswith(f"{leaf3} of")
    page.locator("#f-dev").fill("")
    lines = [r[4] for r in _sorted_by(page, "line")]
    numbers = [int(x) for x in lines if x]
    assert numbers == sorted(numbers) and numbers[0] < numbers[-1]
    assert lines == [str(n) for n in numbers] + [""] * (len(lines) - len(numbers))  # none last
    assert [r[4] for r in _sorted_by(page, "line")][-len(numbers) :] == list(
        map(str, sorted(numbers, reverse=True))
    )
    header = page.locator('#ftable th[data-key="line"]')
    assert header.get_attribute("aria-sort") == "descending"
    devices = [r[2] for r in _sorted_by(page, "device")]
    assert devices == sorted(devices, key=natural) and len(set(devices)) == 11
    page.locator("#ftable a.dev", has_text="leaf-3").first.click()
    assert page.locator("#view g.sw.sel").get_attribute("data-device") == "leaf-3"
    assert page.locator("#panel h3").inner_text() == "leaf-3"
    assert page.locator("#panel li").count() == leaf3
    _readable(_measure(page), f"findings table {viewport}")
    _shot(page, tmp, f"findings-{viewport[0]}x{viewport[1]}")
    assert errors == []
    return page.evaluate(PANEL)


def test_the_findings_table_is_lints_and_the_panel_grows_with_the_screen(
    browser: Any, same_input: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    small, large = (_table_at(browser, same_input["missing"], v, tmp_path) for v in VIEWPORTS)
    assert large["w"] >= 1.3 * small["w"] and large["font"] > small["font"], (small, large)
    assert large["stage"] > small["stage"] and large["w"] * large["h"] > small["w"] * small["h"]
