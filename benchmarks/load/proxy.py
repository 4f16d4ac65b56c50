"""nginx in front of gunicorn, as ``deploy/nginx.conf`` puts it in production.

The load benchmark runs the repository's own site file, its marked values replaced
(the address it listens on, gunicorn's, the static root), so that the shape measured is
the shape deployed: nginx serves ``/static/`` and hands everything else to gunicorn.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "deploy" / "nginx.conf"

#: The site file's marked lines, each replaced by the benchmark's own value.
LISTEN = "listen 443 ssl;"
UPSTREAM = "server 127.0.0.1:8000;"
STATIC_ROOT = "alias /srv/humaneval/staticfiles/;"


def nginx() -> str | None:
    """The nginx binary, or None where it is not installed."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def site(*, port: int, upstream: str, static_root: Path, text: str | None = None) -> str:
    """``deploy/nginx.conf`` with its marked values replaced: plain HTTP on ``port``
    (without the certificate lines and the block redirecting HTTP to HTTPS)."""
    text = SITE.read_text(encoding="utf-8") if text is None else text
    begin, end = text.find("# BEGIN redirect"), text.find("# END redirect")
    if begin < 0 or end < begin:
        raise ValueError(f"{SITE.name}: expected '# BEGIN redirect' ... '# END redirect'")
    text = text[:begin] + text[end + len("# END redirect") :]
    text = "\n".join(line for line in text.splitlines() if "ssl_certificate" not in line)
    for marked, value in (
        (LISTEN, f"listen 127.0.0.1:{port};"),
        (UPSTREAM, f"server {upstream};"),
        (STATIC_ROOT, f"alias {static_root.as_posix().rstrip('/')}/;"),
    ):
        if text.count(marked) != 1:
            raise ValueError(f"{SITE.name}: expected one line with {marked!r}")
        text = text.replace(marked, value)
    return text


def main_config(folder: Path, site_file: Path) -> str:
    """A whole nginx configuration around the site: one worker process, everything it
    writes (pid, error log, temporary bodies) in ``folder``, no access log."""
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    user = "user root;\n" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\n"
        "events { worker_connections 8192; }\n"
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        "    default_type application/octet-stream;\n"
        "    access_log off;\n"
        "    sendfile on;\n"
        f"    client_body_temp_path {temp['body']};\n"
        f"    proxy_temp_path {temp['proxy']};\n"
        f"    fastcgi_temp_path {temp['fastcgi']};\n"
        f"    uwsgi_temp_path {temp['uwsgi']};\n"
        f"    scgi_temp_path {temp['scgi']};\n"
        f"    include {site_file};\n"
        "}\n"
    )


def start(*, folder: Path, port: int, upstream: str, static_root: Path) -> subprocess.Popen[bytes]:
    """Start nginx on ``port`` in front of ``upstream``; returns once it answers."""
    binary = nginx()
    if binary is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx), or use --proxy none")
    site_file = folder / "site.conf"
    site_file.write_text(site(port=port, upstream=upstream, static_root=static_root))
    config = folder / "nginx.conf"
    config.write_text(main_config(folder, site_file))
    checked = subprocess.run(
        [binary, "-t", "-q", "-p", str(folder), "-c", str(config)], capture_output=True, text=True
    )
    if checked.returncode != 0:
        raise RuntimeError(f"nginx refused the configuration: {checked.stderr.strip()}")
    process = subprocess.Popen(
        [binary, "-p", str(folder), "-c", str(config), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
    )
    wait_answering(f"http://127.0.0.1:{port}/static/", within=15)
    return process


def wait_answering(url: str, *, within: float) -> None:
    """Return once a server answers ``url`` (any status), or after ``within`` seconds."""
    deadline = time.time() + within
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # any answer means the server is up
        except OSError:
            time.sleep(0.2)
