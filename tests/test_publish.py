"""The publishing mode (issue #13 items 2 and 4, issue #15 item 5, issue #20 items 3 and 4;
docs/publishing.md): the landing page, the kernel quota with its busy page, the culling of
idle kernels, preheated kernels, no request to any CDN, and a bounded load test; Voilà's
doors left shut (no template or theme from the URL, no file tree, the project's error
pages), widget-protocol errors kept from the visitor, and the memory cap per kernel. Every
server listens on 127.0.0.1 and every browser request to another host is recorded and
refused."""

from __future__ import annotations

import asyncio
import concurrent.futures
import html.parser
import json
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest
from browser_support import ARTIFACTS, chromium_path, launch, published

import rules_kernel as rk
from publish import landing, serve
from rules_kernel import tablebase
from rules_kernel.tablebase import PERFECT_PLAY_ENV

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
needs_chromium = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)
# Kernels that never had a browser connection (plain GETs) go after --connect-timeout, kernels
# whose tab closed after --cull-idle-timeout; both within timeout + two culler passes.
CULL = ["--cull-idle-timeout", "5", "--connect-timeout", "5", "--cull-interval", "1"]
CULL_DEADLINE = 5 + 2 * 1 + 15  # timeout + two culler passes (see PublishingKernelManager) + slack
# A browser page connects to its kernel only once Voilà's JavaScript (several MB) has loaded,
# which took over 10 s for several pages on a busy 2-core machine: pages get 120 s to connect.
BROWSER_CULL = ["--cull-idle-timeout", "5", "--connect-timeout", "120", "--cull-interval", "1"]
BROWSER_CULL_DEADLINE = CULL_DEADLINE
# only the two pages these tests open are preheated: fewer kernels to start on a busy machine
EXPLORER_PREHEAT = ["--preheat", "index.ipynb", "--preheat", "explorer.ipynb"]


# --- the landing page, without a server ---------------------------------------------------


def test_landing_page_has_a_card_for_every_notebook():
    page = landing.landing_html(NOTEBOOKS)
    others = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name != "index.ipynb")
    assert others, "there are notebooks to list"
    for name in others:
        assert f'href="{name}"' in page, f"no link to {name}"
    assert 'href="index.ipynb"' not in page
    assert page.count('class="landing-card"') == len(others)
    assert page.count("data:image/svg+xml;base64,") == len(others)  # a thumbnail each
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page


def test_landing_links_under_voila_use_the_server_base_url(monkeypatch):
    monkeypatch.setenv("VOILA_BASE_URL", "/games/")
    assert 'href="/games/voila/render/replay.ipynb"' in landing.landing_html(NOTEBOOKS)
    monkeypatch.delenv("VOILA_BASE_URL")
    assert 'href="replay.ipynb"' in landing.landing_html(NOTEBOOKS)


def test_landing_card_text_comes_from_the_notebook():
    cards = {card.file_name: card for card in landing.notebook_cards(NOTEBOOKS)}
    explorer = cards["explorer.ipynb"]
    assert explorer.title == "Rules Explorer"
    assert explorer.description.startswith("Pick a game")
    assert explorer.description.endswith(".") and "\n" not in explorer.description
    assert cards["rules-war-chest.ipynb"].game_id == "war-chest"
    assert cards["replay.ipynb"].game_id == "yokai-5x6"  # its metadata: rules_explorer.thumbnail


def test_a_card_never_cuts_its_text(tmp_path):
    """Issue 46 item 7 (the page tour found three cards cut with "…"): a long first sentence
    stays whole, and every shipped card says what its page is in full."""
    long = "A sentence " + "that goes on " * 20 + "to its end. And a second one."
    write_notebook(tmp_path / "long.ipynb", f"# Long\n\n{long}")
    (card,) = landing.notebook_cards(tmp_path)
    assert card.description == long.split(" And")[0] and "…" not in card.description
    for card in landing.notebook_cards(NOTEBOOKS):
        assert not card.description.endswith("…") and card.description.endswith((".", "!", "?")), card


@pytest.mark.parametrize("declared", ["no-such-game", ["yokai-3x4"], "../../etc/passwd", {"id": "to-war"}, 7])
def test_a_thumbnail_the_metadata_names_is_taken_only_when_it_is_a_game(tmp_path, declared):
    """Notebook metadata is data: an unknown id, a path or a non-string picks the fallback."""
    write_notebook(tmp_path / "mine.ipynb", "# Mine", rules_explorer={"thumbnail": declared})
    write_notebook(tmp_path / "theirs.ipynb", "# Theirs", rules_explorer={"thumbnail": "war-chest"})
    cards = {card.stem: card for card in landing.notebook_cards(tmp_path)}
    assert cards["mine"].game_id == rk.list_games()[0]  # the fallback of the first card
    assert cards["theirs"].game_id == "war-chest"


