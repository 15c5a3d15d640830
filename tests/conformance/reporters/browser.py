"""A page opened in a real headless Chromium, driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: JSON messages ending in NUL on file descriptors 3 and 4), so a
test can see what a reader sees: console errors, uncaught exceptions, requests that leave
the page, the size of every figure and bar as laid out, the colors of heat-map cells, and a
screenshot."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The flags the brief asks for: no sandbox (root in a container), no GPU, nothing that
#: talks to the network by itself, a throwaway profile.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
TIMEOUT = 60.0


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Rendered:
    """What the browser saw."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    figures: list[dict[str, Any]] = field(default_factory=list)
    bars: list[dict[str, Any]] = field(default_factory=list)
    heat: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    background: str = ""
    screenshot: bytes = b""


class _Pipe:
    def __init__(self, write_fd: int, read_fd: int) -> None:
        self._write, self._read = write_fd, read_fd
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._message(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self._message(deadline))


_FIGURES = """JSON.stringify([...document.querySelectorAll('svg')].map(s => {
  const r = s.getBoundingClientRect();
  const t = s.querySelector('title');
  return {title: t ? t.textContent : '', width: r.width, height: r.height,
          marks: s.querySelectorAll('rect, circle, polyline, line').length};
}))"""


_BARS = """JSON.stringify([...document.querySelectorAll('.bar > span[title]')].map(s => ({
  table: [...document.querySelectorAll('table')].indexOf(s.closest('table')),
  title: s.title, width: s.getBoundingClientRect().width})))"""

_HEAT = """JSON.stringify([...document.querySelectorAll('table.heat td[title]')].map(c => {
  const style = getComputedStyle(c);
  return {title: c.title, background: style.backgroundColor, color: style.color};
}))"""


def _errors(events: list[dict[str, Any]]) -> list[str]:
    out = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            thrown = details.get("exception", {}).get("description", "")
            out.append(f"{details.get('text', 'exception')} {thrown}".strip())
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            out.append(" ".join(str(a.get("value", "")) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            out.append(f"{entry.get('text', '')} {entry.get('url', '')}".strip())
    return out


class Browser:
    """A headless Chromium that renders pages one after another (one process, one profile)."""

    def __init__(self, chromium: str, width: int = 1280, height: int = 900) -> None:
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def wire() -> None:  # in the child: fd 3 is what it reads, fd 4 what it writes
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self._profile = tempfile.TemporaryDirectory(prefix="bleu-conformance-chromium-")
        self._process = subprocess.Popen(
            [
                chromium,
                *FLAGS,
                f"--user-data-dir={self._profile.name}",
                f"--window-size={width},{height}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,  # a test helper, single-threaded
            pass_fds=(3, 4),  # kept open after wire() put the pipe ends there
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._fds = (to_chrome_w, from_chrome_r)
        self._pipe = _Pipe(to_chrome_w, from_chrome_r)

    def render(self, page: Path, *, dark: bool = False) -> Rendered:
        """Open ``page`` (a file) in a new tab, in light or dark color scheme, wait for its
        load event, and report what happened."""
        pipe = self._pipe
        target = pipe.send("Target.createTarget", url="about:blank")["targetId"]
        session = pipe.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            pipe.send(f"{domain}.enable", session)
        scheme = {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}
        pipe.send("Emulation.setEmulatedMedia", session, features=[scheme])
        pipe.events.clear()
        pipe.send("Page.navigate", session, url=page.resolve().as_uri())
        pipe.wait_for("Page.loadEventFired")
        rendered = Rendered(
            figures=json.loads(self._evaluate(session, _FIGURES)),
            bars=json.loads(self._evaluate(session, _BARS)),
            heat=json.loads(self._evaluate(session, _HEAT)),
            title=self._evaluate(session, "document.title"),
            background=self._evaluate(session, "getComputedStyle(document.body).backgroundColor"),
        )
        shot = pipe.send(
            "Page.captureScreenshot", session, format="png", captureBeyondViewport=True
        )
        rendered.screenshot = base64.b64decode(shot["data"])
        rendered.errors = _errors(pipe.events)
        rendered.requests = [
            e["params"]["request"]["url"]
            for e in pipe.events
            if e.get("method") == "Network.requestWillBeSent"
        ]
        pipe.send("Target.closeTarget", targetId=target)
        return rendered

    def _evaluate(self, session: str, expression: str) -> Any:
        result = self._pipe.send(
            "Runtime.evaluate", session, expression=expression, returnByValue=True
        )
        return result["result"]["value"]

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):
            self._pipe.send("Browser.close")
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in self._fds:
            os.close(fd)
        self._profile.cleanup()
