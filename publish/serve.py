"""The publishing mode: every notebook in notebooks/ served by Voilà to untrusted visitors.

    python -m publish [--ip ADDR] [--port N] [--max-kernels N] [--cull-idle-timeout S] ...

What it adds to a plain `voila notebooks/` (docs/publishing.md explains each setting):

- the landing page `index.ipynb` is the front door: `/` redirects there;
- idle kernels are culled: a kernel without a browser connection that has been idle for
  `cull_idle_timeout` seconds is shut down (jupyter_server's culler, `cull_connected=False`);
- the number of kernels is bounded: beyond `max_kernels` a visitor gets a short
  "busy, try again" page (HTTP 503 with Retry-After) instead of one more kernel;
- the landing page and the explorer are preheated (Voilà's kernel pool), so they render fast;
- no request leaves the server: the page template drops Voilà's Font Awesome CDN links, and
  the error pages are the project's own;
- Voilà's doors a published site does not need are shut: no template or theme from the query
  string (400), no file tree or contents listing (the landing page lists the notebooks), only
  the project template's static files;
- every kernel runs under a memory cap (`--kernel-memory-mib`, RLIMIT_DATA) and reports
  widget-protocol errors and uncaught tracebacks to the server's log, not to the visitor;
- every answer carries the security headers a reviewer expects (`security_headers`): a
  Content-Security-Policy that allows the site's own scripts only (the page template has no
  inline script), `X-Content-Type-Options: nosniff`, a Referrer-Policy, no server version,
  cookies with SameSite=Lax (and Secure behind TLS); every error is the project's own page;
- perfect play: the solved tables the games declare are built (or the cached ones reused) in
  the background, with progress bars in the server's terminal, while the site already
  serves; the explorer's switch says "being prepared" until a table is ready.
  `--no-perfect-play` skips that and the site does not offer the switch.
"""

from __future__ import annotations

import argparse
import atexit
import html
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import tornado.web
import tornado.websocket
from jupyter_server.base.handlers import APIHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from jupyter_server.utils import url_path_join
from tornado import httputil
from traitlets import Bool, Integer, TraitError, default
from traitlets.config import Config
from voila.app import Voila
from voila.handler import BaseVoilaHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATE_ROOT = Path(__file__).resolve().parent / "share"  # holds voila/templates/rules-explorer
TEMPLATE = "rules-explorer"
LANDING_PAGE = "index.ipynb"
QUOTA_SETTING = "rules_explorer_kernel_quota"
# Pages a reader opens first or that have a render goal (issue 15: statistics under 5 s,
# explainers under 8 s): a preheated kernel has already run the notebook, so the page is sent
# at once. Voilà alone costs ~4 s a page on this 2-core machine, leaving too little for the
# statistics' imports (pandas, scipy) and the explainers' boards. Each preheated page holds
# one idle kernel (80-150 MiB) for the next visitor.
PREHEATED = (
    LANDING_PAGE,
    "explorer.ipynb",
    "statistics.ipynb",
    "statistics-dashboard.ipynb",
    "rules-yokai-3x4.ipynb",
    "rules-yokai-5x6.ipynb",
    "rules-war-stories.ipynb",
    "rules-to-war.ipynb",
    "rules-war-chest.ipynb",
)
# The memory cap of each kernel (RLIMIT_DATA: heap and private writable mappings, what a
# computation grows). Measured by benchmarks/bench_kernel_memory.py: the explorer and the
# explainers run in 123-133 MiB of it, the statistics pages in 311 and 321 MiB; 500 more games
# from the dashboard's "Run more games" add ~20 MiB. 1 GiB leaves three times the heaviest
# page for what visitors do with the widgets. The explorer's "Perfect play" fits too: its
# 1.6 GiB table is a read-only memory map of a file (shared page cache, not the kernel's data).
KERNEL_MEMORY_MIB = 1024
# Query arguments Voilà would take a template or a theme from: refused (400).
OVERRIDES = ("template", "theme")
SECURE_COOKIES_SETTING = "rules_explorer_secure_cookies"
# What every answer's Content-Security-Policy allows (docs/publishing.md, "Headers"): scripts
# from the site's own files only (the page template has no inline script; one in a
# notebook's output would not run) and blob: URLs (anywidget imports each widget's JavaScript, which the
# kernel sends, from a blob: URL it makes; only a script already running in the page can
# make one), styles from the site and inline (JupyterLab and the widgets set
# style attributes and add <style> elements as they draw), pictures and fonts from the site
# and data: URLs (the landing page's thumbnails, the icon font inside voila-style.js),
# connections to the site itself only (the kernel's websocket: 'self' covers ws: and wss: to
# the page's own host), and nothing else: no plugin, no frame, no <base>, no form to another
# site, and no other site may frame a page.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# The same on every answer (pages, static files, the API, redirects, errors, the busy page).
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # the address never goes to another site
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
HSTS = "max-age=31536000"  # only on answers that went out over TLS (browsers ignore it otherwise)
# Voilà's keep-alive while a notebook runs longer than 10 s between two outputs: an inline
# script, which the policy would refuse (a violation in the console); a comment keeps the
# connection alive as well.
VOILA_HEARTBEAT = "<script>window.voila_heartbeat()</script>\n"
HEARTBEAT = "<!-- still running -->\n"
# What a header cannot hold (tornado refuses it with a ValueError, a 500): in a notebook's path
# it can only be a wrong address, e.g. /voila/render/explorer.ipynb%00.py.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")