def write_notebook(path: Path, markdown: str, code: str = "print('hello')", **metadata) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata.update(
        {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}, **metadata}
    )
    nb.cells = [nbformat.v4.new_markdown_cell(markdown), nbformat.v4.new_code_cell(code)]
    nbformat.write(nb, path)


def test_landing_page_escapes_every_text(tmp_path):
    """A notebook's title, description and file name are text, never markup."""
    write_notebook(
        tmp_path / 'x"><img src=y onerror=alert(3)>.ipynb',
        '# <img src=x onerror=alert(1)>\n\nFirst <b>bold</b> & "quoted" sentence. Second.',
    )
    write_notebook(tmp_path / "meta.ipynb", "# Meta", rules_explorer={"description": "<svg onload=alert(2)>"})
    page = landing.landing_html(tmp_path)
    assert "<script>" not in page and "<img src=" not in page and "<svg onload" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "First &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; sentence." in page
    assert "&lt;svg onload=alert(2)&gt;" in page
    assert 'href="x%22%3E%3Cimg%20src%3Dy%20onerror%3Dalert%283%29%3E.ipynb"' in page


# --- settings and the quota, without a server ---------------------------------------------


def test_publish_options():
    settings = serve.parse_args(
        [
            "--ip",
            "0.0.0.0",
            "--port",
            "9000",
            "--max-kernels",
            "3",
            "--cull-idle-timeout",
            "60",
            "--cull-interval",
            "10",
            "--pool-size",
            "0",
            "--connect-timeout",
            "90",
            "--base-url",
            "games",
            "--Voila.theme=dark",
        ]
    )
    config = settings.voila_config()
    assert (config.Voila.ip, config.Voila.port, config.Voila.base_url) == ("0.0.0.0", 9000, "/games/")
    assert config.PublishingVoila.max_kernels == 3
    assert config.MappingKernelManager.cull_idle_timeout == 60
    assert config.MappingKernelManager.cull_interval == 10
    assert config.MappingKernelManager.cull_connected is False
    assert config.PublishingKernelManager.connect_timeout == 90
    assert config.VoilaConfiguration.preheat_kernel is False  # pool size 0
    assert config.VoilaConfiguration.template == "rules-explorer"
    assert settings.extra_voila_args == ["--Voila.theme=dark"]
    assert settings.perfect_play is True and settings.kernel_environment() == {}
    skipped = serve.parse_args(["--no-perfect-play"])
    assert skipped.perfect_play is False
    assert skipped.kernel_environment() == {PERFECT_PLAY_ENV: "off"}  # the kernels offer no switch
    for mib in (512, 0):  # 0: no cap
        capped = serve.parse_args(["--kernel-memory-mib", str(mib)]).voila_config()
        assert capped.GuardedKernelManager.memory_mib == mib
    defaults = serve.parse_args([]).voila_config()
    assert defaults.Voila.ip == "127.0.0.1"  # nothing is exposed unless asked
    # no template or theme from the URL or the notebook; a memory cap on every kernel
    assert defaults.VoilaConfiguration.allow_template_override == "NO"
    assert defaults.VoilaConfiguration.allow_theme_override == "NO"
    assert defaults.GuardedKernelManager.memory_mib == serve.KERNEL_MEMORY_MIB > 0
    # nbclient's own 4 s lost the explorer's widget output under 20 sessions at once
    assert defaults.VoilaExecutor.iopub_timeout >= 60
    assert defaults.VoilaConfiguration.preheat_kernel is True
    pools = defaults.VoilaKernelManager.kernel_pools_config
    assert pools.pop("default") == {"pool_size": 0}
    # the front door, the explorer and every page with a render goal (issue 15)
    assert set(pools) == {
        "index.ipynb",
        "explorer.ipynb",
        "statistics.ipynb",
        "statistics-dashboard.ipynb",
        *(p.name for p in NOTEBOOKS.glob("rules-*.ipynb")),
    }
    assert all(pool == {"pool_size": 1} for pool in pools.values())


