"""What the loopback stand-ins (fakeapi.py, openmeteo.py, wsserver.py) share: how they serve and stop."""

import os
import signal
import sys
import threading
import time


def exit_on_signals_and_with_parent(with_parent):
    """Exit at once on SIGTERM/SIGINT and, if `with_parent`, when the parent process goes.

    Exiting at once matters: joining handler threads (a client may hold a connection open)
    could otherwise block shutdown indefinitely.
    """

    def stop(*_):
        sys.stdout.flush()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if with_parent:
        parent = os.getppid()

        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            stop()

        threading.Thread(target=watch, daemon=True).start()


def serve_http(server, with_parent):
    """Print "PORT <n>", then serve `server` (an HTTPServer) until a signal or the parent ends it."""
    exit_on_signals_and_with_parent(with_parent)
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    except SystemExit:
        pass
    finally:
        server.server_close()
    return 0