# What every published kernel runs instead of `python -m ipykernel_launcher`: the same kernel,
# but errors a visitor's widget messages cause (a malformed comm_open or comm_msg, a widget
# callback that raises) go to the server's log (the kernel's stderr, inherited from the
# server) with their traceback, and the visitor gets at most one line without paths.
# ipykernel sends anything written to fd 2 to the browser too, so that capture is off: the
# kernel's own stderr is then the server's log. (A string, not a module: importing
# publish.serve in each kernel would cost ~50 MiB and seconds.)
KERNEL_BOOT = """\
import logging, os, sys

# One thread for OpenBLAS and Arrow's pool, and malloc for Arrow instead of mimalloc (which
# reserves 1 GiB at once): then a kernel's memory does not grow with the machine's cores and
# the cap measured here holds elsewhere (statistics.ipynb: 315 MiB of data instead of 1421).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
from ipykernel.kernelapp import IPKernelApp

to_server = logging.StreamHandler(sys.__stderr__)
to_server.setFormatter(logging.Formatter("[kernel %(process)d] %(levelname)s | %(name)s: %(message)s"))
for name in ("ipykernel.comm", "Comm", "py.warnings", "publish.kernel"):
    logging.getLogger(name).addHandler(to_server)
    logging.getLogger(name).propagate = False
logging.captureWarnings(True)
app = IPKernelApp.instance(capture_fd_output=False)
app.initialize()
send_error = app.shell._showtraceback

def one_line_error(etype, evalue, stb):
    logging.getLogger("publish.kernel").error(
        "uncaught %s", etype.__name__, exc_info=(etype, evalue, getattr(evalue, "__traceback__", None)))
    send_error(etype, "", [etype.__name__ + ": this did not work (the details are in the server's log)"])

app.shell._showtraceback = one_line_error
app.start()
"""