@pytest.mark.parametrize(
    "argv",
    [
        ["--port", "70000"],
        ["--max-kernels", "0"],
        ["--cull-interval", "-1"],
        ["--kernel-memory-mib", "-1"],
        ["--notebooks", "/nonexistent/dir"],
        ["stray"],
    ],
)
def test_bad_publish_options_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        serve.parse_args(argv)
    assert stop.value.code == 2
    assert "error:" in capsys.readouterr().err


class FakeKernelManager:
    def __init__(self, n: int):
        self.ids = [f"k{i}" for i in range(n)]

    def list_kernel_ids(self):
        return list(self.ids)


def test_quota_counts_kernels_and_admitted_requests():
    quota, kernels = serve.KernelQuota(3), FakeKernelManager(1)
    assert quota.admit(kernels) and quota.admit(kernels)  # 1 kernel + 2 requests on their way
    assert not quota.admit(kernels)
    quota.release()  # one request got its kernel...
    kernels.ids.append("k1")  # ...which the kernel manager now lists
    assert not quota.admit(kernels)
    kernels.ids.clear()
    assert quota.admit(kernels) and quota.reserved == 2


def test_culler_survives_a_kernel_that_is_still_starting():
    """A kernel still starting has no `last_activity` (the trait refuses its None default): the
    culler counted it as just active instead of failing its pass with a TraitError (seen in the
    server log under 20 concurrent sessions)."""
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    manager = serve.PublishingKernelManager()
    starting = ServerKernelManager()
    with pytest.raises(Exception, match="last_activity"):
        _ = starting.last_activity
    manager._kernels["starting"] = starting
    assert manager._idle_seconds("starting") == 0.0
    assert manager._idle_seconds("gone") == 0.0


# --- a real server ------------------------------------------------------------------------


def get(url: str, timeout: float = 120) -> tuple[int, str, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def test_busy_page_bounded_kernels_and_culling(tmp_path):
    """Plain GETs (no JavaScript, so no kernel connection ever): beyond --max-kernels a visitor
    gets the busy page (503), the server never holds more kernels than the bound, and the
    kernels nobody connected to are culled within the configured timeout."""
    write_notebook(tmp_path / "tiny.ipynb", "# Tiny", "1 + 1")
    with published("--max-kernels", "3", "--pool-size", "0", *CULL, notebooks=tmp_path) as site:
        url = site.url + "voila/render/tiny.ipynb"
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: get(url), range(8)))
            alive_during = len(site.kernel_pids())
        codes = sorted(code for code, _, _ in answers)
        assert set(codes) <= {200, 503}, codes
        assert 1 <= codes.count(200) <= 3 and codes.count(503) >= 5, codes
        assert alive_during <= 3
        busy_body, busy_headers = next((body, headers) for code, body, headers in answers if code == 503)
        assert "Busy: try again shortly" in busy_body and "All 3 places" in busy_body
        assert busy_headers["Retry-After"] == "30"
        assert len(site.kernel_pids()) <= 3

        site.wait_for_kernels(at_most=0, timeout=CULL_DEADLINE)  # nobody connected: all culled
        assert "Culling" in site.log()
        code, body, _ = get(url)
        assert code == 200 and "jupyter-config-data" in body, "a free place serves the page again"


BOARD = ".re-board [data-cell]"  # the explorer's SVG board has drawn its cells


