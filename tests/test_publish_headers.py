"""Issue 44 item 10: the published server's headers as a security reviewer expects, and the
static site's policy. Every kind of answer of a real `python -m publish` server (the landing
page, a notebook page, a static file, the API's JSON, a redirect, a 404, the %00 path, a
405, a 400, a websocket's address without the upgrade) carries the Content-Security-Policy,
`X-Content-Type-Options: nosniff` and a Referrer-Policy, names no server version, sets its
cookies SameSite=Lax (and Secure only over TLS), and every error is the project's own page
without a traceback or a path. In Chromium the landing page, the explorer and a rules
explainer render and work under the policy with no violation, and an inline script is
refused. The static site: every built page carries the policy as a <meta>, with the hash of
each of its inline scripts, and the explorer plays a move in the browser's Python under it
(docs/publishing.md, "Headers")."""

from __future__ import annotations

import base64
import hashlib
import http.client
import re
import urllib.parse
from pathlib import Path

import nbformat
import pytest
from browser_support import ROOT, chromium_path, launch, published
from tornado import httputil

from publish import serve, static_site

needs_chromium = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)
# what no error page may show: a traceback, the server's files, the request's odd bytes
LEAKS = ("Traceback", "site-packages", str(ROOT), "/usr/", "\x00", "%00", "ValueError", "Unsafe header")


# --- the headers, without a server --------------------------------------------------------


