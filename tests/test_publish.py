"""The publishing mode (issue #13 items 2 and 4, issue #15 item 5; docs/publishing.md): the
landing page, the kernel quota with its busy page, the culling of idle kernels, preheated
kernels, no request to any CDN, and a bounded load test. Every server listens on 127.0.0.1
and every browser request to another host is recorded and refused."""

from __future__ import annotations

import concurrent.futures
import json
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from browser_support import ARTIFACTS, chromium_path, launch, published

from publish import landing, serve

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
needs_chromium = pytest.mark.skipif(chromium_path() is None,
                                    reason="Debian's chromium is not installed (./run tests installs it)")
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


def write_notebook(path: Path, markdown: str, code: str = "print('hello')", **metadata) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata.update({"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                        **metadata})
    nb.cells = [nbformat.v4.new_markdown_cell(markdown), nbformat.v4.new_code_cell(code)]
    nbformat.write(nb, path)


def test_landing_page_escapes_every_text(tmp_path):
    """A notebook's title, description and file name are text, never markup."""
    write_notebook(tmp_path / 'x"><img src=y onerror=alert(3)>.ipynb',
                   "# <img src=x onerror=alert(1)>\n\nFirst <b>bold</b> & \"quoted\" sentence. Second.")
    write_notebook(tmp_path / "meta.ipynb", "# Meta",
                   rules_explorer={"description": "<svg onload=alert(2)>"})
    page = landing.landing_html(tmp_path)
    assert "<script>" not in page and "<img src=" not in page and "<svg onload" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "First &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; sentence." in page
    assert "&lt;svg onload=alert(2)&gt;" in page
    assert 'href="x%22%3E%3Cimg%20src%3Dy%20onerror%3Dalert%283%29%3E.ipynb"' in page


# --- settings and the quota, without a server ---------------------------------------------

def test_publish_options():
    settings = serve.parse_args(["--ip", "0.0.0.0", "--port", "9000", "--max-kernels", "3",
                                 "--cull-idle-timeout", "60", "--cull-interval", "10", "--pool-size", "0",
                                 "--connect-timeout", "90",
                                 "--base-url", "games", "--Voila.theme=dark"])
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
    defaults = serve.parse_args([]).voila_config()
    assert defaults.Voila.ip == "127.0.0.1"  # nothing is exposed unless asked
    # nbclient's own 4 s lost the explorer's widget output under 20 sessions at once
    assert defaults.VoilaExecutor.iopub_timeout >= 60
    assert defaults.VoilaConfiguration.preheat_kernel is True
    pools = defaults.VoilaKernelManager.kernel_pools_config
    assert pools.pop("default") == {"pool_size": 0}
    # the front door, the explorer and every page with a render goal (issue 15)
    assert set(pools) == {"index.ipynb", "explorer.ipynb", "statistics.ipynb", "statistics-dashboard.ipynb",
                          *(p.name for p in NOTEBOOKS.glob("rules-*.ipynb"))}
    assert all(pool == {"pool_size": 1} for pool in pools.values())


@pytest.mark.parametrize("argv", [["--port", "70000"], ["--max-kernels", "0"], ["--cull-interval", "-1"],
                                  ["--notebooks", "/nonexistent/dir"], ["stray"]])
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
    quota.release()                       # one request got its kernel...
    kernels.ids.append("k1")              # ...which the kernel manager now lists
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
    context.on("request", lambda request: None if request.url.startswith(
        ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) else outside.append(request.url))


@needs_chromium
def test_widget_icons_render_without_the_cdn(tmp_path):
    """Voilà's template linked Font Awesome from a CDN; the publishing template does not, and
    an ipywidgets button icon still renders from the font Voilà serves itself."""
    from playwright.sync_api import sync_playwright

    write_notebook(tmp_path / "icon.ipynb", "# Icon",
                   "import ipywidgets as w\nw.Button(description='Again', icon='refresh')")
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


def test_front_door_redirects_and_tree_lists_notebooks():
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
        config = json.loads(body.split('<script id="jupyter-config-data" type="application/json">')[1]
                            .split("</script>")[0])
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

