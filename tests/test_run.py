"""What ``make run`` serves (``bin/run`` -> ``config/supervisord.conf``; docs/performance.md):
the tests' own servers (``tests/servers.py``: browser tests, drills) start the
very command line supervisor starts, and every variable that command line reads from the
environment is one ``bin/run`` exports (supervisor refuses to start on a missing one)."""

import configparser
import re
import shlex
from pathlib import Path

from tests.servers import web_command

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "config" / "supervisord.conf"


def program(name: str) -> str:
    parser = configparser.RawConfigParser()
    parser.read(CONF)
    return parser[f"program:{name}"]["command"]


def expand(command: str, **env: str) -> list[str]:
    """supervisor's ``%(here)s`` and ``%(ENV_X)s`` expansions, then its shell-like split."""
    command = command.replace("%(here)s", str(CONF.parent))
    command = re.sub(r"%\(ENV_(\w+)\)s", lambda m: env[m.group(1)], command)
    return shlex.split(command)


def test_the_tests_serve_what_make_run_serves():
    argv = expand(
        program("web"), HOST="127.0.0.1", PORT="8123", WEB_CONCURRENCY="1", FORWARDED_ALLOW_IPS=""
    )
    ours = web_command("127.0.0.1", 8123, workers=1)
    assert Path(argv[0]).resolve() == (ROOT / ".venv" / "bin" / "python").resolve()
    assert argv[1:] == ours[1:]
    # WEB_CONCURRENCY is the production setting: it reaches uvicorn's --workers
    argv = expand(
        program("web"), HOST="0.0.0.0", PORT="80", WEB_CONCURRENCY="4", FORWARDED_ALLOW_IPS="10.0.0.2"
    )
    assert "--forwarded-allow-ips=10.0.0.2" in argv
    assert argv[argv.index("--workers") + 1] == "4"
    assert argv[argv.index("--host") + 1] == "0.0.0.0"


def test_bin_run_exports_every_variable_supervisor_reads():
    conf = CONF.read_text()
    wanted = set(re.findall(r"%\(ENV_(\w+)\)s", conf))
    assert {"HOST", "PORT", "WEB_CONCURRENCY"} <= wanted
    run = (ROOT / "bin" / "run").read_text()
    exported = {v for line in re.findall(r"^export (.+)$", run, re.M) for v in line.split()}
    assert wanted <= exported, f"bin/run does not export {sorted(wanted - exported)}"


def test_a_served_process_freezes_what_it_imported():
    """config/asgi.py hands what importing made to gc.freeze(): a full collection in a busy
    process scans only what serving made since (docs/performance-history.md: the evening's pauses)."""
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import gc, config.asgi; print(gc.get_freeze_count())"],
        cwd=ROOT, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert int(out.stdout.split()[-1]) > 10_000  # Django and the apps: about 100,000 objects


def test_ctrl_c_stops_cleanly_and_fast():
    """Found by a new user: Ctrl-C of ``make run`` took 20 s, SIGKILLed the worker and logged
    ERROR (the pool children got the TERM first) and CRIT lines (an unauthenticated control
    socket; root without ``-u root``). Measured by hand after the fix (bin/run, SIGINT to
    supervisord, no REDIS_URL): 11.8 s, neither ERROR nor CRIT."""
    parser = configparser.RawConfigParser()
    parser.read(CONF)
    worker, web = parser["program:worker"], parser["program:web"]
    assert worker["stopasgroup"] == "false" and worker["killasgroup"] == "true"
    assert int(worker["stopwaitsecs"]) <= 10 and int(web["stopwaitsecs"]) <= 10
    assert "--timeout-graceful-shutdown" in web["command"]
    assert "unix_http_server" not in parser.sections()
    assert "-u root" in (ROOT / "bin" / "run").read_text()