@dataclass
class PublishSettings:
    """Every setting of the publishing mode, with its default (docs/publishing.md)."""

    ip: str = "127.0.0.1"  # bind address; 0.0.0.0 listens on every interface
    port: int = 8866
    base_url: str = "/"  # URL prefix, for a reverse proxy that serves a sub-path
    notebooks: Path = NOTEBOOKS
    max_kernels: int = 32  # kernels alive at once, preheated ones included
    cull_idle_timeout: int = 120  # seconds idle (and without connection) before a kernel goes
    cull_interval: int = 30  # seconds between two culler passes
    connect_timeout: int = 120  # seconds a kernel whose page never connected may live
    preheat: tuple[str, ...] = PREHEATED
    pool_size: int = 1  # preheated kernels kept ready per preheated notebook
    iopub_timeout: int = 120  # seconds Voilà waits for a cell's output once it has run
    kernel_memory_mib: int = KERNEL_MEMORY_MIB  # memory cap of each kernel; 0: none
    perfect_play: bool = True  # prepare the solved tables; False: the site does not offer them
    secure_cookies: bool = False  # Secure on every cookie (the site is reached over https only)
    extra_voila_args: list[str] = field(default_factory=list)

    def kernel_environment(self) -> dict[str, str]:
        """What the server adds to its environment, which its kernels inherit."""
        from rules_kernel.tablebase import PERFECT_PLAY_ENV

        return {} if self.perfect_play else {PERFECT_PLAY_ENV: "off"}

    def voila_config(self) -> Config:
        c = Config()
        c.Voila.ip = self.ip
        c.Voila.port = self.port
        c.Voila.port_retries = 0  # a taken port is an error, not a silent move elsewhere
        c.Voila.open_browser = False
        c.Voila.base_url = self.base_url
        c.PublishingVoila.max_kernels = self.max_kernels
        c.PublishingVoila.secure_cookies = self.secure_cookies
        c.VoilaConfiguration.template = TEMPLATE
        c.VoilaConfiguration.show_tracebacks = False
        # Voilà takes ?template= and ?theme= from the URL by default: a template that does not
        # exist held a kernel for a minute, a path answered 500, a theme was written into the
        # page unescaped. BoundedVoilaHandler refuses those arguments; these make Voilà ignore
        # them (and the notebooks' metadata) everywhere else, error pages included.
        c.VoilaConfiguration.allow_template_override = "NO"
        c.VoilaConfiguration.allow_theme_override = "NO"
        c.GuardedKernelManager.memory_mib = self.kernel_memory_mib
        # nbclient waits only 4 s (its default) for a cell's output after the cell has run, then
        # renders the page without it: under many visitors at once the explorer's widget
        # output came late and pages showed no board at all. The wait ends as soon as the
        # output is in, so a long limit costs nothing on a quiet server.
        c.VoilaExecutor.iopub_timeout = self.iopub_timeout
        c.VoilaConfiguration.multi_kernel_manager_class = PublishingKernelManager
        c.MappingKernelManager.cull_idle_timeout = self.cull_idle_timeout
        c.MappingKernelManager.cull_interval = self.cull_interval
        c.PublishingKernelManager.connect_timeout = self.connect_timeout
        c.MappingKernelManager.cull_connected = False
        c.MappingKernelManager.cull_busy = False
        pools = {"default": {"pool_size": 0}}
        pools.update(
            {
                name: {"pool_size": self.pool_size}
                for name in self.preheat
                if (self.notebooks / name).is_file()
            }
        )
        c.VoilaConfiguration.preheat_kernel = self.pool_size > 0 and len(pools) > 1
        c.VoilaKernelManager.kernel_pools_config = pools
        return c


class GuardedKernelManager(ServerKernelManager):
    """One published kernel: ipykernel started through KERNEL_BOOT, under a memory cap.

    The cap is RLIMIT_DATA (soft and hard), set by the server on the kernel process right
    after it started, so the kernel cannot raise it: beyond it, an allocation fails and
    Python raises MemoryError in the kernel (or the kernel dies); the server is another
    process and stays up. RLIMIT_AS would also count shared libraries and reserved address
    space: 5 to 12 times a kernel's resident memory, and more the more cores the machine has.
    """

    memory_mib = Integer(
        KERNEL_MEMORY_MIB, config=True, help="memory cap of each kernel in MiB (RLIMIT_DATA); 0 for none"
    )

    def format_kernel_cmd(self, extra_arguments=None):
        cmd = super().format_kernel_cmd(extra_arguments)
        if cmd[1:3] != ["-m", "ipykernel_launcher"]:
            raise RuntimeError(f"a published kernel must be ipykernel, not {' '.join(cmd[:3])}")
        return [cmd[0], "-c", KERNEL_BOOT, *cmd[3:]]

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        await super()._async_launch_kernel(kernel_cmd, **kw)
        if self.memory_mib:
            cap = self.memory_mib * 2**20
            resource.prlimit(self.provisioner.process.pid, resource.RLIMIT_DATA, (cap, cap))


class PublishingKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with a culler that tells closed tabs from slow pages.

    jupyter_server culls a kernel without connections once it has been idle for
    `cull_idle_timeout`. That is right for a tab that was closed, but not for a page still
    loading: a preheated kernel has been idle since it was warmed, and a browser connects only
    after Voilà's JavaScript has loaded (over ten seconds for many pages at once on a busy
    machine). So a kernel without connections is culled only when it has been without them
    and idle, counted from the later of the culler pass that first saw it unconnected and its
    last activity (a page still running its notebook cannot connect yet), for `cull_idle_timeout` seconds if a
    browser was connected before (a closed tab) or `connect_timeout` seconds if none ever was
    (a page that never loaded, a plain GET, a bot). Voilà never culls its pool's own kernels.
    """

    connect_timeout = Integer(120, config=True, help="seconds a kernel whose page never connected may live")

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self):
        return "publish.serve.GuardedKernelManager"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._unconnected_since: dict[str, float] = {}
        self._ever_connected: set[str] = set()

    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        self._ever_connected.add(kernel_id)

    async def cull_kernels(self):
        alive = set(self.list_kernel_ids())
        self._ever_connected &= alive
        for gone in set(self._unconnected_since) - alive:
            del self._unconnected_since[gone]
        await super().cull_kernels()

    async def cull_kernel_if_idle(self, kernel_id: str):
        if not self.cull_connected:
            if self._kernel_connections.get(kernel_id, 0):
                self._unconnected_since.pop(kernel_id, None)
                return  # a browser is connected: never culled (cull_connected=False)
            since = self._unconnected_since.setdefault(kernel_id, time.monotonic())
            patience = self.cull_idle_timeout if kernel_id in self._ever_connected else self.connect_timeout
            # Counted from the later of "seen without connection" and the kernel's last
            # activity: a page still running its notebook cannot have connected yet.
            if min(time.monotonic() - since, self._idle_seconds(kernel_id)) < patience:
                return
        await super().cull_kernel_if_idle(kernel_id)

    def _idle_seconds(self, kernel_id: str) -> float:
        try:
            last = getattr(self._kernels.get(kernel_id), "last_activity", None)
        except TraitError:  # a kernel still starting has no last_activity yet (None is invalid)
            last = None
        if last is None:
            return 0.0
        return (datetime.now(timezone.utc) - last).total_seconds()


class KernelQuota:
    """Admits a page request only while fewer than `max_kernels` kernels exist or are coming.

    Admission and counting happen in one step on tornado's event loop (no await between them),
    so simultaneous requests cannot all slip through. An admitted request holds a reservation
    until its kernel exists (the first chunk of the page is written after the kernel started,
    or after a preheated one was handed over) or the request ends.
    """

    def __init__(self, max_kernels: int):
        self.max_kernels = max_kernels
        self.reserved = 0

    def admit(self, kernel_manager) -> bool:
        if len(kernel_manager.list_kernel_ids()) + self.reserved >= self.max_kernels:
            return False
        self.reserved += 1
        return True

    def release(self) -> None:
        self.reserved -= 1


def guarded_cookie(cookie: str, *, secure: bool) -> str:
    """A Set-Cookie value with SameSite=Lax (whatever it said) and, if `secure`, Secure: the
    browser then sends it on no request another site starts but a link followed, and only
    over TLS."""
    name_value, *attributes = (part.strip() for part in cookie.split(";"))
    kept = [a for a in attributes if a and a.split("=", 1)[0].strip().lower() not in ("samesite", "secure")]
    return "; ".join([name_value, *kept, "SameSite=Lax", *(["Secure"] if secure else [])])


def add_security_headers(headers: httputil.HTTPHeaders, *, over_tls: bool) -> None:
    """One answer's headers made as docs/publishing.md says, in place: SECURITY_HEADERS (and
    HSTS `over_tls`), no Server header (tornado names itself and its version), every cookie
    through `guarded_cookie`."""
    for name, value in SECURITY_HEADERS.items():
        headers[name] = value
    if over_tls:
        headers["Strict-Transport-Security"] = HSTS
    if "Server" in headers:
        del headers["Server"]
    cookies = headers.get_list("Set-Cookie")
    if cookies:
        del headers["Set-Cookie"]
        for cookie in cookies:
            headers.add("Set-Cookie", guarded_cookie(cookie, secure=over_tls))


class GuardedConnection:
    """One request's HTTP connection, whose answer gets `add_security_headers` as its headers
    are written: whatever handler answers, an error, a redirect, a static file or a
    websocket's handshake. Everything else is the connection's own."""

    def __init__(self, connection: httputil.HTTPConnection, *, secure_cookies: bool):
        self._connection = connection
        self._secure_cookies = secure_cookies
        self.request_headers: httputil.HTTPHeaders | None = None

    def __getattr__(self, name: str):
        return getattr(self._connection, name)

    def over_tls(self) -> bool:
        """Whether the visitor reached the site over https: this server's own TLS, a proxy's
        X-Forwarded-Proto, or --secure-cookies. (A forged X-Forwarded-Proto costs only the
        forger: a browser keeps no Secure cookie and no HSTS from an http answer.)"""
        if self._secure_cookies or getattr(self._connection.context, "protocol", "http") == "https":
            return True
        forwarded = (self.request_headers or {}).get("X-Forwarded-Proto", "")
        return forwarded.split(",")[0].strip().lower() == "https"

    def write_headers(self, start_line, headers: httputil.HTTPHeaders, chunk: bytes | None = None):
        if isinstance(start_line, httputil.ResponseStartLine):
            add_security_headers(headers, over_tls=self.over_tls())
        return self._connection.write_headers(start_line, headers, chunk)


class _RequestHeadersTap(httputil.HTTPMessageDelegate):
    """The application's delegate for one request, telling GuardedConnection the request's
    headers (for X-Forwarded-Proto)."""

    def __init__(self, delegate: httputil.HTTPMessageDelegate, connection: GuardedConnection):
        self._delegate, self._connection = delegate, connection

    def headers_received(self, start_line, headers):
        self._connection.request_headers = headers
        return self._delegate.headers_received(start_line, headers)

    def data_received(self, chunk):
        return self._delegate.data_received(chunk)

    def finish(self):
        return self._delegate.finish()

    def on_connection_close(self):
        return self._delegate.on_connection_close()


class PublishingApplication(tornado.web.Application):
    """Voilà's tornado application, every answer of which goes out with the security headers."""

    def start_request(self, server_conn, request_conn):
        guarded = GuardedConnection(
            request_conn, secure_cookies=self.settings.get(SECURE_COOKIES_SETTING, False)
        )
        return _RequestHeadersTap(super().start_request(server_conn, guarded), guarded)