@needs_chromium
def test_landing_page_explorer_sessions_no_cdn_and_culling():
    """The front door lists every notebook and links work; several explorer sessions at once
    all draw the board; no request leaves 127.0.0.1; closed sessions' kernels are culled."""
    from playwright.sync_api import sync_playwright

    sessions = 4
    others = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.name != "index.ipynb")
    with published("--max-kernels", "10", *BROWSER_CULL, *EXPLORER_PREHEAT) as site, sync_playwright() as p:
        site.wait_for_log("is filled with 1 kernel(s)", timeout=120, count=2)  # index + explorer
        preheated = len(site.kernel_pids())
        browser = launch(p)
        outside: list[str] = []
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        watch_for_outside_requests(context, outside)

        page = context.new_page()
        page.goto(site.url, timeout=90_000)  # / redirects to the landing page
        page.wait_for_selector(".landing-card", timeout=90_000)
        assert page.url.endswith("/voila/render/index.ipynb")
        assert page.locator(".re-home").is_hidden()  # the landing page needs no way back to itself
        links = page.eval_on_selector_all(".landing-card", "cards => cards.map(c => c.getAttribute('href'))")
        assert sorted(links) == [f"/voila/render/{name}" for name in others]
        drawn = "images => images.every(i => i.complete && i.naturalWidth > 0)"
        assert page.eval_on_selector_all(".landing-thumb", drawn), "a thumbnail did not load"
        page.screenshot(path=str(ARTIFACTS / "landing-1280x800.png"), full_page=False)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(ARTIFACTS / "landing-390x844.png"), full_page=False)
        page.set_viewport_size({"width": 1280, "height": 800})

        # The link works under the site's URLs. (JupyterLab's output renderer, which Voilà
        # uses, opens links to other pages in a new tab.)
        with context.expect_page(timeout=30_000) as opened:
            page.click(".landing-card[href$='/explorer.ipynb']")
        page = opened.value
        page.wait_for_selector(BOARD, timeout=90_000)
        assert page.url.endswith("/voila/render/explorer.ipynb")
        # every page but the landing page leads back to it (issue 46 item 6)
        home = page.get_by_role("link", name="← All pages")
        home.wait_for(state="visible", timeout=30_000)
        assert home.get_attribute("href") == "/voila/render/index.ipynb"

        others_pages = [context.new_page() for _ in range(sessions - 1)]
        for extra in others_pages:
            extra.goto(site.url + "voila/render/explorer.ipynb", wait_until="commit", timeout=90_000)
        for extra in others_pages:
            extra.wait_for_selector(BOARD, timeout=120_000)
        assert not outside, f"requests left 127.0.0.1: {outside}"
        assert len(site.kernel_pids()) <= 10

        context.close()  # tabs gone without a goodbye: only the culler frees their kernels
        site.wait_for_kernels(at_most=preheated, timeout=BROWSER_CULL_DEADLINE)
        browser.close()


def watch_for_outside_requests(context, outside: list[str]) -> None:
    """Record and refuse every request that is not for the local server."""

    def route(route):
        if route.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    context.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:"))
            else outside.append(request.url)
        ),
    )


@needs_chromium
def test_widget_icons_render_without_the_cdn(tmp_path):
    """Voilà's template linked Font Awesome from a CDN; the publishing template does not, and
    an ipywidgets button icon still renders from the font Voilà serves itself."""
    from playwright.sync_api import sync_playwright

    write_notebook(
        tmp_path / "icon.ipynb",
        "# Icon",
        "import ipywidgets as w\nw.Button(description='Again', icon='refresh')",
    )
    with published("--pool-size", "0", *CULL, notebooks=tmp_path) as site, sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context()
        outside: list[str] = []
        watch_for_outside_requests(context, outside)
        page = context.new_page()
        page.goto(site.url + "voila/render/icon.ipynb", timeout=90_000)
        assert icons_come_from_the_local_font(page), "the button's icon font did not load"
        assert not outside, f"requests left 127.0.0.1: {outside}"
        browser.close()


def icons_come_from_the_local_font(page) -> bool:
    """The explorer's button icons (Font Awesome classes) are drawn with a loaded local font."""
    page.wait_for_selector("i.fa", state="attached", timeout=30_000)
    return page.evaluate("""async () => {
        await document.fonts.ready;
        const icon = document.querySelector('i.fa');
        const family = getComputedStyle(icon, '::before').fontFamily;
        const loaded = [...document.fonts].some(
            f => /Font ?Awesome/i.test(f.family) && f.status === 'loaded');
        return /Font ?Awesome/i.test(family) && loaded;
    }""")


def test_front_door_redirects_and_pages_carry_no_cdn():
    """Without a browser: / is a redirect to the landing page; pages carry no CDN address."""
    with published("--pool-size", "0", *CULL) as site:
        request = urllib.request.Request(site.url)
        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(request, timeout=30)
        assert redirect.value.code in (301, 302)
        assert redirect.value.headers["Location"].endswith("/voila/render/index.ipynb")
        code, body, _ = get(site.url + "voila/render/index.ipynb")
        assert code == 200
        for cdn in ("cdn.jsdelivr.net", "cdnjs.cloudflare.com", "unpkg.com", "fontawesome"):
            assert cdn not in body.lower(), cdn
        config = json.loads(
            body.split('<script id="jupyter-config-data" type="application/json">')[1].split("</script>")[0]
        )
        assert config["kernelId"]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def test_busy_page_escapes_the_path():
    """The busy page repeats the requested path in its link: escaped, like every text in HTML."""

    class Request:
        path = '/voila/render/"><script>x</script>.ipynb'

    written: dict = {}

    class Handler:
        request = Request()

        def set_status(self, code):
            written["status"] = code

        def set_header(self, name, value):
            written[name] = value

        def finish(self, body):
            written["body"] = body

    serve.BoundedVoilaHandler.write_busy_page(Handler(), serve.KernelQuota(2))
    assert written["status"] == 503
    assert "<script>" not in written["body"] and "&lt;script&gt;" in written["body"]


