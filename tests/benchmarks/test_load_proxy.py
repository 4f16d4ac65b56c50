"""``deploy/nginx.conf`` as the load benchmark runs it: the marked lines replaced, and a
real nginx in front of a server serving ``/static/`` itself with long caching."""

from __future__ import annotations

import http.server
import subprocess
import threading
import urllib.request
from pathlib import Path

import pytest

from benchmarks.load import proxy


def test_the_site_files_marked_values_are_replaced_once_each():
    text = proxy.site(port=9999, upstream="127.0.0.1:9998", static_root=Path("/srv/x/static"))
    assert "listen 127.0.0.1:9999;" in text
    assert "server 127.0.0.1:9998;" in text
    assert "alias /srv/x/static/;" in text
    assert "listen 443" not in text and "/srv/humaneval/" not in text
    assert "ssl_certificate" not in text and "return 301" not in text


def test_the_shipped_site_file_is_valid_for_nginx_but_for_its_certificate(tmp_path):
    """As shipped (TLS, the redirect, the upload paths' limits): nginx accepts it once
    its certificate exists, here a stand-in file's name is all that is missing."""
    binary = proxy.nginx()
    if binary is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    text = proxy.SITE.read_text(encoding="utf-8")
    for line in text.splitlines():
        if "ssl_certificate" in line:
            text = text.replace(line, "")
    text = text.replace("listen 443 ssl;", "listen 127.0.0.1:1;").replace(
        "listen 80;", "listen 127.0.0.1:2;"
    )
    (tmp_path / "site.conf").write_text(text)
    (tmp_path / "nginx.conf").write_text(proxy.main_config(tmp_path, tmp_path / "site.conf"))
    checked = subprocess.run(
        [binary, "-t", "-q", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "client_max_body_size 3m;" in text and text.count("client_max_body_size 53m;") == 2


def test_a_site_file_without_a_marked_line_is_refused_by_name():
    edited = proxy.SITE.read_text(encoding="utf-8").replace(proxy.UPSTREAM, "server x:1;")
    with pytest.raises(ValueError, match=r"nginx\.conf: expected one line with .server"):
        proxy.site(port=1, upstream="a:2", static_root=Path("/s"), text=edited)


class _Upstream(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"app {self.path} via {self.headers.get('X-Forwarded-For')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.skipif(
    proxy.nginx() is None, reason="nginx is not installed (apt-get install nginx-light)"
)
def test_nginx_serves_static_files_itself_and_hands_the_rest_on(tmp_path):
    static = tmp_path / "static"
    (static / "css").mkdir(parents=True)
    (static / "css" / "worker.abc123.css").write_text("body{}")
    app = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream) as probe:
        port = probe.server_address[1]  # a free port for nginx
    folder = tmp_path / "nginx"
    folder.mkdir()
    front = proxy.start(
        folder=folder, port=port, upstream=f"127.0.0.1:{app.server_address[1]}", static_root=static
    )
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/worker.abc123.css") as r:
            assert r.read() == b"body{}"
            assert "immutable" in r.headers["Cache-Control"]
            assert r.headers["X-Content-Type-Options"] == "nosniff"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/w/some-campaign/") as r:
            assert r.read() == b"app /w/some-campaign/ via 127.0.0.1"
    finally:
        front.terminate()
        front.wait(timeout=10)
        app.shutdown()