class ProjectErrorPage(tornado.web.RequestHandler):
    """The project's error page for every handler: tornado's own is bare, and Jupyter's sent
    an empty body when the error came before its prepare() (e.g. a 400 for a path that is
    not UTF-8: it asked for the current user, which was not known yet). Only the status and
    the reason the code gave: never the request's text or a traceback (the server logs
    those). (The API's handlers keep their JSON errors, which hold neither.)"""

    def write_error(self, status_code: int, **kwargs) -> None:
        exception = (kwargs.get("exc_info") or (None, None))[1]
        reason = getattr(exception, "reason", None) if isinstance(exception, tornado.web.HTTPError) else None
        template = self.settings["voila_jinja2_env"].select_template([f"{status_code}.html", "error.html"])
        page = template.render(
            status_code=status_code,
            status_message=reason or httputil.responses.get(status_code, "Error"),
            base_url=self.settings.get("base_url", "/"),
        )
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class UpgradeOrProjectError(tornado.websocket.WebSocketHandler):
    """A websocket's address asked for without the upgrade: the project's 400 page (tornado
    answered a line of plain text)."""

    async def get(self, *args, **kwargs):
        if self.request.headers.get("Upgrade", "").lower() != "websocket":
            raise tornado.web.HTTPError(400)
        return await super().get(*args, **kwargs)