# --- issue #20: Voilà's doors, widget-protocol errors, memory cap -------------------------


class Fetches(html.parser.HTMLParser):
    """Every address a browser would fetch by itself for a page: src, srcset, poster and
    data attributes, hrefs of <link> (stylesheets, icons, preloads), url() and @import in
    <style> and style attributes. (Links a visitor may follow, <a href>, are not fetches;
    xmlns and rdf names in the inline SVG are names, not addresses.)"""

    def __init__(self):
        super().__init__()
        self.addresses: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("src", "poster", "data") or (name == "href" and tag == "link"):
                self.addresses.append(value)
            elif name == "srcset":
                self.addresses += [part.split()[0] for part in value.split(",") if part.strip()]
            elif name == "style":
                self.addresses += css_addresses(value)
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.addresses += css_addresses(data)


def css_addresses(css: str) -> list[str]:
    return [
        m.group(1) or m.group(2)
        for m in re.finditer(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", css)
    ]


def outside_fetches(page: str) -> list[str]:
    """The addresses on another host that a page makes the browser fetch."""
    parser = Fetches()
    parser.feed(page)
    outside = []
    for address in parser.addresses:
        host = urllib.parse.urlsplit(address.strip()).hostname
        if host is not None and host not in ("127.0.0.1", "localhost"):
            outside.append(address)
    return outside


def test_outside_fetches_finds_a_cdn_link():
    """The check the server tests rely on does see what Voilà's own pages used to load."""
    voila_error_page = (
        '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/'
        'css/font-awesome.min.css" type="text/css" />'
    )
    assert outside_fetches(voila_error_page) == [
        "https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/css/font-awesome.min.css"
    ]
    assert outside_fetches(
        '<script src="//unpkg.com/x.js"></script><img srcset="a.png 1x, http://img.example/b.png 2x">'
    ) == ["//unpkg.com/x.js", "http://img.example/b.png"]
    assert outside_fetches(
        "<style>@import 'https://fonts.example/f.css'; b{background:url(/x.png)}</style>"
        '<p style="background: url(&quot;https://e.example/i.png&quot;)">'
    ) == ["https://fonts.example/f.css", "https://e.example/i.png"]
    assert (
        outside_fetches(
            '<a href="https://example.org/">a link</a><link href="/voila/static/x.css">'
            '<svg xmlns="http://www.w3.org/2000/svg"><img src="data:;base64,="></svg>'
        )
        == []
    )
    assert outside_fetches(serve.BUSY_PAGE.format(places=3, again="/voila/render/x.ipynb")) == []


WIDGETS_NOTEBOOK = """import ipywidgets as w
button = w.Button(description='Open')
button.on_click(lambda _: open('/nonexistent/secret/dir/file.txt'))  # a callback that fails
button"""
# Beyond the default cap, not touched (np.empty): without the cap it costs no memory at all.
HOG_NOTEBOOK = f"""import numpy as np
try:
    block = np.empty(({serve.KERNEL_MEMORY_MIB} + 64) * 2**20, dtype=np.uint8)
    print('allocated', block.nbytes)
except MemoryError:
    print('refused: MemoryError')"""
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
WIDGET_VIEW = re.compile(r'widget-view\+json": \{"model_id": "([0-9a-f]{32})"')


@pytest.fixture(scope="module")
def doors(tmp_path_factory):
    """One server in the publishing mode, its defaults (memory cap included), for the tests
    below: a notebook with a button, one that allocates beyond the cap, one whose kernel
    does not exist (a 500), and an index.ipynb so that / is the landing page's redirect."""
    folder = tmp_path_factory.mktemp("doors")
    write_notebook(folder / "widgets.ipynb", "# Widgets", WIDGETS_NOTEBOOK)
    write_notebook(folder / "hog.ipynb", "# Hog", HOG_NOTEBOOK)
    hog = nbformat.read(folder / "hog.ipynb", as_version=4)
    hog.cells.append(nbformat.v4.new_code_cell("print('still here', sum(range(10)))"))
    nbformat.write(hog, folder / "hog.ipynb")
    write_notebook(folder / "index.ipynb", "# Index", "1 + 1")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    nb.metadata["kernelspec"] = {"name": "no-such-kernel", "display_name": "none", "language": ""}
    nbformat.write(nb, folder / "nokernel.ipynb")
    with published("--pool-size", "0", notebooks=folder) as site:
        yield site


def timed_get(url: str) -> tuple[int, str, float]:
    start = time.monotonic()
    code, body, _ = get(url, timeout=30)
    return code, body, time.monotonic() - start


XSS = "%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"  # "><script>alert(1)</script>


@pytest.mark.parametrize(
    "query",
    [
        f"theme={XSS}",
        "template=nonexistent_template",
        "template=../../../etc",
        f"template={XSS}",
        "theme=dark&template=lab",
    ],
)
def test_no_template_or_theme_from_the_url(doors, query):
    """Voilà took ?theme= into the page unescaped (200 with the script), held a kernel and the
    connection for 60 s for a template that does not exist, and answered 500 to a path. Now:
    400 at once, no kernel started, nothing of the URL in the page, no other host."""
    before = len(doors.kernel_pids())
    code, body, seconds = timed_get(doors.url + f"voila/render/widgets.ipynb?{query}")
    assert code == 400, (code, body[:300])
    assert seconds < 5, f"{seconds:.1f} s"
    assert "<script>alert" not in body and "alert(1)" not in body and "etc" not in body
    assert "Template and theme are fixed on this site" in body
    assert not outside_fetches(body)
    assert len(doors.kernel_pids()) <= before, "a refused request started a kernel"


@pytest.mark.parametrize(
    "path, status",
    [
        ("voila/tree", 404),
        ("voila/tree/", 404),
        ("voila/api/contents", 404),
        ("voila/api/contents/hog.ipynb", 404),
        (f"voila/render/{XSS}.ipynb", 404),
        (f"no/such/{XSS}", 404),
        ("logout", 404),
        ("login", 404),
        ("voila/templates/x%3Cb%3E", 404),
        ("voila/templates/lab/static/index.css", 404),
        ("voila/labextensions/nope", 404),
        ("voila/render/nokernel.ipynb", 500),
    ],
)
def test_every_other_page_is_the_projects_own(doors, path, status):
    """The file tree and its contents API are gone (the landing page lists the notebooks),
    and so are /login and /logout (/logout was a 500). Error pages are the project template's:
    no Font Awesome from a CDN (Voilà's had it), nothing of the URL in them, no traceback."""
    before = len(doors.kernel_pids())
    code, body, seconds = timed_get(doors.url + path)
    assert code == status, (code, body[:300])
    assert seconds < 10, f"{seconds:.1f} s"
    # the project's error page, or tornado's bare one for static files (no link at all)
    assert f"<h1>{status}: " in body or body.startswith(f"<html><title>{status}: "), body[:300]
    assert not outside_fetches(body), outside_fetches(body)
    assert "alert(1)" not in body and "<b>" not in body
    assert "Traceback" not in body and "site-packages" not in body
    assert len(doors.kernel_pids()) <= before


def test_notebook_page_and_front_door_ask_no_other_host(doors):
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(doors.url, timeout=30)
    assert redirect.value.headers["Location"].endswith("/voila/render/index.ipynb")
    code, body, _ = timed_get(doors.url + "voila/render/widgets.ipynb")
    assert code == 200 and "application/vnd.jupyter.widget-view+json" in body
    assert not outside_fetches(body), outside_fetches(body)


def widget_message(msg_type: str, content: dict, metadata: dict | None = None) -> str:
    return json.dumps(
        {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "msg_type": msg_type,
                "session": "visitor",
                "username": "visitor",
                "version": "5.3",
                "date": "2026-01-01T00:00:00Z",
            },
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "channel": "shell",
            "buffers": [],
        }
    )


