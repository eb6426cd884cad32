"""The publishing mode: every notebook in notebooks/ served by Voilà to untrusted visitors.

    python -m publish [--ip ADDR] [--port N] [--max-kernels N] [--cull-idle-timeout S] ...

What it adds to a plain `voila notebooks/` (docs/publishing.md explains each setting):

- the landing page `index.ipynb` is the front door: `/` redirects there;
- idle kernels are culled: a kernel without a browser connection that has been idle for
  `cull_idle_timeout` seconds is shut down (jupyter_server's culler, `cull_connected=False`);
- the number of kernels is bounded: beyond `max_kernels` a visitor gets a short
  "busy, try again" page (HTTP 503 with Retry-After) instead of one more kernel;
- the landing page and the explorer are preheated (Voilà's kernel pool), so they render fast;
- no request leaves the server: the page template drops Voilà's Font Awesome CDN links.
"""

from __future__ import annotations

import argparse
import html
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import tornado.web
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from traitlets import Integer, TraitError
from traitlets.config import Config
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

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
PREHEATED = (LANDING_PAGE, "explorer.ipynb", "statistics.ipynb", "statistics-dashboard.ipynb",
             "rules-yokai-3x4.ipynb", "rules-yokai-5x6.ipynb", "rules-war-stories.ipynb",
             "rules-to-war.ipynb", "rules-war-chest.ipynb")


@dataclass
class PublishSettings:
    """Every setting of the publishing mode, with its default (docs/publishing.md)."""

    ip: str = "127.0.0.1"              # bind address; 0.0.0.0 listens on every interface
    port: int = 8866
    base_url: str = "/"                # URL prefix, for a reverse proxy that serves a sub-path
    notebooks: Path = NOTEBOOKS
    max_kernels: int = 32              # kernels alive at once, preheated ones included
    cull_idle_timeout: int = 120       # seconds idle (and without connection) before a kernel goes
    cull_interval: int = 30            # seconds between two culler passes
    connect_timeout: int = 120         # seconds a kernel whose page never connected may live
    preheat: tuple[str, ...] = PREHEATED
    pool_size: int = 1                 # preheated kernels kept ready per preheated notebook
    iopub_timeout: int = 120           # seconds Voilà waits for a cell's output once it has run
    extra_voila_args: list[str] = field(default_factory=list)

    def voila_config(self) -> Config:
        c = Config()
        c.Voila.ip = self.ip
        c.Voila.port = self.port
        c.Voila.port_retries = 0       # a taken port is an error, not a silent move elsewhere
        c.Voila.open_browser = False
        c.Voila.base_url = self.base_url
        c.PublishingVoila.max_kernels = self.max_kernels
        c.VoilaConfiguration.template = TEMPLATE
        c.VoilaConfiguration.show_tracebacks = False
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
        pools.update({name: {"pool_size": self.pool_size} for name in self.preheat
                      if (self.notebooks / name).is_file()})
        c.VoilaConfiguration.preheat_kernel = self.pool_size > 0 and len(pools) > 1
        c.VoilaKernelManager.kernel_pools_config = pools
        return c


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

    connect_timeout = Integer(120, config=True,
                              help="seconds a kernel whose page never connected may live")

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


class BoundedVoilaHandler(TornadoVoilaHandler):
    """Voilà's notebook page, refused with a busy page when the kernel quota is full."""

    @tornado.web.authenticated
    async def get(self, path=None):
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
                self.write(snippet)
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


class PublishingVoila(Voila):
    """Voilà in tree mode with the landing page as front door and the kernel quota."""

    name = "rules-explorer-publish"
    max_kernels = Integer(32, config=True, help="kernels alive at once, preheated ones included")

    def init_settings(self):
        settings = super().init_settings()
        settings[QUOTA_SETTING] = KernelQuota(self.max_kernels)
        return settings

    def init_handlers(self):
        handlers = [self._bounded(spec) for spec in super().init_handlers()]
        if Path(self.root_dir, LANDING_PAGE).is_file():
            landing = url_path_join(self.base_url, "voila/render", LANDING_PAGE)
            front_door = (self.server_url, tornado.web.RedirectHandler, {"url": landing})
            handlers = [front_door, *(h for h in handlers if h[0] != self.server_url)]
        return handlers

    @staticmethod
    def _bounded(spec: tuple) -> tuple:
        if len(spec) > 1 and spec[1] is TornadoVoilaHandler:
            return (spec[0], BoundedVoilaHandler, *spec[2:])
        return spec


def parse_args(argv: Sequence[str] | None = None) -> PublishSettings:
    defaults = PublishSettings()
    parser = argparse.ArgumentParser(
        prog="./run publish",
        description="Serve every notebook in notebooks/ with Voilà for visitors (docs/publishing.md). "
                    "Unknown --Class.trait=value options are passed on to Voilà.")
    parser.add_argument("--ip", default=defaults.ip, help="bind address (default %(default)s)")
    parser.add_argument("--port", type=_port, default=defaults.port, help="port (default %(default)s)")
    parser.add_argument("--base-url", default=defaults.base_url,
                        help="URL prefix behind a reverse proxy (default %(default)s)")
    parser.add_argument("--notebooks", type=Path, default=defaults.notebooks,
                        help="directory of notebooks to serve (default: the project's notebooks/)")
    parser.add_argument("--max-kernels", type=_positive, default=defaults.max_kernels,
                        help="kernels alive at once, preheated included (default %(default)s)")
    parser.add_argument("--cull-idle-timeout", type=_positive, default=defaults.cull_idle_timeout,
                        help="seconds a kernel without connection may stay idle (default %(default)s)")
    parser.add_argument("--cull-interval", type=_positive, default=defaults.cull_interval,
                        help="seconds between culler passes (default %(default)s)")
    parser.add_argument("--connect-timeout", type=_positive, default=defaults.connect_timeout,
                        help="seconds a kernel whose page never connected may live (default %(default)s)")
    parser.add_argument("--preheat", action="append", metavar="NOTEBOOK",
                        help="notebook to keep preheated kernels for; repeatable "
                             f"(default: {', '.join(defaults.preheat)})")
    parser.add_argument("--pool-size", type=_non_negative, default=defaults.pool_size,
                        help="preheated kernels per preheated notebook; 0 turns preheating off "
                             "(default %(default)s)")
    args, extra = parser.parse_known_args(argv)
    unknown = [arg for arg in extra if not arg.startswith("--") or "." not in arg.split("=")[0]]
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if not args.notebooks.is_dir():
        parser.error(f"--notebooks: {args.notebooks} is not a directory")
    base_url = "/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/"
    return PublishSettings(ip=args.ip, port=args.port, base_url=base_url,
                           notebooks=args.notebooks.resolve(), max_kernels=args.max_kernels,
                           cull_idle_timeout=args.cull_idle_timeout, cull_interval=args.cull_interval,
                           connect_timeout=args.connect_timeout,
                           preheat=tuple(args.preheat) if args.preheat else defaults.preheat,
                           pool_size=args.pool_size, extra_voila_args=extra)


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


def use_project_template() -> None:
    """Make Voilà find the `rules-explorer` template (Jupyter data path) in this process and
    in the kernels it starts."""
    paths = [str(TEMPLATE_ROOT), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))


def main(argv: Sequence[str] | None = None) -> None:
    settings = parse_args(argv)
    use_project_template()
    PublishingVoila.launch_instance(argv=[str(settings.notebooks), *settings.extra_voila_args],
                                    config=settings.voila_config())


if __name__ == "__main__":
    main()
