"""What ``make run`` serves (``bin/run`` -> ``config/supervisord.conf``; docs/performance.md):
the tests' own servers (``tests/servers.py``: browser tests, drills) start the
very command line supervisor starts, and every variable that command line reads from the
environment is one ``bin/run`` exports (supervisor refuses to start on a missing one)."""

import configparser
import os
import re
import shlex
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from tests.servers import database_url, free_port, web_command

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


def _ws_options(argv: list[str]) -> dict[str, str]:
    """uvicorn's websocket options (``--ws``, ``--ws-max-size``, ...) in ``argv`` and their
    values."""
    return {a: argv[i + 1] for i, a in enumerate(argv) if a.startswith("--ws")}


def test_the_benchmark_serves_the_phones_websockets_as_make_run_does():
    """``bench/live.py`` measures the websocket protocol production runs (the phones' memory
    and bytes on the wire depend on it: docs/performance.md "DemLoc at an evening's scale")."""
    from bench.live import server_command

    served = _ws_options(
        expand(program("web"), HOST="h", PORT="1", WEB_CONCURRENCY="2", FORWARDED_ALLOW_IPS="")
    )
    assert served["--ws"] == "config.websocket:PhoneWebSocket"
    assert _ws_options(server_command("uvicorn", 2, 8123)) == served


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
    socket; root without ``-u root``). Measured: test_make_run_says_ready_once_the_port_answers
    (web and worker in one supervisor group, stopped together: about 5 s)."""
    parser = configparser.RawConfigParser()
    parser.read(CONF)
    worker, web = parser["program:worker"], parser["program:web"]
    assert worker["stopasgroup"] == "false" and worker["killasgroup"] == "true"
    assert int(worker["stopwaitsecs"]) <= 10 and int(web["stopwaitsecs"]) <= 10
    assert "--timeout-graceful-shutdown" in web["command"]
    assert "unix_http_server" not in parser.sections()
    # one group: stopped together (a group each: one after the other, the web server waited)
    assert parser["group:demloc"]["programs"] == "web,worker"
    assert "-u root" in (ROOT / "bin" / "run").read_text()


def test_make_run_says_ready_once_the_port_answers_and_a_ctrl_c_stops_it_fast(
    django_db_setup, django_db_blocker
):
    """Found by a new user: supervisor said RUNNING about 20 s before the port answered, and
    Ctrl-C took 20 s. ``bin/run`` (what ``make run`` runs last, README "make run"), on the
    embedded default broker and the test database: its "Ready: http://127.0.0.1:PORT" line
    comes once the port answers (a request sent as the line is read is answered); a SIGINT to
    its process group (a terminal's Ctrl-C) stops supervisord, the web server and the worker
    within a few seconds, with no ERROR or CRIT line."""
    with django_db_blocker.unblock():
        url = database_url()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEB_CONCURRENCY")}
    # SERVE_STATIC=0: no collectstatic into the checkout's staticfiles/ while other test
    # processes serve from it (the start is otherwise make run's)
    env.update(DATABASE_URL=url, HOST="127.0.0.1", PORT=str(port), DEBUG="0", SERVE_STATIC="0")
    start = time.monotonic()
    proc = subprocess.Popen(
        [str(ROOT / "bin" / "run")], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: list[str] = []
    ready = threading.Event()
    answered_at_ready: list[bool] = []

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live/", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def read() -> None:
        for line in proc.stdout:
            lines.append(line.rstrip())
            if line.startswith("Ready:") and not ready.is_set():
                answered_at_ready.append(answers())
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert ready.wait(90), "\n".join(lines[-30:])
        took = time.monotonic() - start
        said = [x for x in lines if x.startswith("Ready:")]
        assert said[0].split()[1] == f"http://127.0.0.1:{port}", said
        assert answered_at_ready == [True], "Ready was said before the port answered"
        time.sleep(1)
        children = [int(x.split()[-1]) for x in lines if "spawned: " in x]
        assert len(children) == 2, lines
        stop_start = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
        stopped = time.monotonic() - stop_start
    finally:
        if proc.poll() is None:  # a failed test: supervisord stops its children, then goes
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    reader.join(5)
    print(f"Ready after {took:.1f} s; Ctrl-C stopped everything in {stopped:.1f} s")
    assert stopped <= 12, (stopped, lines[-15:])  # 20 s before; 4 to 8 s on a loaded machine
    for pid in children:  # the web server and the worker are gone too
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        raise AssertionError(f"process {pid} still runs after Ctrl-C")
    assert not answers()
    bad = [x for x in lines if " ERROR " in x or " CRIT " in x or "ERROR/" in x]
    assert not bad, bad