def with_project_error_page(handler: type) -> type:
    """`handler`, or a subclass of it whose errors are the project's page (and, for a
    websocket, whose refusal of a plain request is)."""
    if not issubclass(handler, tornado.web.RequestHandler) or issubclass(
        handler, (ProjectErrorPage, APIHandler)
    ):
        return handler
    websocket = (UpgradeOrProjectError,) if issubclass(handler, tornado.websocket.WebSocketHandler) else ()
    return type(handler.__name__, (ProjectErrorPage, *websocket, handler), {"__doc__": handler.__doc__})


BUSY_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Busy: try again shortly</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:;base64,=">
<style>body{{font:18px/1.5 system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em}}</style>
</head><body><h1>Busy: try again shortly</h1>
<p>All {places} places of this rules explorer are taken right now. Places free up when other
visitors close their pages. Please <a href="{again}">try again</a> in a minute.</p>
</body></html>
"""


class BoundedVoilaHandler(ProjectErrorPage, TornadoVoilaHandler):
    """Voilà's notebook page, refused with a busy page when the kernel quota is full, and
    with 400 when the URL asks for a template or a theme (before any kernel starts)."""

    @tornado.web.authenticated
    async def get(self, path=None):
        if any(name in self.request.query_arguments for name in OVERRIDES):
            raise tornado.web.HTTPError(400, reason="Template and theme are fixed on this site")
        if path and CONTROL_CHARACTERS.search(path):
            raise tornado.web.HTTPError(404)  # Voilà would redirect to it: a 500
        quota: KernelQuota = self.settings[QUOTA_SETTING]
        if not quota.admit(self.kernel_manager):
            self.log.warning("Busy page: %d kernels reached", quota.max_kernels)
            return self.write_busy_page(quota)
        self.requested_notebook = self.notebook_path or path
        reserved = True
        try:
            async for snippet in self.get_generator(path=path):
                if reserved:  # the kernel exists now and is counted by the kernel manager
                    quota.release()
                    reserved = False
                self.write(HEARTBEAT if snippet == VOILA_HEARTBEAT else snippet)
                self.flush()
        finally:
            if reserved:
                quota.release()

    def should_use_rendered_notebook(self, *args, **kwargs) -> bool:
        """Take a preheated kernel only when one is warm. Voilà would otherwise queue the
        visitor behind the kernel still warming up in the pool, so a burst of visitors got
        their kernels one at a time; now the rest start kernels side by side."""
        if not super().should_use_rendered_notebook(*args, **kwargs):
            return False
        pool = getattr(self.kernel_manager, "_pools", {}).get(self.requested_notebook, [])
        return bool(pool) and pool[0].done() and not pool[0].cancelled() and pool[0].exception() is None

    def write_busy_page(self, quota: KernelQuota) -> None:
        self.set_status(503)
        self.set_header("Retry-After", "30")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        again = html.escape(self.request.path, quote=True)
        self.finish(BUSY_PAGE.format(places=quota.max_kernels, again=again))


class NotFoundHandler(ProjectErrorPage, BaseVoilaHandler):
    """Every URL no handler takes: the project's 404 page (tornado's default is bare)."""

    async def prepare(self):
        await super().prepare()
        raise tornado.web.HTTPError(404)


class ProjectTemplateStaticFiles(ProjectErrorPage, TemplateStaticFileHandler):
    """Voilà's /voila/templates/<template>/static/<file>, for the project template only: Voilà
    answered 500 to a path of another shape (an assertion failed) or to a template name that
    is a path."""

    def parse_url_path(self, path):
        if not path.startswith(f"{TEMPLATE}/static/"):
            raise tornado.web.HTTPError(404)
        return super().parse_url_path(path)


# Voilà handlers the publishing mode leaves out: the file tree and the contents API behind it
# (the landing page lists the notebooks; a listing would also show every other file).
LEFT_OUT = (TornadoVoilaTreeHandler, VoilaContentsHandler)


class PublishingVoila(Voila):
    """Voilà in tree mode with the landing page as front door and the kernel quota, without
    the file tree."""

    name = "rules-explorer-publish"
    max_kernels = Integer(32, config=True, help="kernels alive at once, preheated ones included")
    secure_cookies = Bool(
        False, config=True, help="Secure on every cookie: the site is reached over https only"
    )

    def init_settings(self):
        settings = super().init_settings()
        settings[QUOTA_SETTING] = KernelQuota(self.max_kernels)
        settings[SECURE_COOKIES_SETTING] = self.secure_cookies
        settings["default_handler_class"] = NotFoundHandler
        settings["default_handler_args"] = {"voila_configuration": self.voila_configuration}
        # jupyter_server's own error pages (e.g. a 404 from /voila/labextensions/) failed to
        # render in Voilà (no static_url) and were sent empty: they are the project's too.
        settings["jinja2_env"] = settings["voila_jinja2_env"]
        return settings

    def init_handlers(self):
        # no login or logout pages either: a published site has no accounts (/logout was a 500)
        left_out = (
            *LEFT_OUT,
            self.identity_provider.login_handler_class,
            self.identity_provider.logout_handler_class,
        )
        handlers = [
            self._replaced(spec)
            for spec in super().init_handlers()
            if not (len(spec) > 1 and spec[1] in left_out)
        ]
        if Path(self.root_dir, LANDING_PAGE).is_file():
            landing = url_path_join(self.base_url, "voila/render", LANDING_PAGE)
            handlers.insert(
                0, (self.server_url, with_project_error_page(tornado.web.RedirectHandler), {"url": landing})
            )
        return handlers

    def start(self):
        """Voilà's start, with PublishingApplication (the security headers) for Voilà's
        tornado.web.Application."""
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        self.log.info("Storing connection files in %s.", self.connection_dir)
        self.app = PublishingApplication(**self.init_settings())
        self.app.settings.update(self.tornado_settings)
        self.app.add_handlers(".*$", self.init_handlers())
        self.listen()

    @staticmethod
    def _replaced(spec: tuple) -> tuple:
        replacement = {
            TornadoVoilaHandler: BoundedVoilaHandler,
            TemplateStaticFileHandler: ProjectTemplateStaticFiles,
        }
        if len(spec) > 1 and spec[1] in replacement:
            return (spec[0], replacement[spec[1]], *spec[2:])
        if len(spec) > 1 and isinstance(spec[1], type):
            return (spec[0], with_project_error_page(spec[1]), *spec[2:])
        return spec


def parse_args(argv: Sequence[str] | None = None) -> PublishSettings:
    defaults = PublishSettings()
    parser = argparse.ArgumentParser(
        prog="./run publish",
        description="Serve every notebook in notebooks/ with Voilà for visitors (docs/publishing.md). "
        "Unknown --Class.trait=value options are passed on to Voilà.",
    )
    parser.add_argument("--ip", default=defaults.ip, help="bind address (default %(default)s)")
    parser.add_argument("--port", type=_port, default=defaults.port, help="port (default %(default)s)")
    parser.add_argument(
        "--base-url",
        default=defaults.base_url,
        help="URL prefix behind a reverse proxy (default %(default)s)",
    )
    parser.add_argument(
        "--notebooks",
        type=Path,
        default=defaults.notebooks,
        help="directory of notebooks to serve (default: the project's notebooks/)",
    )
    parser.add_argument(
        "--max-kernels",
        type=_positive,
        default=defaults.max_kernels,
        help="kernels alive at once, preheated included (default %(default)s)",
    )
    parser.add_argument(
        "--cull-idle-timeout",
        type=_positive,
        default=defaults.cull_idle_timeout,
        help="seconds a kernel without connection may stay idle (default %(default)s)",
    )
    parser.add_argument(
        "--cull-interval",
        type=_positive,
        default=defaults.cull_interval,
        help="seconds between culler passes (default %(default)s)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=_positive,
        default=defaults.connect_timeout,
        help="seconds a kernel whose page never connected may live (default %(default)s)",
    )
    parser.add_argument(
        "--preheat",
        action="append",
        metavar="NOTEBOOK",
        help=f"notebook to keep preheated kernels for; repeatable (default: {', '.join(defaults.preheat)})",
    )
    parser.add_argument(
        "--pool-size",
        type=_non_negative,
        default=defaults.pool_size,
        help="preheated kernels per preheated notebook; 0 turns preheating off (default %(default)s)",
    )
    parser.add_argument(
        "--kernel-memory-mib",
        type=_non_negative,
        default=defaults.kernel_memory_mib,
        help="memory cap of each kernel in MiB (RLIMIT_DATA); 0 turns it off (default %(default)s)",
    )
    parser.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark every cookie Secure and send HSTS: the site is reached over https only (behind a "
        "TLS proxy that sends no X-Forwarded-Proto); with X-Forwarded-Proto: https this is automatic",
    )
    parser.add_argument(
        "--no-perfect-play",
        dest="perfect_play",
        action="store_false",
        help="do not build the solved tables; the site does not offer perfect play",
    )
    args, extra = parser.parse_known_args(argv)
    unknown = [arg for arg in extra if not arg.startswith("--") or "." not in arg.split("=")[0]]
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if not args.notebooks.is_dir():
        parser.error(f"--notebooks: {args.notebooks} is not a directory")
    base_url = "/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/"
    return PublishSettings(
        ip=args.ip,
        port=args.port,
        base_url=base_url,
        notebooks=args.notebooks.resolve(),
        max_kernels=args.max_kernels,
        cull_idle_timeout=args.cull_idle_timeout,
        cull_interval=args.cull_interval,
        connect_timeout=args.connect_timeout,
        preheat=tuple(args.preheat) if args.preheat else defaults.preheat,
        pool_size=args.pool_size,
        kernel_memory_mib=args.kernel_memory_mib,
        perfect_play=args.perfect_play,
        secure_cookies=args.secure_cookies,
        extra_voila_args=extra,
    )


def _port(text: str) -> int:
    value = int(text)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"{text} is not a port number (1-65535)")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def use_project_template(environ: MutableMapping[str, str] = os.environ) -> None:
    """Make Voilà find the `rules-explorer` template (Jupyter data path) in this process and
    in the kernels it starts, or in the processes started with `environ`."""
    paths = [str(TEMPLATE_ROOT), *filter(None, environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    environ["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))


def solved_games() -> list[str]:
    """The games that declare a solved table (Game.SOLVED_TABLE)."""
    import rules_kernel as rk

    return [game for game in rk.list_games() if rk.game_class(game).SOLVED_TABLE]


def table_preparation_command(game: str) -> list[str]:
    """Build the game's table unless the cache holds a current one, then unpack it for the
    kernels' memory map (`rules-explorer solve <game> --reuse`), at low priority."""
    command = [sys.executable, "-m", "rules_kernel.cli", "solve", game, "--reuse"]
    nice = shutil.which("nice")
    return [nice, "-n", "10", *command] if nice else command