async def exchange(url: str, messages: list[str], until, timeout: float = 30) -> list[dict]:
    """Send `messages` over a kernel's websocket; collect what comes back until `until(all so
    far)` holds and 1 s more has passed (late stragglers), or `timeout`."""
    from tornado.websocket import websocket_connect

    socket = await websocket_connect(url)
    for message in messages:
        await socket.write_message(message)
    received: list[dict] = []
    loop = asyncio.get_running_loop()
    deadline, done_at = loop.time() + timeout, None
    while loop.time() < deadline and (done_at is None or loop.time() < done_at + 1):
        try:
            raw = await asyncio.wait_for(socket.read_message(), 0.5)
        except asyncio.TimeoutError:
            continue
        if raw is None:
            break
        if isinstance(raw, str):
            received.append(json.loads(raw))
        if done_at is None and until(received):
            done_at = loop.time()
    socket.close()
    return received


def test_widget_protocol_errors_reach_the_log_not_the_visitor(doors):
    """Malformed widget messages and a widget callback that fails: the server's log gets the
    tracebacks; over the kernel's websocket the visitor got them too (a stderr stream naming
    .../site-packages/ipywidgets/widgets/widget.py) and now gets at most one line, no path."""
    code, page, _ = timed_get(doors.url + "voila/render/widgets.ipynb")
    assert code == 200
    kernel_id = KERNEL_ID.search(page).group(1)
    button = WIDGET_VIEW.search(page).group(1)
    slider_state = {
        "_model_module": "@jupyter-widgets/controls",
        "_model_name": "IntSliderModel",
        "_model_module_version": "2.0.0",
        "_view_module": "@jupyter-widgets/controls",
        "_view_name": "IntSliderView",
        "_view_module_version": "2.0.0",
        "value": "not a number",
    }
    messages = [
        widget_message(
            "comm_open",
            {
                "comm_id": uuid.uuid4().hex,
                "target_name": "jupyter.widget",
                "data": {"state": {"bad": 1}, "buffer_paths": []},
            },
        ),
        widget_message(
            "comm_open",
            {
                "comm_id": uuid.uuid4().hex,
                "target_name": "jupyter.widget",
                "data": {"state": slider_state, "buffer_paths": []},
            },
            metadata={"version": "2.1.0"},
        ),
        widget_message("comm_open", {"target_name": "jupyter.widget"}),  # no comm_id at all
        widget_message(
            "comm_msg", {"comm_id": button, "data": {"method": "update", "state": {"disabled": "yes please"}}}
        ),
        widget_message(
            "comm_msg", {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}
        ),
    ]
    url = doors.url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels?session_id=visitor"
    received = asyncio.run(
        exchange(url, messages, until=lambda got: sum(m.get("msg_type") == "error" for m in got) >= 2)
    )

    # ipywidgets shows a traceback for a failed update (its _handle_msg) and for a failed
    # callback: one line each now, the exception's name only
    errors = [m["content"] for m in received if m.get("msg_type") == "error"]
    assert [error["traceback"] for error in errors] == [
        [f"{name}: this did not work (the details are in the server's log)"]
        for name in ("TraitError", "FileNotFoundError")
    ], errors
    assert all(error["evalue"] == "" for error in errors)
    for message in received:
        text = json.dumps(message["content"])
        assert "Traceback" not in text and "site-packages" not in text, text
        assert not re.search(r"/\w+/", text), text  # no path of the server's
        assert message.get("msg_type") != "stream", text
    log = doors.log()
    assert "Exception opening comm with target: jupyter.widget" in log
    assert "site-packages/ipywidgets/widgets/widget.py" in log
    assert "uncaught TraitError" in log and "site-packages/traitlets/traitlets.py" in log
    assert "uncaught FileNotFoundError" in log and "/nonexistent/secret/dir/file.txt" in log
    assert doors.proc.poll() is None