def test_the_policy_allows_only_the_sites_own_scripts():
    directives = dict(d.split(" ", 1) for d in serve.CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self' blob:"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"] == "'self'"  # the kernel's websocket: its own host only
    assert directives["form-action"] == "'self'"


@pytest.mark.parametrize(
    "cookie, secure, expected",
    [
        ("_xsrf=2|ab|cd|1; expires=Wed, 06 Jan 2027 00:27:44 GMT; Path=/", False, "; Path=/; SameSite=Lax"),
        ("_xsrf=x; Path=/", True, "_xsrf=x; Path=/; SameSite=Lax; Secure"),
        (
            'user="2|1:0"; HttpOnly; Path=/; SameSite=None',
            False,
            'user="2|1:0"; HttpOnly; Path=/; SameSite=Lax',
        ),
        ("a=b; Secure; samesite=strict", True, "a=b; SameSite=Lax; Secure"),
    ],
)
def test_every_cookie_gets_samesite_and_secure_over_tls(cookie, secure, expected):
    assert serve.guarded_cookie(cookie, secure=secure).endswith(expected)


class RecordingConnection:
    """An HTTP connection that keeps the headers written to it."""

    def __init__(self, protocol: str = "http"):
        self.context = type("Context", (), {"protocol": protocol})()
        self.written: list[httputil.HTTPHeaders] = []
        self.closed = False

    def write_headers(self, start_line, headers, chunk=None):
        self.written.append(headers)

    def finish(self):
        self.closed = True


def answer_through(connection: serve.GuardedConnection, request: dict[str, str] | None = None):
    connection.request_headers = httputil.HTTPHeaders(request or {})
    headers = httputil.HTTPHeaders({"Server": "TornadoServer/6.6.1", "Content-Type": "text/html"})
    headers.add("Set-Cookie", "_xsrf=token; Path=/")
    headers.add("Set-Cookie", "username-x=y; HttpOnly; Path=/")
    connection.write_headers(httputil.ResponseStartLine("HTTP/1.1", 200, "OK"), headers)
    return headers


def test_secure_cookies_and_hsts_only_over_tls():
    """Secure and HSTS when the visitor came over https: this server's TLS, a proxy's
    X-Forwarded-Proto, or --secure-cookies; never over plain http."""
    plain = answer_through(serve.GuardedConnection(RecordingConnection(), secure_cookies=False))
    assert "Server" not in plain and "Strict-Transport-Security" not in plain
    assert plain["X-Content-Type-Options"] == "nosniff"
    assert all(c.endswith("; SameSite=Lax") for c in plain.get_list("Set-Cookie"))
    assert len(plain.get_list("Set-Cookie")) == 2
    over_tls = [
        answer_through(serve.GuardedConnection(RecordingConnection("https"), secure_cookies=False)),
        answer_through(
            serve.GuardedConnection(RecordingConnection(), secure_cookies=False),
            {"X-Forwarded-Proto": "https"},
        ),
        answer_through(serve.GuardedConnection(RecordingConnection(), secure_cookies=True)),
    ]
    for headers in over_tls:
        assert all(c.endswith("; SameSite=Lax; Secure") for c in headers.get_list("Set-Cookie"))
        assert headers["Strict-Transport-Security"] == serve.HSTS
    forged = answer_through(
        serve.GuardedConnection(RecordingConnection(), secure_cookies=False),
        {"X-Forwarded-Proto": "http, https"},
    )
    assert "Secure" not in forged["Set-Cookie"]  # the first (the visitor's) hop says http
    assert serve.parse_args(["--secure-cookies"]).voila_config().PublishingVoila.secure_cookies is True
    assert serve.parse_args([]).voila_config().PublishingVoila.secure_cookies is False


# --- a real server ------------------------------------------------------------------------


def write_notebook(path: Path, markdown: str, code: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell(markdown), nbformat.v4.new_code_cell(code)]
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The publishing mode with its defaults over two small notebooks (a landing page, so that
    / is the redirect, preheated as by default, and a page with a widget)."""
    folder = tmp_path_factory.mktemp("headers")
    write_notebook(folder / "index.ipynb", "# Index", "1 + 1")
    write_notebook(folder / "page.ipynb", "# Page", "import ipywidgets as w\nw.Button(description='Again')")
    write_notebook(folder / "slow.ipynb", "# Slow", "import time\ntime.sleep(3)\nprint('done')")
    # Voilà's keep-alive after 1 s without output instead of 10: the slow page gets some
    with published("--VoilaConfiguration.http_keep_alive_timeout=1", notebooks=folder) as running:
        running.wait_for_log("is filled with 1 kernel(s)", timeout=120)
        yield running


def answer(site, path: str, method: str = "GET", headers: dict[str, str] | None = None):
    """(status, headers, body) of one request sent as it is (the path's bytes untouched)."""
    address = urllib.parse.urlsplit(site.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def assert_guarded(headers, *, secure: bool = False) -> list[str]:
    """The headers every answer carries; its cookies, which all are SameSite=Lax."""
    assert headers["Content-Security-Policy"] == serve.CONTENT_SECURITY_POLICY
    assert headers.get_all("Content-Security-Policy") == [serve.CONTENT_SECURITY_POLICY]  # one policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Server" not in headers, headers["Server"]
    cookies = headers.get_all("Set-Cookie") or []
    for cookie in cookies:
        attributes = [a.strip().lower() for a in cookie.split(";")[1:]]
        assert "samesite=lax" in attributes, cookie
        assert ("secure" in attributes) == secure, cookie
    assert ("Strict-Transport-Security" in headers) == secure
    return cookies


def assert_project_error_page(status: int, body: str) -> None:
    assert f"<h1>{status}: " in body, body[:300]
    assert "Back to the list of notebooks" in body
    for leak in LEAKS:
        assert leak not in body, leak


def test_pages_static_files_the_api_and_the_front_door_carry_the_headers(site):
    status, headers, body = answer(site, "/")
    assert status in (301, 302) and headers["Location"].endswith("/voila/render/index.ipynb")
    assert_guarded(headers)
    cookies = []
    for path in ("/voila/render/index.ipynb", "/voila/render/page.ipynb"):
        status, headers, body = answer(site, path)
        assert status == 200 and "jupyter-config-data" in body, path
        assert headers["Content-Type"].startswith("text/html")
        cookies += assert_guarded(headers)
        # the template runs no inline script (the policy would refuse it): Voilà's are files
        inline = [
            m.group(0)[:80]
            for m in re.finditer(r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"application/)[^>]*>", body)
        ]
        assert inline == [], inline
        assert "publish-setup.js" in body and "publish-finish.js" in body
    assert any(c.startswith("username-") for c in cookies), cookies  # the cookie check saw one
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', body).group(1)
    for path, kind in (
        ("/voila/static/voila.js", "text/javascript"),
        ("/voila/templates/rules-explorer/static/publish-setup.js", "text/javascript"),
        (f"/api/kernels/{kernel}", "application/json"),
    ):
        status, headers, body = answer(site, path)
        assert status == 200 and headers["Content-Type"].startswith(kind), (path, status)
        assert_guarded(headers)
    assert '"execution_state"' in body  # the API's JSON answer about the page's kernel


def test_a_slow_page_is_kept_alive_without_an_inline_script(site):
    """Voilà's keep-alive was an inline script (which the policy refuses); now a comment."""
    status, headers, body = answer(site, "/voila/render/slow.ipynb")
    assert status == 200 and "done" in body
    assert_guarded(headers)
    assert serve.HEARTBEAT in body and "voila_heartbeat()" not in body


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/no/such/page", 404),
        ("GET", "/voila/render/missing.ipynb", 404),
        ("GET", "/voila/render/explorer.ipynb%00.py", 404),  # was a 500 (a NUL in a redirect)
        ("GET", "/voila/render/page.ipynb%0d%0aSet-Cookie:%20a=b", 404),
        ("GET", "/voila/render/%FF.ipynb", 400),  # not UTF-8: was a 400 with an empty body
        ("GET", "/voila/static/nope.js", 403),
        ("GET", "/voila/static/../../../../etc/passwd", 403),
        ("POST", "/voila/static/voila.js", 405),  # was tornado's bare page
        ("DELETE", "/", 405),
        ("FOO", "/voila/render/index.ipynb", 405),
        ("POST", "/voila/render/index.ipynb", 403),  # no _xsrf token
        ("GET", "/voila/render/page.ipynb?template=lab", 400),
        ("GET", "/api/kernels/00000000-0000-0000-0000-000000000000/channels", 400),  # no upgrade
        ("GET", "/voila/query/00000000-0000-0000-0000-000000000000", 400),  # was a line of text
    ],
)
def test_every_error_is_the_projects_page_with_the_headers(site, method, path, status):
    got, headers, body = answer(site, path, method)
    assert got == status, (got, body[:300])
    assert headers["Content-Type"].startswith("text/html")
    assert_guarded(headers)
    assert_project_error_page(status, body)
    assert site.proc.poll() is None


def test_api_errors_are_json_with_the_headers(site):
    status, headers, body = answer(site, "/api/kernels/00000000-0000-0000-0000-000000000000")
    assert status == 404 and headers["Content-Type"].startswith("application/json")
    assert_guarded(headers)
    for leak in LEAKS:
        assert leak not in body


def test_behind_a_tls_proxy_the_cookies_are_secure(site):
    cookies = []
    for path in ("/voila/render/page.ipynb", "/voila/render/index.ipynb", "/no/such/page"):
        status, headers, _ = answer(site, path, headers={"X-Forwarded-Proto": "https"})
        assert status in (200, 404)
        cookies += assert_guarded(headers, secure=True)
    names = {cookie.split("=", 1)[0].split("-", 1)[0] for cookie in cookies}
    assert "username" in names and names <= {"_xsrf", "username"}, cookies


def test_an_oversized_request_gets_no_traceback(site):
    """Tornado refuses a body beyond its limit before any handler (a bare 400 without a body);
    a long path is an ordinary 404 with the headers."""
    status, headers, body = answer(site, "/voila/render/" + "a" * 8000 + ".ipynb")
    assert status == 404
    assert_guarded(headers)
    assert_project_error_page(404, body)
    address = urllib.parse.urlsplit(site.url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.putrequest("POST", "/voila/render/index.ipynb")
        connection.putheader("Content-Length", str(2**40))
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 400
        assert response.read() == b""
    finally:
        connection.close()
    assert site.proc.poll() is None


# --- in Chromium --------------------------------------------------------------------------

WATCH_POLICY = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));"""
TRY_INLINE_SCRIPT = """() => {
    window.__ran = false;
    const script = document.createElement("script");
    script.textContent = "window.__ran = true";
    document.head.appendChild(script);
    return window.__ran;
}"""


@needs_chromium
def test_the_published_pages_work_under_the_policy_in_chromium():
    """The landing page, the explorer (a move played) and a rules explainer render with the
    policy and raise no violation; an inline script added to a page is refused."""
    from playwright.sync_api import sync_playwright

    preheat = [
        "--preheat",
        "index.ipynb",
        "--preheat",
        "explorer.ipynb",
        "--preheat",
        "rules-yokai-3x4.ipynb",
    ]
    with published(*preheat) as running, sync_playwright() as p:
        running.wait_for_log("is filled with 1 kernel(s)", timeout=180, count=3)
        browser = launch(p)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(WATCH_POLICY)
        pages = [
            ("voila/render/index.ipynb", ".landing-card"),
            ("voila/render/explorer.ipynb", ".re-board [data-cell]"),
            ("voila/render/rules-yokai-3x4.ipynb", ".re-board [data-cell]"),
        ]
        for path, ready in pages:
            page = context.new_page()
            console: list[str] = []
            page.on(
                "console", lambda m, seen=console: "Content Security Policy" in m.text and seen.append(m.text)
            )
            page.on("pageerror", lambda e, seen=console: seen.append(str(e)))
            response = page.goto(running.url + path, timeout=120_000)
            assert response.headers["content-security-policy"] == serve.CONTENT_SECURITY_POLICY
            page.wait_for_selector(ready, timeout=120_000)
            page.wait_for_function("() => !document.getElementById('loading')", timeout=60_000)
            if path.endswith("explorer.ipynb"):
                page.locator('.re-board [data-cell="b1"]').click()
                page.locator('.re-board [data-cell="c2"]').click()
                page.wait_for_selector(
                    '.re-movelist .re-move[data-ply="1"]', state="attached", timeout=60_000
                )
                assert "Koropokkuru b1–c2" in page.locator(".re-movelist").inner_text()
            if path.endswith("index.ipynb"):
                drawn = "images => images.every(i => i.complete && i.naturalWidth > 0)"
                assert page.eval_on_selector_all(".landing-thumb", drawn)  # data: pictures
            assert page.evaluate("window.__violations") == [], path
            assert console == [], console
            assert page.evaluate(TRY_INLINE_SCRIPT) is False, "an inline script ran"
            assert any("script-src" in v for v in page.evaluate("window.__violations"))
            page.close()
        browser.close()


# --- the static site ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def static(static_site) -> Path:
    """The static site, built as ./run publish --static builds it (once for the run)."""
    return static_site


def policy_of(page: str) -> dict[str, str]:
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert meta, "no policy"
    return dict(d.split(" ", 1) for d in meta.group(1).split("; "))


def test_inline_script_hashes_are_the_browsers():
    page = '<head><script>alert(1)</script><script type="module">\nx()\n</script><script src="a.js"></script>'
    page += '<script type="application/json">{"a": 1}</script><script>alert(1)</script>'
    expected = [
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
        for text in ("alert(1)", "\nx()\n")
    ]
    assert static_site.inline_script_hashes(page) == expected
    assert static_site.inline_script_hashes("<p>no script</p>") == []


def test_every_static_page_carries_the_policy_with_its_scripts_hashes(static):
    pages = sorted(static.rglob("*.html"))
    assert len(pages) >= 10
    for path in pages:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(static))
        directives = policy_of(text)
        assert directives["default-src"] == "'none'", name
        assert directives["object-src"] == "'none'" and directives["base-uri"] == "'none'", name
        script = directives["script-src"].split()
        assert script[:3] == ["'self'", "'wasm-unsafe-eval'", "blob:"], name
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, name
        # before any script: a policy covers only what follows it
        assert (
            text.index('http-equiv="Content-Security-Policy"') < text.find("<script") or "<script" not in text
        )
        for inline in static_site.inline_script_hashes(text):
            assert inline in script, (name, inline)
    explorer = (static / "voici/render/explorer.html").read_text(encoding="utf-8")
    assert len(policy_of(explorer)["script-src"].split()) > 5  # Voici's inline scripts, hashed


@needs_chromium
def test_the_static_explorer_plays_under_its_policy(static, browser):
    """Pyodide starts (its WebAssembly under 'wasm-unsafe-eval'), the explorer plays a move in
    the reader's browser, no violation; an inline script added later is refused."""
    import functools
    import http.server
    import threading

    handler = functools.partial(static_site.SiteHandler, directory=str(static))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(WATCH_POLICY)
        for path in ("index.html", "pages/statistics.html"):
            page = context.new_page()
            page.goto(base + path)
            page.wait_for_load_state("load")
            assert page.evaluate("window.__violations") == [], path
            page.close()
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda m: "Content Security Policy" in m.text and console.append(m.text))
        page.goto(base + "voici/render/explorer.html")
        page.wait_for_selector(".re-board [data-cell]", timeout=120_000)
        page.locator('.re-board [data-cell="b2"]').dispatch_event("pointerdown")  # the Kodama
        page.locator('.re-board [data-cell="b3"]').dispatch_event("pointerdown")  # takes the Kodama
        page.wait_for_selector('.re-movelist .re-move[data-ply="1"]', state="attached", timeout=60_000)
        assert "Kodama b2–b3 takes Kodama" in page.locator(".re-movelist").inner_text()
        assert page.evaluate("window.__violations") == [] and console == [], console
        assert page.evaluate(TRY_INLINE_SCRIPT) is False, "an inline script ran"
        context.close()
    finally:
        server.shutdown()
