"""Real faults for the recovery tests: a private Redis server that a test may
freeze (SIGSTOP: connections open, nothing answers), kill and restart; and a TCP proxy that
can black-hole traffic (a phone's network silently gone). Nothing here stands in for our own
code: these are the broken parts of the world that our code must survive."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test only, on a free port of 127.0.0.1, no persistence."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.binary = binary
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="demloc-redis-"))
        self.proc: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def freeze(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.thaw()
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def is_down(self) -> bool:
        """True when nothing answers on the port (a connection is refused)."""
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
        except OSError:
            return True
        return False

    def restart(self, down_for: float = 0.0) -> None:
        """Stop, stay down ``down_for`` s, start again. Raises ``AssertionError`` when the
        server still answered once stopped (the drill's fault would not have happened);
        ``downs`` counts the restarts proven down."""
        self.stop()
        assert self.is_down(), "the private redis-server still answers after being stopped"
        self.downs = getattr(self, "downs", 0) + 1
        time.sleep(down_for)
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class BlackHoleProxy:
    """A TCP proxy 127.0.0.1:<port> -> ``target``. ``black_hole()``: every open connection
    and every new one stops carrying bytes in either direction, without a FIN or RST (a phone
    whose Wi-Fi silently died); ``restore()``: new connections work again (the old ones stay
    dead, as after a real outage)."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.holed = threading.Event()
        self._conns: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self.holed.is_set():
                with self._lock:
                    self._conns.append((client, client))  # accepted, never answered
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns.append((client, upstream))
            gen = len(self._conns)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b, gen), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, gen: int) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if self.holed.is_set() or self._dead(gen):
                    continue  # swallowed: nothing arrives, nothing is refused
                dst.sendall(data)
        except OSError:
            pass
        if not self.holed.is_set() and not self._dead(gen):
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    _dead_before = 0

    def _dead(self, gen: int) -> bool:
        return gen <= self._dead_before

    def black_hole(self) -> None:
        with self._lock:
            self._dead_before = len(self._conns)
        self.holed.set()

    def restore(self) -> None:
        with self._lock:
            self._dead_before = len(self._conns)
        self.holed.clear()

    def close(self) -> None:
        self._closed = True
        self._server.close()
        with self._lock:
            for a, b in self._conns:
                for s in (a, b):
                    try:
                        s.close()
                    except OSError:
                        pass


@pytest.fixture
def private_redis():
    server = PrivateRedis()
    yield server
    server.close()