def test_a_kernel_is_capped_and_the_server_stays_up(doors):
    """Every published kernel runs under the memory cap (RLIMIT_DATA, --kernel-memory-mib):
    asking for more than that gets a MemoryError in the kernel, which then goes on working;
    the server is not touched."""
    import psutil

    before = set(doors.kernel_pids())
    code, page, _ = timed_get(doors.url + "voila/render/hog.ipynb")
    assert code == 200
    assert "refused: MemoryError" in page and "allocated" not in page
    assert "still here 45" in page
    cap = serve.KERNEL_MEMORY_MIB * 2**20
    for pid in set(doors.kernel_pids()) - before:
        assert psutil.Process(pid).rlimit(psutil.RLIMIT_DATA) == (cap, cap)
    assert doors.proc.poll() is None
    assert timed_get(doors.url + "voila/tree")[0] == 404  # still answering


# --- perfect play: the solved tables prepared by the publishing set-up (issue #22 item 6) -----

AVAILABILITY_NOTEBOOK = """import rules_kernel as rk
for game_id in rk.list_games():
    game = rk.game_class(game_id)()
    if game.SOLVED_TABLE:
        print("perfect play:", rk.parts.solved_table_availability(game))"""


def test_the_set_up_prepares_every_declared_table_with_the_cli(compiled_tablebase, tmp_path, monkeypatch):
    """What the server runs in the background per solved game: `rules-explorer solve <game>
    --reuse` at low priority; run here on a sub-game (the whole game takes minutes)."""
    solved = serve.solved_games()
    assert solved == [g for g in rk.list_games() if rk.game_class(g).SOLVED_TABLE] and solved
    command = serve.table_preparation_command(solved[0])
    assert command[-5:] == ["-m", "rules_kernel.cli", "solve", solved[0], "--reuse"]
    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path))
    run = subprocess.run([*command, "--material", "001"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    # the progress bars go to the server's terminal (the build writes the unpacked values itself)
    assert "retrograde levels" in run.stderr
    assert tablebase.availability(material=(0, 0, 1)) == "ready"


def test_a_kernel_sees_the_table_being_prepared_and_the_preparation_stops_with_the_server(
    tmp_path, monkeypatch
):
    """With perfect play on, the server starts the preparation at once and serves meanwhile:
    a kernel reads "preparing" while it runs (here it waits for a lock the test holds, so
    nothing is built), and stopping the server stops it."""
    import psutil

    folder = tmp_path / "notebooks"
    folder.mkdir()
    write_notebook(folder / "availability.ipynb", "# Availability", AVAILABILITY_NOTEBOOK)
    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(PERFECT_PLAY_ENV, raising=False)
    files = tablebase.TableFiles.of()
    preparing = []
    with files.locked():
        with published("--pool-size", "0", notebooks=folder, perfect_play=True) as site:
            preparing = [
                child
                for child in psutil.Process(site.proc.pid).children(recursive=True)
                if "--reuse" in child.cmdline()
            ]
            assert preparing, "no preparation started"
            code, page, _ = timed_get(site.url + "voila/render/availability.ipynb")
            assert code == 200 and "perfect play: preparing" in page
            assert "[publish] perfect play: preparing the solved table" in site.log_path.read_text()
        gone, alive = psutil.wait_procs(preparing, timeout=20)
        for child in alive:  # never let it build once the lock is free
            child.kill()
        assert not alive, "the preparation outlived the server"
    assert not files.partials()


def test_without_perfect_play_a_kernel_is_offered_no_table(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    write_notebook(folder / "availability.ipynb", "# Availability", AVAILABILITY_NOTEBOOK)
    with published("--pool-size", "0", notebooks=folder) as site:  # --no-perfect-play
        code, page, _ = timed_get(site.url + "voila/render/availability.ipynb")
        assert code == 200 and "perfect play: absent" in page
        assert "[publish] perfect play" not in site.log_path.read_text()


@pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)
def test_the_published_explorer_says_the_table_is_being_prepared(tmp_path, monkeypatch):
    """Issue #22 item 6, in a visitor's browser: while the server prepares the solved table the
    explorer's switch reads "being prepared" and cannot be ticked; the page names no server
    path and no command."""
    import psutil
    from playwright.sync_api import sync_playwright

    cache = tmp_path / "cache"
    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(cache))
    monkeypatch.delenv(PERFECT_PLAY_ENV, raising=False)
    files = tablebase.TableFiles.of()
    preparing = []
    with files.locked():  # the preparation waits for this lock: nothing is built
        with published("--pool-size", "0", perfect_play=True) as site, sync_playwright() as p:
            preparing = [
                c for c in psutil.Process(site.proc.pid).children(recursive=True) if "--reuse" in c.cmdline()
            ]
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(site.url + "voila/render/explorer.ipynb", timeout=120_000)
            page.wait_for_selector(".re-board [data-cell]", timeout=120_000)
            switch = page.locator(".widget-checkbox").filter(has_text="Perfect play")
            assert "being prepared" in switch.inner_text()
            assert switch.locator("input").is_disabled()
            text = page.evaluate("() => document.body.outerHTML + document.body.innerText")
            assert str(cache) not in text and "rules-explorer solve" not in text and ".cache" not in text
            page.screenshot(path=str(ARTIFACTS / "perfect-play-being-prepared.png"))
            browser.close()
        gone, alive = psutil.wait_procs(preparing, timeout=20)
        for child in alive:
            child.kill()