def prepare_tables(log=print) -> list[subprocess.Popen]:
    """Start preparing every solved table in the background: one process per table, its
    progress bars on the server's terminal (stderr); the site serves meanwhile and the
    explorer's switch says "being prepared". Each process holds the table's lock and writes
    under partial names, so no kernel opens a half-built table; if one fails, its table is
    absent and the switch is not offered. The processes are stopped when the server exits."""
    started = []
    for game in solved_games():
        log(f"[publish] perfect play: preparing the solved table of {game} in the background")
        process = subprocess.Popen(table_preparation_command(game), stdin=subprocess.DEVNULL)
        threading.Thread(target=_report, args=(game, process, log), daemon=True).start()
        atexit.register(_stop, process)
        started.append(process)
    return started


def _report(game: str, process: subprocess.Popen, log) -> None:
    code = process.wait()
    if code == 0:
        log(f"[publish] perfect play: the solved table of {game} is ready")
    else:
        log(f"[publish] perfect play: preparing the table of {game} failed (exit {code}); not offered")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()  # the preparation removes its half-written files (SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def main(argv: Sequence[str] | None = None) -> None:
    settings = parse_args(argv)
    use_project_template()
    os.environ.update(settings.kernel_environment())
    if settings.perfect_play:
        prepare_tables(log=lambda line: print(line, file=sys.stderr, flush=True))
    PublishingVoila.launch_instance(
        argv=[str(settings.notebooks), *settings.extra_voila_args], config=settings.voila_config()
    )


if __name__ == "__main__":
    main()
